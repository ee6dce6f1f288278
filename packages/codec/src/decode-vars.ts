import type { Codec } from './codec.js';
import { DecodeError } from './decode-error.js';

/**
 * A field that takes its value from a string variable: a route's merge field
 * (`handle.mergeFields()`) is one.
 */
export interface VarField<R> {
  /** The variable's name (path variable, query key, header or cookie name). */
  readonly name: string;
  /** The codec that decodes the variable's string. */
  readonly codec: Codec<unknown>;
  /** Writes the decoded value into `target`. */
  set(target: R, value: unknown): void;
}

/**
 * Decodes the variables present in `vars` through the fields of the same name and writes them
 * into `req`. Variables without a field and fields
 * without a variable are skipped. Mutates and returns `req`.
 * @throws {DecodeError} whose issue paths start with the variable name.
 */
export function decodeVars<R>(req: R, vars: Record<string, string>, ...fields: VarField<R>[]): R {
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(vars, field.name)) continue;
    let value: unknown;
    try {
      value = field.codec.decode(vars[field.name]);
    } catch (err) {
      throw err instanceof DecodeError ? err.withPrefix(field.name) : err;
    }
    field.set(req, value);
  }
  return req;
}
