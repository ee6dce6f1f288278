import type { Codec } from '@lib/codec';
import { parse, stringify, YAMLError } from 'yaml';
import { firstLine } from './internal/body-error.js';
import { TextFormat } from './internal/codec-format.js';

/** How many alias nodes a body may expand (the `yaml` package's `maxAliasCount`). */
const MAX_ALIAS_COUNT = 100;

/**
 * The YAML body format of a codec: `application/yaml` (RFC 9512), UTF-8, YAML 1.2 with its
 * core schema, through the `yaml` package.
 *
 * **marshal** writes the data JSON writes, in YAML: the codec's wire value (`codec.encode`, which
 * checks the structure and throws `EncodeError`, and leaves undeclared object fields out) taken
 * through the JSON data model as `JSON.stringify` takes it, so that what the codec passes through
 * as it is (`any()`, Standard Schema codecs) is the same data as in JSON (`toJSON` is called: a
 * `Date` is its RFC 3339 text; `undefined` is left out of mappings and `null` in sequences;
 * non-finite numbers are `null`, not `.nan`). No constraint runs here, as for JSON: the server
 * checks them with `codec.validate` when it validates responses. The data is written as one YAML
 * 1.2 document in block style, without anchors or aliases (a value shared twice is written
 * twice): `time()` and `date()` as the RFC 3339 text the codec declares (plain scalars, which the
 * YAML 1.2 core schema reads as strings), `bytes()` as base64 text, `int64()` as decimal text
 * (quoted where it would otherwise read as a number). A bigint inside `any()` is a YAML integer
 * (JSON refuses it). A value with no data (an `undefined` wire value, `codec.empty()`) is an
 * empty body.
 *
 * **unmarshal** parses one document and decodes it through the codec (so it validates). The
 * reading is the JSON data model: the YAML 1.2 core schema (`true`, `null`, `0x1F`, `.inf`
 * resolve; `yes`, `on` and `2001-12-14` stay strings), no `<<` merge keys, explicit YAML 1.1
 * tags (`!!binary`, `!!timestamp`, `!!set`, `!!omap`) not resolved (their text is read as a
 * string — base64 text is what `bytes()` reads), map keys as strings (a key that is a mapping or
 * sequence is an error), keys unique. Keys are own properties: `__proto__` never reaches a
 * prototype. An integer where the codec has `int64()`/`uint64()` is read as its decimal text;
 * integers beyond 2^53 elsewhere lose precision, as in JSON. An empty (or blank) body
 * unmarshals as `undefined`, so `codec.empty()` and `optional` bodies accept it; a body of
 * only comments is `null`.
 *
 * Refused as `DecodeError` with one issue, constraint `syntax` (`body is not valid YAML:
 * Map keys must be unique at line 2, column 1`): invalid UTF-8, YAML errors (with their line
 * and column, without the source excerpt), several documents in one body, and more than
 * 100 alias expansions (the "billion laughs" attack). The codec's own
 * issues are reported as for JSON.
 */
export class YamlFormat<T> extends TextFormat<T> {
  protected readonly syntax = 'YAML';
  constructor(codec: Codec<T>, contentType = 'application/yaml') {
    super(codec, contentType);
  }
  /** One YAML 1.2 document in block style, without anchors or aliases. */
  protected stringify(data: unknown): string {
    return stringify(data, { version: '1.2', schema: 'core', aliasDuplicateObjects: false });
  }
  /** One document (`undefined` for an empty or blank body). @throws what the `yaml` package throws. */
  protected parse(text: string): unknown {
    if (text.trim() === '') return undefined;
    return parse(text, {
      version: '1.2',
      schema: 'core',
      merge: false,
      resolveKnownTags: false,
      stringKeys: true,
      uniqueKeys: true,
      strict: true,
      prettyErrors: true,
      logLevel: 'error',
      maxAliasCount: MAX_ALIAS_COUNT,
    });
  }
  /** The parser's first line, never an excerpt or a stack. */
  protected reasonOf(err: unknown): string {
    // `Map keys must be unique at line 2, column 1:` + excerpt.
    // A stack overflow while composing deep nesting comes as a YAMLParseError too.
    if (err instanceof YAMLError) return /call stack/i.test(err.message) ? 'it is nested too deeply' : firstLine(err.message);
    // Aliases throw ReferenceErrors: "Excessive alias count indicates a resource exhaustion
    // attack", "Unresolved alias (the anchor must be set before the alias): x".
    if (err instanceof ReferenceError) {
      if (err.message.startsWith('Excessive alias count')) return `more than ${MAX_ALIAS_COUNT} alias expansions`;
      return err.message.startsWith('Unresolved alias') ? firstLine(err.message) : 'an alias could not be resolved';
    }
    if (err instanceof RangeError) return 'it is nested too deeply';
    return 'it could not be parsed';
  }
}

/** The same-class copies of a YAML format, typed as such (the skeleton makes them). */
export interface YamlFormat<T> {
  /** The same format under another media type (a `+yaml` type, RFC 9512 §4.2). */
  withContentType(contentType: string): YamlFormat<T>;
  /** The same format, under the same media type, for another codec (typed error bodies in the negotiated format). */
  withCodec<U>(codec: Codec<U>): YamlFormat<U>;
}

/**
 * YAML body format (RFC 9512): `format.yaml(userCodec)`, media type `application/yaml`. See
 * {@link YamlFormat}.
 */
// @__NO_SIDE_EFFECTS__
export function yaml<T>(codec: Codec<T>): YamlFormat<T> {
  return new YamlFormat(codec);
}
