import type { Codec } from '@lib/codec';

/**
 * The largest size in bytes a byte codec accepts: the smallest of its `maxBytes` constraints
 * (`validate.maxBytes(n)`) and, for `codec.blob()`, its `maxBytes` bound; `undefined` when
 * nothing bounds it. Formats read it so that a limit is stated once, in the codec.
 */
export function byteLimit(c: Codec<unknown>): number | undefined {
  let limit = (c as { readonly bounds?: { readonly maxBytes?: unknown } }).bounds?.maxBytes;
  let out = typeof limit === 'number' ? limit : undefined;
  for (const k of c.constraints) {
    limit = k.name === 'maxBytes' ? k.params?.maxBytes : undefined;
    if (typeof limit === 'number') out = Math.min(out ?? Infinity, limit);
  }
  return out;
}
