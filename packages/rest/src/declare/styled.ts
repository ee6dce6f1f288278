/**
 * The declaration side of parameter styles (OpenAPI 3.1 §4.8.12.4): their types, and
 * {@link Styled}, what `rest.styled(codec, { style, explode })` gives. Reading and writing are in
 * `param-styles.ts`, which a route only loads when it declares a style.
 */

/** A parameter style of OpenAPI 3.1 (§4.8.12.4); see `rest.styled`. */
export type ParamStyle = 'matrix' | 'label' | 'simple' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

/**
 * The style of a parameter as declared (`rest.styled(codec, { style, explode })`): absent
 * fields take the location's defaults — `style` `simple` for path and header parameters, `form`
 * for query and cookie parameters; `explode` true for `form` (and `deepObject`, which is only
 * defined exploded), false otherwise (OpenAPI 3.1 §4.8.12.2).
 */
export interface ParamStyleOptions<S extends ParamStyle = ParamStyle> {
  /** The style; absent: the location's default (`simple` in a path or header, `form` in a query or cookie). */
  readonly style?: S;
  /** Whether a list's items and an object's properties are written one by one (`;id=3;id=4`) rather than joined (`;id=3,4`); absent: true for `form` and `deepObject`, false otherwise. */
  readonly explode?: boolean;
}

/** The styles a path parameter may have: `simple` (the default), `label`, `matrix`. */
export type PathParamStyle = 'simple' | 'label' | 'matrix';
/** The styles a query parameter may have: `form` (the default), `spaceDelimited`, `pipeDelimited`, `deepObject`. */
export type QueryParamStyle = 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
/** The style a header parameter has: `simple`. */
export type HeaderParamStyle = 'simple';
/** The style a cookie parameter has: `form`. */
export type CookieParamStyle = 'form';

/** A styled value on the wire side of its codec: the text of a scalar, the texts of a list's items, or of an object's properties. */
export type StyledWire = string | readonly string[] | Readonly<Record<string, string>>;

/** A path variable as `route.buildPath` takes it: the wire value its codec decodes (a list or object of texts for a styled array or object). */
export type PathVarValue = StyledWire;

/**
 * The style of one parameter, resolved against its location and codec (`resolveParamStyle` of
 * `param-styles.ts`): what the server reads and the client writes.
 */
export interface ResolvedParamStyle {
  /** Where the parameter is read from (OpenAPI `in`). */
  readonly location: 'path' | 'query' | 'header' | 'cookie';
  /** The parameter's name on the wire (the key of `form`, `matrix` and `deepObject`). */
  readonly name: string;
  /** The style, the location's default when none was declared. */
  readonly style: ParamStyle;
  /** Whether lists and objects are exploded, the style's default when not declared (always true for `deepObject`). */
  readonly explode: boolean;
  /** What the codec's wire value is: text, a list of texts, or an object of texts. */
  readonly shape: 'scalar' | 'array' | 'object';
  /** An object's declared property names (wire keys): the query keys of an exploded `form` object. */
  readonly keys: readonly string[];
}

/** What `readStyledText` and `readStyledQuery` (`param-styles.ts`) read: the wire value, and the text it came from (for error messages). */
export interface StyledRead {
  readonly wire: StyledWire;
  readonly text: string;
}

/**
 * A parameter's codec with the style its value is read and written in (OpenAPI 3.1 §4.8.12.4):
 * what `rest.styled(codec, options)` gives, as an entry of `pathParams`, `query`, `headers` or
 * `cookies`, inside `rest.named`, or as the codec of a merge parameter
 * (`rest.newOptionalQueryParam('ids', rest.styled(ids, { style: 'pipeDelimited' }), get, set)`).
 * `S` is the declared style (`never` when none is: the location's default).
 */
export class Styled<C, S extends ParamStyle = ParamStyle> {
  /** The codec or Standard Schema of the value: a list (`codec.array(...)`), an object, or a scalar. */
  readonly codec: C;
  /** The declared style; `undefined`: the location's default. */
  readonly style: S | undefined;
  /** The declared `explode`; `undefined`: the style's default (true for `form`, false otherwise). */
  readonly explode: boolean | undefined;
  constructor(codec: C, options: ParamStyleOptions<S>) {
    this.codec = codec;
    this.style = options.style;
    this.explode = options.explode;
  }
  /** The declared style and `explode`, without the absent ones. */
  get options(): ParamStyleOptions {
    return { ...(this.style !== undefined && { style: this.style }), ...(this.explode !== undefined && { explode: this.explode }) };
  }
}
