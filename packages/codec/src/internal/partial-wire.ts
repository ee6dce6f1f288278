/** Where a failed encode's error keeps its partial wire value ({@link partialWire}). */
const PARTIAL: unique symbol = Symbol('partial wire value');

/** `err`, carrying `partial` as the wire value its encode built ({@link partialWire}). */
export function withPartialWire<E extends object>(err: E, partial: unknown): E {
  Object.defineProperty(err, PARTIAL, { value: partial, configurable: true });
  return err;
}

/**
 * The wire value a failed encode would have written, with every value it could not write left
 * as it was (a composite's error carries the value it built; a leaf's failure is `value`
 * itself): `Codec.validate` decodes it, so that a structural problem in one field does not hide
 * the constraints the other fields break — the issues a server decoding the same request names.
 */
export function partialWire(err: unknown, value: unknown): unknown {
  return typeof err === 'object' && err !== null && PARTIAL in err ? (err as { [PARTIAL]: unknown })[PARTIAL] : value;
}
