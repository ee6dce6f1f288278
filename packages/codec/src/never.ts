import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Codec that admits no value: decoding refuses every input (constraint `type`), encoding throws an
 * `EncodeError` for every value. Schema `{ not: {} }` (JSON Schema 2020-12 §10.2.1.4: nothing
 * validates). As a route's `response` it declares a route that never succeeds: its handler's
 * type is a function that does not return (`() => never`), and the route documents only the
 * error responses its rules declare.
 */
export class NeverCodec extends Codec<never> {
  readonly kind = 'never';
  protected parse(input: unknown, ctx: DecodeContext): Invalid {
    return ctx.addIssue(`expected no value, got ${describeType(input)}`, 'type', input);
  }
  protected serialize(value: never): unknown {
    throw mismatch('no value', value);
  }
  protected baseSchema(): JsonSchema {
    return { not: {} };
  }
}

/** A codec that admits no value: `response: codec.never()` for a route that only answers errors. */
// @__NO_SIDE_EFFECTS__
export function never(): NeverCodec {
  return new NeverCodec();
}
