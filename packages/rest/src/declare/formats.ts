import type { Format } from '@lib/format';
import type { RouteOption } from './route-option.js';

/** Accepted request body formats, as a route option. */
export class RequestFormats<T> implements RouteOption<T, unknown> {
  readonly optionKind = 'requestFormats';
  declare readonly '~route'?: (req: T, resp: unknown) => void;
  readonly formats: readonly Format<T>[];
  constructor(formats: readonly Format<T>[]) {
    this.formats = formats;
  }
}

/** Served response body formats, as a route option. */
export class ResponseFormats<T> implements RouteOption<unknown, T> {
  readonly optionKind = 'responseFormats';
  declare readonly '~route'?: (req: unknown, resp: T) => void;
  readonly formats: readonly Format<T>[];
  constructor(formats: readonly Format<T>[]) {
    this.formats = formats;
  }
}

/**
 * The request body formats a route accepts, selected by `Content-Type`. The first is what clients send. Default: JSON of the request codec.
 */
export function requestFormats<T>(...formats: Format<T>[]): RequestFormats<T> {
  return new RequestFormats(formats);
}

/**
 * The response body formats a route serves, selected by `Accept`.
 * The first is the default. Default: JSON of the response codec.
 */
export function formats<T>(...formats: Format<T>[]): ResponseFormats<T> {
  return new ResponseFormats(formats);
}
