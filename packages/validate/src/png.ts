import type { Constraint } from '@lib/codec';
import { bytesAt, magic } from './internal/magic.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * A PNG image: starts with the 8-byte PNG signature `89 50 4E 47 0D 0A 1A 0A` (ISO/IEC 15948
 * §5.2). Applies to byte arrays. Schema: the annotation `contentMediaType: 'image/png'`.
 */
export const png: Constraint<Uint8Array> = magic('png', 'image/png', 'a PNG image', (v) => bytesAt(v, SIGNATURE));
