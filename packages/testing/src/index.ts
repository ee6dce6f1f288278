export { arbitrary } from './arbitrary.js';
export type { ArbitraryOptions } from './arbitrary.js';
export type { RefusedValue } from './refused-value.js';
