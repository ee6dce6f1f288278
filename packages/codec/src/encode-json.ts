import { INVALID, runCompiled, type Codec } from './codec.js';

/**
 * The JSON text (RFC 8259) of `codec.encode(value)`: exactly `JSON.stringify(codec.encode(value))`,
 * `undefined` included (for a value whose wire form is `undefined`, as an `optional` codec gives),
 * and the same errors. Where code generation is allowed (see `setJit`), the codec is compiled
 * at first use into one function that checks the value and writes its text in a single walk,
 * without building the wire value; the JSON body format writes bodies with it.
 * @throws {EncodeError} when the value does not have the codec's structure, as `encode` does.
 */
export function encodeJson<T>(codec: Codec<T>, value: T): string | undefined {
  const fast = runCompiled(codec as Codec<unknown>, value, 'serializer');
  return fast !== INVALID ? (fast as string | undefined) : JSON.stringify(codec.encode(value));
}

