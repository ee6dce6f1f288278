export { mediaTypeOf } from './format.js';
export type { AnyFormat, Format } from './format.js';
export { json, JsonFormat } from './json.js';
