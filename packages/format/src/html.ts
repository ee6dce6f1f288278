import type { Codec, JsonSchema } from '@lib/codec';
import type { Format } from './format.js';
import { toUtf8 } from './internal/body-error.js';

/**
 * A response-only HTML body format: `text/html; charset=utf-8` (the HTML Standard; RFC 2854).
 * `render(value)` returns the document as a string; marshal checks the value's structure by
 * encoding it through the codec (an `EncodeError` when it does not have it), then writes
 * `render(value)` as UTF-8. Escaping is `render`'s job: use a template engine that escapes.
 *
 * HTML is not parsed back: `unmarshal` throws a `TypeError` ("HTML is a response-only
 * format"). List it only in a route's response formats (`rest.formats(format.json(c),
 * format.html(c, page))`), where `Accept: text/html` selects it; a client that reads the route
 * gets JSON by asking for it, and a client given only HTML fails with that `TypeError` as the
 * cause of its response error. It is a `TypeError`, not a `DecodeError`, because nothing is wrong
 * with the bytes: the program asked for something the format does not do.
 *
 * `bodySchema` is `{ type: 'string', contentMediaType: 'text/html' }`.
 */
export class HtmlFormat<T> implements Format<T> {
  readonly contentType: string = 'text/html; charset=utf-8';
  readonly codec: Codec<T>;
  readonly bodySchema: JsonSchema = { type: 'string', contentMediaType: 'text/html' };
  /** Always true: the format writes, it does not read. */
  readonly responseOnly: true = true;
  readonly #render: (value: T) => string;
  constructor(codec: Codec<T>, render: (value: T) => string) {
    this.codec = codec;
    this.#render = render;
  }
  /**
   * `render(value)` as UTF-8 bytes.
   * @throws {import('@lib/codec').EncodeError} when the value does not have the codec's structure.
   * @throws {TypeError} when `render` does not return a string; whatever `render` throws.
   */
  marshal(value: T): Uint8Array {
    return toUtf8(this.marshalText(value));
  }
  /**
   * `render(value)`, checked to be a string.
   * @throws as {@link HtmlFormat.marshal}.
   */
  marshalText(value: T): string {
    this.codec.encode(value);
    const html: unknown = this.#render(value);
    if (typeof html !== 'string') throw new TypeError(`format.html: render returned ${typeof html}, not a string`);
    return html;
  }
  /**
   * Not supported.
   * @throws {TypeError} always: HTML is a response-only format.
   */
  unmarshal(_bytes: Uint8Array): T {
    throw new TypeError('HTML is a response-only format: format.html cannot read a body; accept JSON (or another format) for requests');
  }
}

/**
 * A response-only HTML body format (`format.html(pageCodec, (page) => renderPage(page))`),
 * media type `text/html; charset=utf-8`. See {@link HtmlFormat}.
 */
// @__NO_SIDE_EFFECTS__
export function html<T>(codec: Codec<T>, render: (value: T) => string): HtmlFormat<T> {
  return new HtmlFormat(codec, render);
}
