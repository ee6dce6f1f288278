import type { Constraint } from '@lib/codec';
import { ascii, bytesAt, magic } from './internal/magic.js';

const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/**
 * A WebP image: a RIFF container (`RIFF`, 4 size bytes) of form type `WEBP` (RFC 9649 §2).
 * Applies to byte arrays. Schema: the annotation `contentMediaType: 'image/webp'`.
 */
export const webp: Constraint<Uint8Array> = magic('webp', 'image/webp', 'a WebP image', (v) => bytesAt(v, RIFF) && bytesAt(v, WEBP, 8));
