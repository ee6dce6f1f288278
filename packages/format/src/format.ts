import type { Codec, JsonSchema, SchemaGenerator } from '@lib/codec';

/**
 * A body format: how a typed value travels as bytes under one media type. `unmarshal` parses
 * and decodes through the codec (so it validates); `marshal` encodes through the codec, which
 * checks the value's structure but runs no constraint.
 *
 * Formats that stream (`newStreamed`, `multipart`) add the optional members below; the server
 * pipeline and the client use them when present and `marshal` / `unmarshal` otherwise.
 */
export interface Format<T> {
  /** The media type written to `Content-Type` and matched against requests (`application/json`). */
  readonly contentType: string;
  /** The codec of the value. */
  readonly codec: Codec<T>;
  /**
   * The schema of the body under this media type when it is not the codec's own (binary bodies
   * are `{ type: 'string', contentMediaType }`); `undefined` means the codec's schema.
   */
  readonly bodySchema?: JsonSchema;
  /**
   * {@link Format.bodySchema} as a document writes it, for a body schema that holds codecs'
   * schemas (`form`, `multipart`): each by `gen`, so that a named codec is a reference to its
   * component (recursion included) rather than a copy. Optional: `bodySchema` otherwise.
   */
  bodySchemaWith?(gen: SchemaGenerator): JsonSchema;
  /**
   * True for a format that can only write (`html`): clients do not offer it in `Accept`, and
   * its `unmarshal` throws a `TypeError`.
   */
  readonly responseOnly?: boolean;
  /**
   * Serialises a value.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure
   * (a wrong type, a non-finite number, an unsafe integer, a missing required field, an unknown tag).
   * Some formats throw more, as their constructors document: `binary` a `DecodeError` for bytes
   * failing a constraint, `toml`, `xml` and `form` a `TypeError` for values the syntax cannot carry.
   */
  marshal(value: T): Uint8Array;
  /**
   * The body as text, for formats whose bytes are the UTF-8 encoding of a string (`json`, `yaml`,
   * `toml`, `xml`, `html`): `marshal(value)` is exactly the UTF-8 encoding of `marshalText(value)`.
   * Servers send the string as it is (UTF-8 on the wire, `Content-Length` in bytes), without
   * the intermediate byte copy. Optional: formats without it are sent with `marshal`.
   * @throws as {@link Format.marshal}.
   */
  marshalText?(value: T): string;
  /**
   * Parses bytes and decodes them through the codec.
   * @throws {import('@lib/codec').DecodeError} for unparseable bytes (one issue at the root,
   * constraint `syntax`, message `body is not valid <format>: <reason>`) or an invalid value
   * (the codec's issues). A response-only format (`html`) throws a `TypeError`.
   */
  unmarshal(bytes: Uint8Array): T;
  /**
   * A streamed writer: the body as chunks, produced as the consumer pulls them (backpressure).
   * The value's structure is checked before the first chunk; `signal` aborts when the reader
   * went away. Present on streamed formats (`newStreamed`); the server then sends the response
   * with chunked transfer coding instead of calling `marshal`.
   */
  marshalStream?(value: T, signal: AbortSignal): AsyncIterable<Uint8Array>;
  /**
   * A streamed reader: decodes a body from its chunks without holding it whole where the format
   * allows (`multipart` file parts, `newStreamed`). Present on streamed formats; the server and
   * the client use it instead of `unmarshal`.
   * @throws {import('@lib/codec').DecodeError} as `unmarshal`.
   * @throws {BodyLimitError} when a part or the whole body passes a limit of the format.
   */
  unmarshalStream?(body: AsyncIterable<Uint8Array>, info: StreamInfo): Promise<T>;
  /**
   * For a media type whose parameters are chosen per message (the `multipart/form-data`
   * boundary): the bytes and the exact `Content-Type` to send with them.
   */
  marshalMessage?(value: T): { readonly contentType: string; readonly body: Uint8Array };
  /**
   * As {@link Format.marshalMessage}, for values holding parts that are read asynchronously (a
   * multipart `Blob` field). Clients use it when present.
   */
  marshalMessageAsync?(value: T): Promise<{ readonly contentType: string; readonly body: Uint8Array }>;
  /**
   * The same format for another codec (`json`, `yaml`, `toml`, `cbor`, `xml`): the server writes
   * typed error bodies in the format the client negotiated when the format has this, and in
   * JSON otherwise.
   */
  withCodec?<U>(codec: Codec<U>): Format<U>;
  /**
   * OpenAPI 3.1 Encoding Objects of a `multipart/form-data` body, by property name
   * (`{ avatar: { contentType: 'image/png' } }`).
   */
  readonly encoding?: Readonly<Record<string, { readonly contentType: string }>>;
  /**
   * The largest request body this format reads, in bytes, when its codec or options bound it (a
   * multipart body's parts and fields, a binary body's `validate.maxBytes`): the server's body
   * limit for a request in this format unless the route sets `maxBodyBytes` itself. `undefined`:
   * the format states none (the server's default applies).
   */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Where {@link Format.maxBodyBytes} comes from when the format derived it from the limits a
   * codec states, in the words they were written in: `the file part "cover" of at most 2097152
   * bytes, the field "title" of at most 65536 bytes, with 1 KiB of boundary and headers each`. The 413 and the
   * document name it beside the derived total; `undefined` for a limit stated as it is.
   */
  readonly maxBodyBytesFrom?: string | undefined;
  /** Response header lines the server sends with this format (`Cache-Control: no-cache` for event streams). */
  readonly responseHeaders?: readonly (readonly [string, string])[];
  /**
   * The codec of each item of a streamed sequence (NDJSON lines, events): documented in
   * OpenAPI as the media type's `x-itemSchema`.
   */
  readonly itemCodec?: Codec<unknown>;
}

/** What a streamed reader learns of the message besides its bytes. */
export interface StreamInfo {
  /** The whole `Content-Type` value, parameters included (`multipart/form-data; boundary=x`). */
  readonly contentType: string;
  /** Aborts when the peer went away. */
  readonly signal: AbortSignal;
  /**
   * Where the server keeps a large uploaded file (a temporary file on Node), instead of
   * memory; absent on the client and on runtimes without a file system, where files are kept
   * in memory as `Blob`s. The store deletes what it wrote once the response has been sent.
   */
  readonly files?: FileStore;
}

/** Temporary storage for uploaded files, supplied by a server adapter. */
export interface FileStore {
  /**
   * Writes `chunks` and returns a `Blob` (a `File` when `name` is given) reading them back.
   * Awaits each write, so a slow disk slows the upload instead of growing memory.
   * @throws {FileStoreError} (rejects) when the storage fails: no space, a missing or unwritable
   * directory, no descriptor left, or the request's files already deleted.
   * @throws what the iteration of `chunks` throws (the upload failed), unchanged.
   */
  write(chunks: AsyncIterable<Uint8Array>, type: string, name?: string): Promise<Blob>;
}

/**
 * Temporary storage for an uploaded file failed: the device is full, the directory is missing
 * or unwritable, the process has no descriptor left, or the request's files were deleted while
 * it was still being read (its client left). The server answers 507 Insufficient Storage
 * (RFC 4918 §11.5) when the device is full or over quota, and 500 otherwise; the client sees
 * neither the path nor the system's message (they stay in `cause`, for the observer).
 */
export class FileStoreError extends Error {
  /** The system error code of `cause` (`ENOSPC`, `ENOENT`, `EACCES`, `EMFILE`), when it has one. */
  readonly code: string | undefined;
  constructor(cause: unknown) {
    const code = typeof (cause as { code?: unknown } | null)?.code === 'string' ? (cause as { code: string }).code : undefined;
    super(`an uploaded file could not be stored${code === undefined ? '' : ` (${code})`}`, { cause });
    this.name = 'FileStoreError';
    this.code = code;
  }
  /** True when the device is full or the quota used up (`ENOSPC`, `EDQUOT`): 507 rather than 500. */
  get insufficientStorage(): boolean {
    return this.code === 'ENOSPC' || this.code === 'EDQUOT';
  }
}

/**
 * A streamed body passed one of its format's limits (a multipart part, the number of parts,
 * the whole body): the server answers 413 Content Too Large (RFC 9110 §15.5.14).
 */
export class BodyLimitError extends Error {
  /** The limit in bytes (or parts, for `parts`). */
  readonly limit: number;
  /** Which limit: `part` (one file part), `field` (one text field), `parts` (how many), `total` (the whole body). */
  readonly which: 'part' | 'field' | 'parts' | 'total';
  constructor(which: 'part' | 'field' | 'parts' | 'total', limit: number) {
    super(
      which === 'parts' ? `the body has more than ${limit} parts`
      : which === 'total' ? `the body exceeds ${limit} bytes`
      : `a ${which === 'part' ? 'file part' : 'field'} exceeds ${limit} bytes`,
    );
    this.name = 'BodyLimitError';
    this.limit = limit;
    this.which = which;
  }
}

/** A format whose value type is not known statically (per-call overrides, route lists). */
export type AnyFormat = Format<unknown>;

/** The media type of a `Content-Type` value: lower-cased, without parameters (RFC 9110 §8.3.1). */
export function mediaTypeOf(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
