export { importDocument } from './import.js';
export type { ImportOptions, ImportResult, Refusal } from './import.js';
export { loadDocument, parseDocument } from './load.js';
export { diffDocuments } from './diff.js';
export type { DiffOptions, Difference } from './diff.js';
