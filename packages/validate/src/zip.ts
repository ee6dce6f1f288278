import type { Constraint } from '@lib/codec';
import { bytesAt, magic } from './internal/magic.js';

const SIGNATURES = [
  [0x50, 0x4b, 0x03, 0x04], // local file header
  [0x50, 0x4b, 0x05, 0x06], // end of central directory: an empty archive
  [0x50, 0x4b, 0x07, 0x08], // spanned archive marker
];

/**
 * A ZIP archive (also DOCX, XLSX, JAR, …): starts with `PK\x03\x04`, or `PK\x05\x06` (empty
 * archive) or `PK\x07\x08` (spanned archive) — APPNOTE.TXT §4.3. Applies to byte arrays.
 * Schema: the annotation `contentMediaType: 'application/zip'`.
 */
export const zip: Constraint<Uint8Array> = magic('zip', 'application/zip', 'a ZIP archive', (v) =>
  SIGNATURES.some((sig) => bytesAt(v, sig)),
);
