import type { Constraint } from '@lib/codec';
import { bytesAt, magic } from './internal/magic.js';

const SOI = [0xff, 0xd8, 0xff];

/**
 * A JPEG image: starts with the start-of-image marker followed by another marker
 * (`FF D8 FF`). Applies to byte arrays. Schema: the annotation `contentMediaType: 'image/jpeg'`.
 */
export const jpeg: Constraint<Uint8Array> = magic('jpeg', 'image/jpeg', 'a JPEG image', (v) => bytesAt(v, SOI));
