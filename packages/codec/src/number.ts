import { Codec, describeType, type DecodeContext, type Invalid } from './codec.js';
import { encodeIssue, mismatch } from './internal/encode-at.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Codec of a finite number; wire value: a JSON number; schema `{ type: 'number' }`. Encoding checks
 * that the value is a finite number (JSON has no NaN or ±Infinity: `JSON.stringify` would write
 * `null`).
 */
export class NumberCodec extends Codec<number> {
  readonly kind = 'number';
  protected parse(input: unknown, ctx: DecodeContext): number | Invalid {
    if (typeof input !== 'number') return ctx.addIssue(`expected number, got ${describeType(input)}`, 'type', input);
    if (!Number.isFinite(input)) return ctx.addIssue('expected a finite number', 'type', input);
    return input;
  }
  protected serialize(value: number): unknown {
    if (typeof value !== 'number') throw mismatch('number', value);
    if (!Number.isFinite(value)) throw encodeIssue(`expected a finite number, got ${value}`, 'type', value);
    return value;
  }
  protected baseSchema(): JsonSchema {
    return { type: 'number' };
  }
}

/** A finite floating-point number codec. NaN and ±Infinity are rejected. */
// @__NO_SIDE_EFFECTS__
export function number(): NumberCodec {
  return new NumberCodec();
}
