/** The parsers, by the package each format imports. */
export declare const PARSERS: readonly string[];
/** What each import must load: the exports taken, and the one parser they need. */
export declare const CASES: readonly (readonly [names: string[], parser: string | undefined])[];
/** The npm packages whose code a minified browser bundle of `import { names } from entry` contains, and its size. */
export declare function bundle(entry: string, names: readonly string[]): Promise<{ packages: Set<string>; bytes: number }>;
/** Bundles each case from `entry`; returns the failures. */
export declare function check(entry: string): Promise<string[]>;
