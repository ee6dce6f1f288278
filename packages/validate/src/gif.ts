import type { Constraint } from '@lib/codec';
import { ascii, bytesAt, magic } from './internal/magic.js';

const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');

/**
 * A GIF image: starts with `GIF87a` or `GIF89a`. Applies to byte arrays. Schema: the annotation
 * `contentMediaType: 'image/gif'`.
 */
export const gif: Constraint<Uint8Array> = magic('gif', 'image/gif', 'a GIF image', (v) => bytesAt(v, GIF87) || bytesAt(v, GIF89));
