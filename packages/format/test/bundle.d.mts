/** The parsers, by the package each format imports. */
export declare const PARSERS: readonly string[];
/** What each import must load: the exports taken, the one parser they need up front, and the one they load on first use. */
export declare const CASES: readonly (readonly [names: string[], parser: string | undefined, lazyParser: string | undefined])[];
/**
 * The npm packages whose code a minified, code-split browser bundle of `import { names } from entry`
 * loads up front and later, how many files it loads up front, and their size.
 */
export declare function bundle(entry: string, names: readonly string[]): Promise<{ packages: Set<string>; lazy: Set<string>; files: number; bytes: number }>;
/** Bundles each case from `entry`; returns the failures. */
export declare function check(entry: string): Promise<string[]>;
