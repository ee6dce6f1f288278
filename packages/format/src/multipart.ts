import { SchemaGenerator, type JsonSchema, type ObjectCodec, type ObjectOutput, type Shape } from '@lib/codec';
import { concatBytes } from './bytes.js';
import * as MP from 'multipasta';
import { BodyLimitError, type FileStore, type Format, type StreamInfo } from './format.js';
import { syntaxError } from './internal/body-error.js';
import { byteLimit } from './internal/byte-limit.js';
import { fieldText, formFields, formSchema, wireObject, type FormField } from './internal/form-fields.js';

const MULTIPART = 'multipart/form-data';
const OCTETS = 'application/octet-stream';
const encoder = new TextEncoder();

/** Limits of {@link multipart}, checked while the body is read: passing one is a 413. */
export interface MultipartOptions {
  /**
   * The largest `bytes()` file part, in bytes. Default: the field codec's own
   * `validate.maxBytes(n)`, else none of the part's own (the body limit bounds it); given, it
   * bounds every `bytes()` part (together with a smaller `maxBytes` of the codec). `blob()` parts
   * are bounded by the blob codec's own `maxBytes`.
   */
  readonly maxFileBytes?: number;
  /** The largest text field, in bytes (default 64 KiB). */
  readonly maxFieldBytes?: number;
  /** The most parts a body may have (default 1000). */
  readonly maxParts?: number;
  /**
   * The largest body, parts and their headers together, in bytes. Default: the sum of what
   * every field may hold (each file part's limit, `maxFieldBytes` per text field, 1 KiB per part
   * for its boundary and headers, 1 KiB for the closing boundary) when the limits are stated —
   * every file part has one of its own (its codec's `maxBytes`, or `maxFileBytes`), or the form
   * has no file part and `maxFieldBytes` is given — and no field repeats; else none of its own:
   * the server's `maxBodyBytes` (1 MiB by default) bounds the whole body. It is the format's
   * {@link MultipartFormat.maxBodyBytes}, the route's body limit unless the route sets one.
   */
  readonly maxTotalBytes?: number;
}

/** What a part's boundary line and headers may add to its content, in the derived body limit: 1 KiB. */
const PART_OVERHEAD = 1024;

/**
 * 10 MiB: what bounded a `bytes()` file part that states no limit, before such a part was bounded
 * by the body limit alone (the server's `maxBodyBytes`, 1 MiB by default).
 * @deprecated No longer applied: a part without a limit of its own is bounded by the body limit,
 * the one the document's 413 states. Give `maxFileBytes` or the codec's `validate.maxBytes(n)`.
 */
export const DEFAULT_MAX_FILE_BYTES: number = 10 * 1024 * 1024;
/** Default {@link MultipartOptions.maxFieldBytes}: 64 KiB. */
export const DEFAULT_MAX_FIELD_BYTES: number = 64 * 1024;
/** Default {@link MultipartOptions.maxParts}: 1000. */
export const DEFAULT_MAX_PARTS = 1000;

/**
 * The chunks of one file part, pushed by the multipart reader and read by one consumer (the
 * file store), whose progress the reader waits for: {@link Channel.drained} resolves once the
 * consumer holds no chunk it has not taken — it took them all and asks for more, or it will
 * never take another (the part ended and was read, the consumer stopped, the channel failed).
 * A consumer that stops early (`return()`, a failed write) makes later pushes no-ops, so the
 * reader never waits on a reader that is gone.
 */
class Channel implements AsyncIterable<Uint8Array> {
  readonly #queue: Uint8Array[] = [];
  #ended = false;
  #failure: { readonly error: unknown } | undefined;
  /** Set once the consumer stopped iterating, for whatever reason. */
  #closed = false;
  /** Set while the consumer waits for a chunk. */
  #wake: (() => void) | undefined;
  /** Set while the reader waits in {@link Channel.drained}. */
  #drained: (() => void) | undefined;
  push(chunk: Uint8Array): void {
    if (this.#closed || this.#failure !== undefined) return;
    this.#queue.push(chunk);
    this.#wake?.();
  }
  end(): void {
    this.#ended = true;
    this.#wake?.();
    this.#settle();
  }
  fail(error: unknown): void {
    this.#failure ??= { error };
    this.#queue.length = 0;
    this.#wake?.();
    this.#settle();
  }
  /** Resolves once the consumer holds no chunk it has not taken (see the class). Never rejects. */
  drained(): Promise<void> {
    if (this.#idle()) return Promise.resolve();
    return new Promise((resolve) => (this.#drained = resolve));
  }
  #idle(): boolean {
    return this.#closed || this.#failure !== undefined || (this.#queue.length === 0 && (this.#ended || this.#wake !== undefined));
  }
  /** Releases a waiting reader when the consumer became idle. */
  #settle(): void {
    const drained = this.#drained;
    if (drained !== undefined && this.#idle()) {
      this.#drained = undefined;
      drained();
    }
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      for (;;) {
        if (this.#failure !== undefined) throw this.#failure.error;
        const next = this.#queue.shift();
        if (next !== undefined) {
          this.#settle();
          yield next;
          continue;
        }
        if (this.#ended) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          this.#settle();
        });
        this.#wake = undefined;
      }
    } finally {
      this.#closed = true;
      this.#queue.length = 0;
      this.#settle();
    }
  }
}

/**
 * A parameter of a part's `Content-Disposition` (`name`, `filename`), read from the header as
 * sent: browsers put UTF-8 names there, which the parser's own (token-only) reading drops.
 */
function dispositionParam(header: string | string[] | undefined, param: 'name' | 'filename'): string | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (h === undefined) return undefined;
  const m = new RegExp(`;\\s*${param}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s"]+))`, 'i').exec(h);
  if (m === null) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
}

/**
 * A part's name or file name: the escapes HTML forms write (`%22`, `%0D`, `%0A`) are undone, so
 * names with quotes or line breaks round-trip.
 */
function unescapeName(name: string): string {
  return name.replace(/%22/g, '"').replace(/%0D/g, '\r').replace(/%0A/g, '\n');
}

/** The name and file name of a part. */
function partNames(info: MP.PartInfo): { readonly name: string; readonly filename: string | undefined } {
  const header = info.headers['content-disposition'];
  const name = dispositionParam(header, 'name') ?? info.name;
  // RFC 7578 §4.2 / RFC 5987 `filename*` is decoded by the parser.
  const filename = info.contentDispositionParameters['filename*'] !== undefined ? info.filename : (dispositionParam(header, 'filename') ?? info.filename);
  return { name: unescapeName(name), filename: filename === undefined ? undefined : unescapeName(filename) };
}

/** The limit error of a multipasta failure, or the syntax error it stands for. */
function parseError(e: MP.MultipartError, limits: Required<Omit<MultipartOptions, 'maxTotalBytes'>> & { maxTotalBytes: number }): Error {
  switch (e._tag) {
    case 'ReachedLimit':
      return e.limit === 'MaxParts' ? new BodyLimitError('parts', limits.maxParts)
        : e.limit === 'MaxTotalSize' ? new BodyLimitError('total', limits.maxTotalBytes)
        : e.limit === 'MaxFieldSize' ? new BodyLimitError('field', limits.maxFieldBytes)
        : new BodyLimitError('part', limits.maxFileBytes);
    case 'InvalidBoundary':
      return syntaxError(MULTIPART, 'the Content-Type has no boundary parameter');
    case 'BadHeaders':
      return syntaxError(MULTIPART, 'a part has malformed headers');
    case 'InvalidDisposition':
      return syntaxError(MULTIPART, 'a part has no Content-Disposition name');
    case 'EndNotReached':
      return syntaxError(MULTIPART, 'the body ends before its closing boundary');
  }
}

/**
 * One parse of a multipart body: the values of its parts by key, files collected (or handed to
 * a store), and the first failure.
 */
class Reading {
  readonly values: Map<string, unknown[]> = new Map();
  /** The writes of `blob` parts to the store, by insertion. They never reject: a failure is {@link Reading.failure}. */
  readonly stored: Promise<void>[] = [];
  /** The channel of the file part being read, while there is one. */
  current: Channel | undefined;
  readonly channels: Channel[] = [];
  failure: unknown;
  done = false;
  readonly parser: MP.Parser;

  constructor(
    contentType: string,
    byKey: ReadonlyMap<string, FormField>,
    limits: Required<Omit<MultipartOptions, 'maxTotalBytes'>> & { maxTotalBytes: number },
    partLimits: ReadonlyMap<FormField, number>,
    store: FileStore | undefined,
  ) {
    const add = (key: string, v: unknown): void => {
      const vs = this.values.get(key);
      if (vs === undefined) this.values.set(key, [v]);
      else vs.push(v);
    };
    const fail = (err: unknown): void => {
      this.failure ??= err;
    };
    this.parser = MP.make({
      headers: { 'content-type': contentType },
      // A part is a file exactly when its field is one (bytes, blob); anything else is text.
      isFile: (info) => {
        const r = byKey.get(partNames(info).name)?.reader;
        return r === 'bytes' || r === 'blob';
      },
      maxParts: limits.maxParts,
      maxFieldSize: limits.maxFieldBytes,
      maxTotalSize: limits.maxTotalBytes,
      onField: (info, value) => add(partNames(info).name, MP.decodeField(info, value)),
      onFile: (info) => {
        const { name, filename } = partNames(info);
        const field = byKey.get(name) as FormField;
        const type = info.contentType === '' ? OCTETS : info.contentType;
        const limit = partLimits.get(field) ?? Infinity;
        let size = 0;
        if (field.reader === 'blob' && store !== undefined) {
          const channel = new Channel();
          this.channels.push(channel);
          this.current = channel;
          const slot = this.values.get(name)?.length ?? 0;
          add(name, undefined);
          let written: Promise<Blob>;
          try {
            written = store.write(channel, type, filename);
          } catch (err) {
            written = Promise.reject(err);
          }
          // Handled at once: a store that fails (no space, no directory, no descriptor left) ends
          // the reading with its error instead of an unhandled rejection.
          this.stored.push(
            written.then(
              (blob) => {
                (this.values.get(name) as unknown[])[slot] = blob;
              },
              (err: unknown) => {
                fail(err);
                channel.fail(err);
              },
            ),
          );
          return (chunk) => {
            if (chunk === null) {
              if (this.current === channel) this.current = undefined;
              return channel.end();
            }
            if ((size += chunk.byteLength) > limit) {
              const err = new BodyLimitError('part', limit);
              fail(err);
              channel.fail(err);
              return;
            }
            // A view of the body's chunk: the next body chunk is read once the store took this one.
            channel.push(chunk);
          };
        }
        const chunks: Uint8Array[] = [];
        return (chunk) => {
          if (chunk === null) {
            const bytes = concatBytes(chunks, size);
            if (field.reader === 'bytes') add(name, bytes);
            else add(name, filename === undefined ? new Blob([bytes as Uint8Array<ArrayBuffer>], { type }) : new File([bytes as Uint8Array<ArrayBuffer>], filename, { type }));
            return;
          }
          if ((size += chunk.byteLength) > limit) return fail(new BodyLimitError('part', limit));
          chunks.push(chunk.slice());
        };
      },
      onError: (e) => fail(parseError(e, limits)),
      onDone: () => {
        this.done = true;
      },
    });
  }

  /** Ends every store write with `err` and waits until each has let go of its file. Never rejects. */
  async abort(err: unknown): Promise<void> {
    for (const c of this.channels) c.fail(err);
    await Promise.all(this.stored);
  }
}

/**
 * The `multipart/form-data` body format of an object codec (RFC 7578): what an HTML form with
 * `enctype="multipart/form-data"`, or `fetch` with a `FormData` body, sends.
 *
 * **Fields.** Each field of the object codec (under its wire name) is one part name:
 * - `codec.bytes()` fields (refined as you like: `validate.png`, `validate.maxBytes`) receive a
 *   file part's raw bytes as a `Uint8Array`, held in memory up to the codec's `maxBytes` (or
 *   `maxFileBytes`; neither: up to the body limit); the codec's constraints run on them;
 * - `codec.blob()` fields receive a `Blob` (a `File` when the part had a file name) — on the
 *   server written to a temporary file as it arrives, so a 100 MB upload never sits in memory;
 *   bounded by the blob codec's `maxBytes` only;
 * - a field a text carries is a text part read as `format.form` reads a field (strings,
 *   numbers, booleans, literals, times, …), and an `array(...)` field is a repeated name;
 * - any other field (an object, a record, a union, a nested array) is a JSON part, written with
 *   `Content-Type: application/json` (the default OpenAPI 3.1 §4.8.15.1 gives complex values) and
 *   read as JSON whatever its part's type (a browser's `FormData` sends it as text); a part that
 *   is not JSON reaches the codec as text, which refuses it at the field. JSON parts are bounded
 *   as text fields are (`maxFieldBytes`).
 *
 * **Reading** (`unmarshalStream`, what the server uses) parses the body as it arrives with
 * `multipasta`, and decodes the object through the codec: issues name the fields as JSON would
 * (`avatar: must be a PNG image`). Limits are checked as bytes arrive and throw `BodyLimitError`
 * at once, without reading the rest (`which`: `part`, `field`, `parts`, `total`): the server
 * answers 413 Content Too Large (RFC 9110 §15.5.14). A body that is not multipart — no boundary,
 * malformed part headers, a part without a name, no closing boundary — is a `DecodeError`,
 * constraint `syntax`. `unmarshal(bytes)` reads a whole body, taking the boundary from its first
 * line (`--boundary`), with `blob` fields in memory.
 *
 * **Writing** (what the client uses): `marshalMessageAsync(value)` gives the body and its exact
 * `Content-Type` (`multipart/form-data; boundary=…`, a random 128-bit boundary). Text fields are
 * UTF-8; file parts carry `filename` (a `File`'s name, else the field name) and a `Content-Type`
 * (the media type the field's constraints give, such as `image/png`; a Blob's own type; else
 * `application/octet-stream`). Names are escaped as HTML forms do (`"` → `%22`, CR → `%0D`,
 * LF → `%0A`), and read back unescaped; names are UTF-8. `marshalMessage` and `marshal` do the same synchronously and throw a `TypeError`
 * for a `Blob` field, whose content cannot be read synchronously.
 *
 * OpenAPI: the body schema describes text fields by meaning, JSON parts by their JSON Schema, and
 * file fields as `{ type: 'string', contentMediaType }`; `encoding` gives each file field's
 * `contentType`.
 */
export class MultipartFormat<S extends Shape> implements Format<ObjectOutput<S>> {
  readonly contentType: string = MULTIPART;
  readonly codec: ObjectCodec<S>;
  /** OpenAPI 3.1 Encoding Objects of the file fields, by wire name. */
  readonly encoding: Readonly<Record<string, { readonly contentType: string }>>;
  readonly #fields: readonly FormField[];
  readonly #byKey: ReadonlyMap<string, FormField>;
  readonly #limits: Required<Omit<MultipartOptions, 'maxTotalBytes'>> & { maxTotalBytes: number };
  /** The limit of each file field's parts, in bytes. */
  readonly #partLimits: ReadonlyMap<FormField, number>;
  /**
   * The largest body this format reads, in bytes, when its codec or options state it:
   * `maxTotalBytes`, else the sum of what every field may hold (see
   * {@link MultipartOptions.maxTotalBytes}); `undefined` when a field repeats, a file part states
   * no limit, or nothing is stated — the server's `maxBodyBytes` then bounds the body. The
   * route's body limit unless it sets its own.
   */
  readonly maxBodyBytes: number | undefined;
  /** Where `maxBodyBytes` comes from, when it is derived from the parts' limits ({@link Format.maxBodyBytesFrom}). */
  readonly maxBodyBytesFrom: string | undefined;
  #schema: JsonSchema | undefined;

  /** @throws {TypeError} when a limit is not a positive number. */
  constructor(codec: ObjectCodec<S>, options: MultipartOptions = {}) {
    this.codec = codec;
    this.#fields = formFields('format.multipart', codec as unknown as ObjectCodec<Shape>, true);
    this.#byKey = new Map(this.#fields.map((f) => [f.key, f]));
    for (const [k, v] of Object.entries(options)) {
      if (v !== undefined && (typeof v !== 'number' || !(v > 0))) throw new TypeError(`format.multipart: ${k} must be a positive number, got ${String(v)}`);
    }
    this.#limits = {
      maxFileBytes: options.maxFileBytes ?? Infinity,
      maxFieldBytes: options.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
      maxParts: options.maxParts ?? DEFAULT_MAX_PARTS,
      maxTotalBytes: options.maxTotalBytes ?? Infinity,
    };
    const encoding: Record<string, { contentType: string }> = {};
    for (const f of this.#fields) if (f.reader === 'bytes' || f.reader === 'blob') encoding[f.key] = { contentType: fileType(f) };
    this.encoding = encoding;
    this.#partLimits = partLimits(this.#fields, options.maxFileBytes);
    this.maxBodyBytes = options.maxTotalBytes ?? statedTotal(this.#fields, this.#partLimits, options.maxFieldBytes);
    this.maxBodyBytesFrom = options.maxTotalBytes === undefined && this.maxBodyBytes !== undefined ? derivation(this.#fields, this.#partLimits, options.maxFieldBytes) : undefined;
  }

  /** The object schema: text fields by meaning, file fields as binary strings of their media type. */
  get bodySchema(): JsonSchema {
    return (this.#schema ??= this.bodySchemaWith(new SchemaGenerator()));
  }

  /** {@link MultipartFormat.bodySchema}, each JSON or text part's schema by `gen` (a named codec a reference to its component). */
  bodySchemaWith(gen: SchemaGenerator): JsonSchema {
    return formSchema(this.codec as unknown as ObjectCodec<Shape>, this.#fields, (f) => {
      const s: JsonSchema = { type: 'string', contentMediaType: fileType(f) };
      const description = f.codec.meta.description ?? f.item.meta.description;
      if (description !== undefined) s.description = description;
      return s;
    }, gen);
  }

  /**
   * Reads a body as it arrives and decodes it through the codec.
   * @throws {BodyLimitError} as soon as a limit is passed.
   * @throws {import('@lib/codec').DecodeError} `syntax` for a body that is not multipart, or the codec's issues.
   */
  async unmarshalStream(body: AsyncIterable<Uint8Array>, info: StreamInfo): Promise<ObjectOutput<S>> {
    const reading = new Reading(info.contentType, this.#byKey, this.#limits, this.#partLimits, info.files);
    try {
      if (reading.failure === undefined) {
        for await (const chunk of body) {
          if (info.signal.aborted) throw info.signal.reason;
          reading.parser.write(chunk);
          if (reading.failure !== undefined || reading.done) break;
          // Backpressure: the next chunk is read once the file store took this one.
          await reading.current?.drained();
          if (reading.failure !== undefined) break;
        }
      }
      if (reading.failure === undefined && !reading.done) reading.parser.end();
      if (reading.failure !== undefined) throw reading.failure;
      for (const c of reading.channels) c.end();
      await Promise.all(reading.stored);
      if (reading.failure !== undefined) throw reading.failure;
    } catch (err) {
      await reading.abort(err);
      throw err;
    }
    return this.codec.decode(wireObject(this.#fields, reading.values));
  }

  /**
   * Reads a whole body; the boundary is taken from its first line. `blob` fields are in memory.
   * @throws {BodyLimitError} when a limit is passed.
   * @throws {import('@lib/codec').DecodeError} `syntax` for a body that is not multipart, or the codec's issues.
   */
  unmarshal(bytes: Uint8Array): ObjectOutput<S> {
    const reading = new Reading(`${MULTIPART}; boundary="${boundaryOf(bytes)}"`, this.#byKey, this.#limits, this.#partLimits, undefined);
    if (reading.failure === undefined) reading.parser.write(bytes);
    if (reading.failure === undefined && !reading.done) reading.parser.end();
    if (reading.failure !== undefined) throw reading.failure;
    return this.codec.decode(wireObject(this.#fields, reading.values));
  }

  /**
   * The body and its `Content-Type`, with `Blob` fields read.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} when a text field's wire value is not text, a number or a boolean.
   */
  async marshalMessageAsync(value: ObjectOutput<S>): Promise<{ readonly contentType: string; readonly body: Uint8Array }> {
    const { contentType, parts } = this.#message(value, await readBlobs(this.#fields, value as Record<string, unknown>));
    return { contentType, body: concatBytes(parts as Uint8Array[]) };
  }

  /**
   * The body as a `Blob` and its `Content-Type`, synchronously: `Blob` fields go into it as they
   * are, unread (a `fetch` body that streams large files instead of holding them in memory).
   * @throws as {@link MultipartFormat.marshalMessage}, but never for a `Blob` field.
   */
  marshalBlob(value: ObjectOutput<S>): { readonly contentType: string; readonly body: Blob } {
    const { contentType, parts } = this.#message(value, 'keep');
    return { contentType, body: new Blob(parts as (Uint8Array<ArrayBuffer> | Blob)[]) };
  }

  /**
   * The body and its `Content-Type`.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} for a `Blob` field (use {@link MultipartFormat.marshalMessageAsync}), or a text field that is not text.
   */
  marshalMessage(value: ObjectOutput<S>): { readonly contentType: string; readonly body: Uint8Array } {
    const { contentType, parts } = this.#message(value, new Map());
    return { contentType, body: concatBytes(parts as Uint8Array[]) };
  }

  /**
   * The body alone (its first line names the boundary, which {@link MultipartFormat.unmarshal} reads).
   * @throws as {@link MultipartFormat.marshalMessage}.
   */
  marshal(value: ObjectOutput<S>): Uint8Array {
    return this.marshalMessage(value).body;
  }

  /**
   * The parts of a body: with `blobs` the content of each `Blob` field (read beforehand), or
   * `'keep'` to put each `Blob` in as it is.
   */
  #message(value: ObjectOutput<S>, blobs: ReadonlyMap<Blob, Uint8Array> | 'keep'): { readonly contentType: string; readonly parts: readonly (Uint8Array | Blob)[] } {
    // File fields are written from the value itself: their wire (base64) is never made.
    const wire = this.codec.encode(value, { rawBinary: true }) as Record<string, unknown>;
    const v = value as Record<string, unknown>;
    const boundary = newBoundary();
    const parts: (Uint8Array | Blob)[] = [];
    const head = (name: string, filename: string | undefined, type: string | undefined): void => {
      let h = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"`;
      if (filename !== undefined) h += `; filename="${escapeName(filename)}"`;
      if (type !== undefined) h += `\r\nContent-Type: ${type}`;
      parts.push(encoder.encode(`${h}\r\n\r\n`));
    };
    for (const f of this.#fields) {
      if (f.reader === 'bytes' || f.reader === 'blob') {
        const raw = v[f.prop];
        if (raw === undefined) continue;
        const files = f.multi ? (raw as unknown[]) : [raw];
        for (const file of files) {
          let bytes: Uint8Array | Blob;
          let filename = f.key;
          let type = fileType(f);
          if (file instanceof Blob) {
            const read = blobs === 'keep' ? file : blobs.get(file);
            if (read === undefined) throw new TypeError(`format.multipart: field ${JSON.stringify(f.prop)} holds a Blob, whose content cannot be read synchronously: use marshalMessageAsync or marshalBlob`);
            bytes = read;
            if (file instanceof File && file.name !== '') filename = file.name;
            if (type === OCTETS && file.type !== '') type = file.type;
          } else bytes = file as Uint8Array;
          head(f.key, filename, type);
          parts.push(bytes, encoder.encode('\r\n'));
        }
        continue;
      }
      const w = wire[f.key];
      if (w === undefined) continue;
      const json = f.reader === 'json';
      const items = f.multi && Array.isArray(w) ? w : [w];
      const texts = json ? items.map((x) => JSON.stringify(x)) : items.map((x, i) => fieldText('format.multipart', x, f.multi ? [f.key, i] : [f.key]));
      for (const t of texts) {
        head(f.key, undefined, json ? 'application/json' : undefined);
        parts.push(encoder.encode(`${t}\r\n`));
      }
    }
    parts.push(encoder.encode(`--${boundary}--\r\n`));
    return { contentType: `${MULTIPART}; boundary=${boundary}`, parts };
  }
}

/**
 * The limit of each file field's parts, in bytes, as the route states it: the codec's own
 * (`validate.maxBytes`, a blob's `maxBytes`), and for `bytes()` parts `maxFileBytes` when given;
 * `Infinity` for a part nothing bounds (the body limit bounds it).
 */
function partLimits(fields: readonly FormField[], maxFileBytes: number | undefined): Map<FormField, number> {
  const out = new Map<FormField, number>();
  for (const f of fields) {
    if (f.reader !== 'bytes' && f.reader !== 'blob') continue;
    const own = byteLimit(f.item) ?? Infinity;
    out.set(f, f.reader === 'bytes' && maxFileBytes !== undefined ? Math.min(maxFileBytes, own) : own);
  }
  return out;
}

/**
 * The largest body the stated limits let through, in bytes: 1 KiB for the closing boundary, and
 * for each field 1 KiB for its boundary and headers plus its part limit (`maxFieldBytes`, default
 * 64 KiB, for a text field). `undefined` when the form states no such bound — a file part without
 * a limit of its own, a field that repeats, or no file part and no `maxFieldBytes` — so that
 * defaults never make a body limit: the server's `maxBodyBytes` applies.
 */
function statedTotal(fields: readonly FormField[], parts: ReadonlyMap<FormField, number>, maxFieldBytes: number | undefined): number | undefined {
  if (parts.size === 0 && maxFieldBytes === undefined) return undefined;
  let total = PART_OVERHEAD;
  for (const f of fields) total += f.multi ? Infinity : PART_OVERHEAD + (parts.get(f) ?? maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES);
  return Number.isFinite(total) ? total : undefined;
}

/** How {@link statedTotal} came to its total, field by field, in the limits as written. */
function derivation(fields: readonly FormField[], parts: ReadonlyMap<FormField, number>, maxFieldBytes: number | undefined): string {
  const each = fields.map((f) => {
    const part = parts.get(f);
    return part === undefined ? `the field ${JSON.stringify(f.key)} of at most ${maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES} bytes` : `the file part ${JSON.stringify(f.key)} of at most ${part} bytes`;
  });
  return `${each.join(', ')}, with 1 KiB of boundary and headers each`;
}

/** The media type of a file field: the one its constraints give (`validate.png` → `image/png`), else `application/octet-stream`. */
function fileType(f: FormField): string {
  const t = (f.item.schema as { contentMediaType?: unknown }).contentMediaType;
  return typeof t === 'string' ? t : OCTETS;
}

/** The content of every `Blob` in the file fields of `value`. */
async function readBlobs(fields: readonly FormField[], value: Record<string, unknown>): Promise<Map<Blob, Uint8Array>> {
  const out = new Map<Blob, Uint8Array>();
  for (const f of fields) {
    if (f.reader !== 'blob' && f.reader !== 'bytes') continue;
    const raw = value[f.prop];
    for (const x of Array.isArray(raw) ? raw : [raw]) if (x instanceof Blob && !out.has(x)) out.set(x, new Uint8Array(await x.arrayBuffer()));
  }
  return out;
}

/** A boundary of 128 random bits (RFC 2046 §5.1.1: at most 70 characters, not in the content). */
function newBoundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `----lib${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** A part name or file name inside quotes, escaped as HTML forms escape them. */
function escapeName(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** The boundary named by a body's first line (`--boundary`). @throws {import('@lib/codec').DecodeError} `syntax`. */
function boundaryOf(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 80));
  const m = /^--([0-9A-Za-z'()+_,./:=? -]{1,70}?)[ \t]*\r\n/.exec(head);
  if (m === null) throw syntaxError(MULTIPART, 'the body does not start with a boundary line');
  return m[1] as string;
}

/**
 * The `multipart/form-data` body format of an object codec (`format.multipart(uploadCodec, {
 * maxFileBytes: 5 * 1024 * 1024 })`): file uploads with text fields. See {@link MultipartFormat}.
 * @throws {TypeError} when a field's codec cannot be carried by a multipart part.
 */
// @__NO_SIDE_EFFECTS__
export function multipart<S extends Shape>(codec: ObjectCodec<S>, options?: MultipartOptions): MultipartFormat<S> {
  return new MultipartFormat(codec, options);
}
