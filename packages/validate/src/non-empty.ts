import type { Constraint } from '@lib/codec';
import { constraint, type Sized } from './constraint.js';
import { raise, schemaType } from './internal/schema.js';

/**
 * Not empty: a string of at least one character, an array of at least one item, a byte array
 * of at least one byte, a record of at least one key. Schema by the codec's type:
 * `minLength: 1` on strings (and on the base64 text of bytes, which is empty exactly when the
 * bytes are), `minItems: 1` on arrays, `minProperties: 1` on objects.
 */
export const nonEmpty: Constraint<Sized> = constraint({
  name: 'nonEmpty',
  test: (v: Sized) =>
    typeof v === 'string' || Array.isArray(v) || v instanceof Uint8Array
      ? (v as Lengthlike).length > 0
      : Object.keys(v).length > 0,
  message: 'must not be empty',
  schema: (s) => {
    switch (schemaType(s)) {
      case 'array':
        return raise(s, 'minItems', 1);
      case 'object':
        return raise(s, 'minProperties', 1);
      case 'string':
        return raise(s, 'minLength', 1);
      default:
        return s;
    }
  },
});

type Lengthlike = { readonly length: number };
