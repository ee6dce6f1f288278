import { defineEntry, type Codec, type EncodeOptions } from '@lib/codec';
import { rewriteWire, type WireRewrite } from './native-wire.js';

/** How a format takes a codec's value as data (see {@link encodeData}). */
export interface EncodeDataOptions {
  /**
   * Encode with `{ rawBinary: true }`: `bytes()` values stay `Uint8Array`s (CBOR byte strings)
   * instead of base64 text, and every `Uint8Array` is kept as it is.
   */
  readonly rawBinary?: boolean;
  /** The format's native leaves, rewritten where the codec says what a value is (CBOR integers, TOML date-times). */
  readonly native?: WireRewrite;
}

const RAW_BINARY: EncodeOptions = { rawBinary: true };

/**
 * The data a format writes for `value`: one contract for every format that writes a codec's
 * whole value, the one JSON follows (`encodeJson` is `JSON.stringify(codec.encode(value))`).
 *
 * 1. `codec.encode(value)` checks the structure and builds the wire value: undeclared object
 *    fields are left out, `time()` and `date()` become RFC 3339 text; no constraint runs (the
 *    server checks them with `codec.validate` when it validates responses, whatever the format).
 * 2. {@link jsonData} takes it through the JSON data model as `JSON.stringify` does (bigints and,
 *    with `rawBinary`, `Uint8Array`s kept), so values a codec passes through as they are
 *    (`any()`, Standard Schema codecs) are the same data in every format: a `Date` is its RFC
 *    3339 text, `undefined` is left out.
 * 3. `options.native` rewrites the leaves the format carries natively, along the codec.
 *
 * Returns `undefined` when there is no value (an empty body, as JSON's `''`).
 * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
 * @throws {TypeError} for a circular value, as `JSON.stringify`.
 */
export function encodeData<T>(codec: Codec<T>, value: T, options: EncodeDataOptions = {}): unknown {
  const raw = options.rawBinary === true;
  const data = jsonData(codec.encode(value, raw ? RAW_BINARY : undefined), raw);
  return options.native === undefined || data === undefined ? data : rewriteWire(options.native, codec as Codec<unknown>, data);
}

/**
 * `wire` as `JSON.parse(JSON.stringify(wire))` would give it (RFC 8259 data: plain objects,
 * arrays, strings, finite numbers, booleans, `null`), except that bigints stay bigints (formats
 * with native integers write them; JSON refuses them) and, with `keepBytes`, `Uint8Array`s stay
 * as they are. As `JSON.stringify`: `toJSON(key)` is called (a `Date` becomes its RFC 3339 text,
 * an invalid one `null`); `undefined`, functions and symbols are left out of objects and are
 * `null` in arrays; non-finite numbers are `null` and `-0` is `0`; boxed primitives are their
 * value; objects are their own enumerable string keys (a `Map` or a `Set` is `{}`; class
 * instances and null-prototype objects become plain objects); arrays are their items. Keys are
 * written as own properties (`__proto__` included). The input is never mutated: containers are
 * copied where something changes and returned as they are otherwise. A value shared twice is
 * written twice.
 * @throws {TypeError} for a circular value.
 * @throws what a `toJSON` method or a getter throws.
 */
export function jsonData(wire: unknown, keepBytes: boolean): unknown {
  return toData(wire, '', keepBytes, []);
}

/**
 * The data of `value`, read under `key` (an array index is made text only for a `toJSON` call);
 * `open` holds the containers being walked (its ancestors).
 */
function toData(value: unknown, key: string | number, keepBytes: boolean, open: object[]): unknown {
  let v = value;
  if (typeof v === 'object' && v !== null) {
    if (keepBytes && v instanceof Uint8Array) return v;
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') v = (toJSON as (this: object, key: string) => unknown).call(v, String(key));
  }
  if (typeof v === 'object' && v !== null && (v instanceof Number || v instanceof String || v instanceof Boolean)) v = v.valueOf();
  switch (typeof v) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return v;
    case 'number':
      return !Number.isFinite(v) ? null : v === 0 ? 0 : v;
    case 'object':
      return v === null ? null : toContainer(v, keepBytes, open);
    default:
      // undefined, functions and symbols: no value.
      return undefined;
  }
}

function toContainer(v: object, keepBytes: boolean, open: object[]): unknown {
  // A linear search of the ancestors, as JSON.stringify does: far cheaper than a Set at the
  // depths of real values, and a value too deep for it is too deep for the walk's stack anyway.
  if (open.includes(v)) throw new TypeError('the value is circular: it holds itself');
  open.push(v);
  try {
    if (Array.isArray(v)) {
      const items = v as unknown[];
      // Built only when an item changes (an array of another class is always rebuilt).
      let out: unknown[] | undefined = Object.getPrototypeOf(v) === Array.prototype ? undefined : [];
      for (let i = 0; i < items.length; i++) {
        const x = items[i];
        const d = toData(x, i, keepBytes, open) ?? null;
        if (out === undefined) {
          if (d === x) continue;
          out = items.slice(0, i);
        }
        out.push(d);
      }
      return out ?? v;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    // Each property is read once (getters run once), as JSON.stringify reads it.
    const data: unknown[] = new Array(keys.length);
    const proto: unknown = Object.getPrototypeOf(v);
    // Anything but a plain object (a class instance, a null-prototype table), or an object with
    // symbol keys (which JSON leaves out), is rebuilt.
    let changed = proto !== Object.prototype || Object.getOwnPropertySymbols(o).length > 0;
    for (let i = 0; i < keys.length; i++) {
      const x = o[keys[i] as string];
      const d = toData(x, keys[i] as string, keepBytes, open);
      data[i] = d;
      // A key whose value is undefined is left out: a change even when it was undefined already.
      if (d !== x || d === undefined) changed = true;
    }
    if (!changed) return v;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) if (data[i] !== undefined) defineEntry(out, keys[i] as string, data[i]);
    return out;
  } finally {
    open.pop();
  }
}
