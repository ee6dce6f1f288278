import { isDateTime } from '@lib/codec';
import { syntaxError } from './body-error.js';

/** How deep arrays, maps and tags may nest in a CBOR body. */
export const MAX_CBOR_DEPTH = 512;

const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Checks that `b` is exactly one well-formed CBOR data item (RFC 8949 §3, Appendix C) within the
 * data model this package reads, before a decoder sees it:
 *
 * - text strings are valid UTF-8 (§3.1) and map keys are text strings, unique within their map
 *   (§5.6: duplicate keys make a map invalid);
 * - the only tags are 0 (an RFC 3339 date-time text), 1 (epoch seconds, a number), 2 and 3
 *   (bignums of at most 8 bytes), 64 (a `Uint8Array`, RFC 8746) and 55799 (self-described
 *   CBOR); every other tag — value sharing (28/29), records, packed values, typed arrays,
 *   sets, class instances — is refused;
 * - the only simple values are `false`, `true`, `null` and `undefined`; indefinite-length
 *   strings are refused (indefinite arrays and maps are read);
 * - nesting is at most {@link MAX_CBOR_DEPTH} levels, and every length fits in what remains of
 *   the input, so no allocation exceeds the body's size.
 *
 * @throws {import('@lib/codec').DecodeError} `syntax`: `body is not valid CBOR: …`.
 */
export function scanCbor(b: Uint8Array): void {
  let pos = 0;
  const fail = (reason: string): never => {
    throw syntaxError('CBOR', reason);
  };
  const need = (n: number): void => {
    if (n > b.length - pos) fail(`it ends early (offset ${pos})`);
  };
  /** The initial byte's major type and additional information, and the argument. */
  const head = (): [major: number, info: number, arg: number] => {
    need(1);
    const ib = b[pos++] as number;
    const major = ib >> 5;
    const info = ib & 0x1f;
    if (info < 24) return [major, info, info];
    if (info === 31) return [major, info, 0];
    if (info > 27) return fail(`reserved additional information ${info} (offset ${pos - 1})`);
    const size = 1 << (info - 24);
    need(size);
    let arg = 0;
    for (let i = 0; i < size; i++) arg = arg * 256 + (b[pos++] as number);
    return [major, info, arg];
  };
  const skip = (n: number): void => {
    need(n);
    pos += n;
  };
  const readText = (n: number): string => {
    need(n);
    const start = pos;
    pos += n;
    try {
      return text.decode(b.subarray(start, pos));
    } catch {
      return fail(`a text string is not valid UTF-8 (offset ${start})`);
    }
  };
  const byteString = (what: string, maxLength: number): void => {
    const at = pos;
    const [major, info, n] = head();
    if (major !== 2 || info === 31) fail(`${what} must hold a byte string (offset ${at})`);
    if (n > maxLength) fail(`${what} is longer than ${maxLength} bytes (offset ${at})`);
    skip(n);
  };

  /** Reads one item; returns the text of a text string, `undefined` for anything else. */
  const item = (depth: number, textOnly?: string): string | undefined => {
    if (depth > MAX_CBOR_DEPTH) fail(`it nests more than ${MAX_CBOR_DEPTH} levels deep`);
    const at = pos;
    const [major, info, n] = head();
    if (textOnly !== undefined && (major !== 3 || info === 31)) fail(`${textOnly} (offset ${at})`);
    switch (major) {
      case 0: // unsigned integer
      case 1: // negative integer
        if (info === 31) fail(`an integer cannot have indefinite length (offset ${at})`);
        return undefined;
      case 2: // byte string
      case 3: // text string
        if (info === 31) fail(`indefinite-length strings are not supported (offset ${at})`);
        if (major === 2) {
          skip(n);
          return undefined;
        }
        return readText(n);
      case 4: // array
        if (info === 31) {
          while (peekBreak() === false) item(depth + 1);
        } else {
          // Every item takes at least one byte.
          need(n);
          for (let i = 0; i < n; i++) item(depth + 1);
        }
        return undefined;
      case 5: {
        // map
        const keys = new Set<string>();
        const entry = (): void => {
          const keyAt = pos;
          const key = item(depth + 1, 'map keys must be text strings') as string;
          if (keys.has(key)) fail(`duplicate map key ${JSON.stringify(key)} (offset ${keyAt})`);
          keys.add(key);
          item(depth + 1);
        };
        if (info === 31) {
          while (peekBreak() === false) entry();
        } else {
          // Every entry takes at least two bytes.
          need(2 * n);
          for (let i = 0; i < n; i++) entry();
        }
        return undefined;
      }
      case 6: // tag
        if (info === 31) fail(`a tag cannot have indefinite length (offset ${at})`);
        switch (n) {
          case 0: {
            const s = item(depth + 1, 'tag 0 must hold a text string') as string;
            if (!isDateTime(s)) fail(`tag 0 must hold an RFC 3339 date-time (offset ${at})`);
            return undefined;
          }
          case 1: {
            need(1);
            const m = (b[pos] as number) >> 5;
            const i = (b[pos] as number) & 0x1f;
            if (!(m === 0 || m === 1 || (m === 7 && i >= 25 && i <= 27))) fail(`tag 1 must hold a number (offset ${at})`);
            item(depth + 1);
            return undefined;
          }
          case 2:
          case 3:
            byteString(`bignum tag ${n}`, 8);
            return undefined;
          case 64:
            byteString('tag 64', Number.MAX_SAFE_INTEGER);
            return undefined;
          case 55799:
            return item(depth + 1, textOnly);
          default:
            return fail(`tag ${n} is not supported (offset ${at})`);
        }
      default: // 7: simple values and floats
        if (info === 31) fail(`unexpected break (offset ${at})`);
        if (info >= 20 && info <= 23) return undefined; // false, true, null, undefined
        if (info >= 25 && info <= 27) return undefined; // half, single, double precision floats
        return fail(`simple value ${info === 24 ? n : info} is not supported (offset ${at})`);
    }
  };
  /** Consumes a break (0xff) and returns true, or returns false before another item. */
  const peekBreak = (): boolean => {
    need(1);
    if (b[pos] !== 0xff) return false;
    pos++;
    return true;
  };

  item(0);
  if (pos !== b.length) fail(`extra bytes after the value (offset ${pos})`);
}
