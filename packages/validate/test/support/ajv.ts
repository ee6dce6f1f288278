import type { JsonSchema } from '@lib/codec';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The oracle, configured as in `@lib/codec`'s suite: Ajv in 2020-12 mode with ajv-formats
 * ("full"), strict (unknown keywords and formats are errors), and `ownProperties` (JSON objects
 * have no prototype).
 */
const ajv = new Ajv2020({ strict: true, ownProperties: true, logger: false });
addFormats(ajv);

/** A validator of `schema`. */
export function compile(schema: JsonSchema): (value: unknown) => boolean {
  const v = ajv.compile(schema);
  return (value) => v(value) === true;
}
