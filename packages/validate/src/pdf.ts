import type { Constraint } from '@lib/codec';
import { ascii, bytesAt, magic } from './internal/magic.js';

const HEADER = ascii('%PDF-');

/**
 * A PDF document: starts with the header `%PDF-` (ISO 32000 §7.5.2). Applies to byte arrays.
 * Schema: the annotation `contentMediaType: 'application/pdf'`.
 */
export const pdf: Constraint<Uint8Array> = magic('pdf', 'application/pdf', 'a PDF document', (v) => bytesAt(v, HEADER));
