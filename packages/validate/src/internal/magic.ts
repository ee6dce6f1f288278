import type { Constraint } from '@lib/codec';
import { constraint } from '../constraint.js';
import { addKeyword } from './schema.js';

/** True when `v` holds `prefix` at `offset`. */
export function bytesAt(v: Uint8Array, prefix: ArrayLike<number>, offset = 0): boolean {
  if (v.length < offset + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (v[offset + i] !== prefix[i]) return false;
  return true;
}

/** The bytes of an ASCII string. */
export function ascii(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0));
}

/**
 * A magic-byte constraint: `test` recognises the file type's signature. Schema: the annotation
 * `contentMediaType: mediaType` (JSON Schema cannot check bytes; validators do not enforce it).
 */
export function magic(name: string, mediaType: string, label: string, test: (v: Uint8Array) => boolean): Constraint<Uint8Array> {
  return constraint({
    name,
    params: { contentMediaType: mediaType },
    test,
    message: `must be ${label}`,
    schema: (s) => addKeyword(s, 'contentMediaType', mediaType),
  });
}
