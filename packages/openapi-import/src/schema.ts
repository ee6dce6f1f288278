import { escapeToken, isObject, resolvePointer, type Json, type JsonObject } from './load.js';
import { propertyKey } from './names.js';

/** Something of the document that the generated code cannot express, and why. */
export interface Refusal {
  /** Where it is in the input document (a JSON Pointer). */
  readonly pointer: string;
  /** Why it is refused, and what the generated code does instead. */
  readonly reason: string;
  /** A short, stable name for the kind of refusal (`format-unchecked`, `query-style`…), to count them by. */
  readonly kind: string;
}

/** Keywords that only annotate: kept in the document by `annotate(…)`, checked by nobody. */
const ANNOTATIONS = new Set(['readOnly', 'writeOnly', 'xml', 'externalDocs', '$comment', 'contentMediaType', 'contentEncoding', 'discriminator']);
/** Annotations an allOf takes from its parts where it gives none itself. */
const PART_DOCS = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'default', 'readOnly', 'writeOnly']);
/** Keywords read by the emitter itself. */
const HANDLED = new Set([
  'type', 'nullable', 'description', 'title', 'deprecated', 'example', 'examples', 'default', 'enum', 'const', 'format',
  'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems', 'uniqueItems',
  'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minProperties', 'maxProperties', 'allOf', 'oneOf', 'anyOf', '$ref', '$schema', '$id', 'unevaluatedProperties',
]);

const STRING_FORMATS: Record<string, string> = {
  'date-time': 'validate.dateTime',
  date: 'validate.date',
  time: 'validate.time',
  email: 'validate.email',
  hostname: 'validate.hostname',
  ipv4: 'validate.ipv4',
  ipv6: 'validate.ipv6',
  uri: 'validate.uri',
  uuid: 'validate.uuid',
};

/**
 * Where a schema is used: a body or component (JSON values), a parameter or header (text), a
 * multipart body (`multipart`: its properties are parts) or one of its parts (`part`: a binary
 * string is a file, `codec.bytes()`).
 */
export type SchemaUse = 'json' | 'param' | 'multipart' | 'part';

/** The helpers the generated module needs, by name. */
export type Helper = 'annotate' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'multipleOf' | 'exactlyOne' | 'requiredSets' | 'alsoMatches';

/**
 * Turns JSON Schemas of an OpenAPI document into `@lib/codec` expressions (TypeScript source),
 * recording what it cannot express in `refused` and as a comment in the expression.
 */
export class SchemaEmitter {
  /** Component name → identifier of its exported codec. */
  readonly idents: Map<string, string> = new Map();
  /** Component name → the strongly connected component (of `$ref`s) it belongs to. */
  readonly scc: Map<string, number> = new Map();
  /** Components already defined, in output order (for `lazy` of the ones that are not yet). */
  readonly defined: Set<string> = new Set();
  /** Helpers used. */
  readonly helpers: Set<Helper> = new Set();
  /** The component being emitted. */
  current: string | undefined;

  constructor(
    readonly root: JsonObject,
    readonly refused: Refusal[],
    readonly v30: boolean,
  ) {}

  /** Records a refusal and returns the comment to leave in the code. */
  refuse(pointer: string, kind: string, reason: string): string {
    this.refused.push({ pointer, reason, kind });
    return `/* refused (${kind}) at ${pointer.replace(/\*\//g, '*\\/')}: ${reason.replace(/\*\//g, '*\\/')} */`;
  }

  /** The component name a `$ref` names, or `undefined` when it points elsewhere. */
  componentOf(ref: string): string | undefined {
    const m = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
    if (m === null) return undefined;
    const name = decodeURIComponent(m[1] as string).replace(/~1/g, '/').replace(/~0/g, '~');
    return this.idents.has(name) ? name : undefined;
  }

  /** The schema a `$ref` points at, following chains of references; `undefined` when it points at nothing. */
  deref(schema: Json, seen: Set<string> = new Set()): JsonObject | undefined {
    let s = schema;
    while (isObject(s) && typeof s.$ref === 'string') {
      if (seen.has(s.$ref)) return undefined;
      seen.add(s.$ref);
      const next = s.$ref.startsWith('#') ? resolvePointer(this.root, s.$ref) : undefined;
      if (next === undefined) return undefined;
      s = next;
    }
    return isObject(s) ? s : s === true ? {} : undefined;
  }

  /** A codec expression for `schema`, found at `ptr`. */
  emit(schema: Json | undefined, ptr: string, use: SchemaUse = 'json'): string {
    if (schema === undefined || schema === true) return 'codec.any()';
    if (!isObject(schema)) return `codec.any() ${this.refuse(ptr, 'schema', 'a schema that is false or not an object accepts nothing: @lib has no codec for that; any value is accepted')}`;
    if (typeof schema.$ref === 'string') return this.emitRef(schema, ptr, use);

    const notes: string[] = [];
    // Nullability: 3.0 `nullable: true`, 3.1 `type: [..., 'null']`.
    let s: JsonObject = schema;
    let nullable = false;
    if (s.nullable === true) {
      nullable = true;
    }
    if (Array.isArray(s.type)) {
      const types = s.type.filter((t) => t !== 'null');
      if (types.length < s.type.length) nullable = true;
      if (types.length === 1) s = { ...s, type: types[0] as string };
      else if (types.length === 0) s = { ...s, type: 'null' };
      else {
        const { type: _t, ...rest } = s;
        s = { ...rest, anyOf: types.map((t) => ({ type: t })) } as JsonObject;
        if (s.description === undefined) delete s.description;
      }
    }
    // Unknown keywords.
    const ann: JsonObject = {};
    for (const k of Object.keys(s)) {
      if (HANDLED.has(k)) continue;
      if (ANNOTATIONS.has(k) || k.startsWith('x-')) ann[k] = s[k] as Json;
      else notes.push(this.refuse(`${ptr}/${escapeToken(k)}`, 'keyword', `the keyword ${JSON.stringify(k)} has no codec or constraint in @lib; it is left out`));
    }
    if (s.unevaluatedProperties !== undefined) notes.push(this.refuse(`${ptr}/unevaluatedProperties`, 'keyword', 'unevaluatedProperties has no codec in @lib; it is left out'));
    if (s.readOnly === true && s.writeOnly === true) notes.push(this.refuse(ptr, 'read-write-only', 'readOnly and writeOnly together: documented, not enforced'));

    let expr = this.emitCore(s, ptr, use, notes, ann);
    if (nullable && expr !== 'codec.literal(null)') expr = `codec.nullable(${expr})`;
    expr = this.withMeta(expr, s, ptr, notes);
    return notes.length > 0 ? `${expr} ${notes.join(' ')}` : expr;
  }

  private emitRef(schema: JsonObject, ptr: string, use: SchemaUse): string {
    const ref = schema.$ref as string;
    const extra = Object.keys(schema).filter((k) => k !== '$ref');
    const notes = extra
      .filter((k) => !(k === 'description' || k === 'summary') || true)
      .map((k) => this.refuse(`${ptr}/${escapeToken(k)}`, 'ref-sibling', `${JSON.stringify(k)} beside $ref: a named codec is referenced as it is, so this is left out`));
    const tail = notes.length > 0 ? ` ${notes.join(' ')}` : '';
    const name = this.componentOf(ref);
    if (name !== undefined && use === 'json') {
      const id = this.idents.get(name) as string;
      const sameScc = this.current !== undefined && this.scc.get(name) === this.scc.get(this.current);
      if (sameScc || !this.defined.has(name)) return `codec.lazy((): codec.Codec<any> => ${id})${tail}`;
      return `${id}${tail}`;
    }
    const target = this.deref(schema);
    if (target === undefined) return `codec.any() ${this.refuse(ptr, 'ref', `$ref ${ref} points at nothing here (external references are resolved by loadDocument)`)}`;
    if (name !== undefined) return `${this.emit(target, ptr, use)}${tail}`;
    // A reference into a schema, or outside components.schemas: inlined (a loop of them cannot be).
    if (this.inlining.has(ref)) return `codec.any() ${this.refuse(ptr, 'ref', `$ref ${ref} loops outside components.schemas: @lib names recursive codecs only as components`)}`;
    this.inlining.add(ref);
    try {
      return `${this.emit(target, ptr, use)}${tail}`;
    } finally {
      this.inlining.delete(ref);
    }
  }
  private readonly inlining = new Set<string>();

  /**
   * True when an object schema has a property (or a schema of its other keys) that is no text:
   * an object, a list or a union, which a parameter style cannot carry (OpenAPI 3.1 §4.8.12.4).
   */
  nestedValues(s: JsonObject): boolean {
    const inner = [...Object.values(isObject(s.properties) ? s.properties : {}), ...(isObject(s.additionalProperties) ? [s.additionalProperties] : [])];
    return inner.some((v) => {
      const d = this.deref(v as Json);
      return isObject(d) && (d.type === 'object' || d.type === 'array' || isObject(d.properties) || d.oneOf !== undefined || d.anyOf !== undefined || d.allOf !== undefined);
    });
  }

  private emitCore(s: JsonObject, ptr: string, use: SchemaUse, notes: string[], ann: JsonObject): string {
    if (Array.isArray(s.allOf)) return this.emitAllOf(s, ptr, use, notes, ann);
    const union = Array.isArray(s.oneOf) ? 'oneOf' : Array.isArray(s.anyOf) ? 'anyOf' : undefined;
    // An object whose alternatives only name the properties it must have ("title and category,
    // or title and categorySlug"): the object, refined by which sets are present.
    if (union !== undefined && (s.type === 'object' || isObject(s.properties)) && !(Array.isArray(s.oneOf) && Array.isArray(s.anyOf)) && requiredSetsOf(s[union] as Json[]) !== undefined) {
      const { [union]: branches, ...object } = s;
      this.helpers.add('requiredSets');
      return this.emitObject(object, ptr, use, notes, ann, [`requiredSets(${JSON.stringify(union)}, ${JSON.stringify(branches)})`]);
    }
    if (union !== undefined) return this.emitUnion(s, union, ptr, use, notes, ann);
    if (Array.isArray(s.enum)) return this.emitEnum(s, ptr, use, notes, ann);
    if (s.const !== undefined) {
      const v = s.const;
      if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
        if (use === 'param' && typeof v !== 'string') return `codec.string() ${this.refuse(`${ptr}/const`, 'param-schema', 'a parameter constant that is not a string: @lib reads parameters as text')}`;
        return this.annotated(`codec.literal(${JSON.stringify(v)})`, ann);
      }
      return this.annotated(`codec.constant(${JSON.stringify(v)})`, ann);
    }
    let type = s.type;
    if (type === undefined) {
      if (isObject(s.properties) || s.additionalProperties !== undefined) type = 'object';
      else if (s.items !== undefined) type = 'array';
    }
    switch (type) {
      case 'string':
        return this.emitString(s, ptr, use, notes, ann);
      case 'integer':
      case 'number':
        return this.emitNumber(s, type, ptr, use, notes, ann);
      case 'boolean':
        return this.annotated(use === 'param' ? 'codec.boolString()' : 'codec.boolean()', ann);
      case 'null':
        return 'codec.literal(null)';
      case 'array':
        return this.emitArray(s, ptr, use, notes, ann);
      case 'object':
        // An object parameter (in a style: rest.styled) is an object of texts: its properties are read as parameters are.
        if (use === 'param' && this.nestedValues(s)) {
          return `codec.string() ${this.refuse(ptr, 'param-schema', 'an object parameter with nested objects, lists or unions: a parameter style carries texts only; read as a string')}`;
        }
        return this.emitObject(s, ptr, use, notes, ann);
      case undefined: {
        const checks = ['minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems'].filter((k) => s[k] !== undefined);
        for (const k of checks) notes.push(this.refuse(`${ptr}/${k}`, 'untyped-constraint', `${k} on a schema without a type: @lib constraints refine a typed codec; left out`));
        return this.annotated(use === 'param' ? 'codec.string()' : 'codec.any()', ann);
      }
      default:
        return `codec.any() ${this.refuse(`${ptr}/type`, 'type', `unknown type ${JSON.stringify(type)}`)}`;
    }
  }

  /** `expr` refined with `annotate(keywords)` when there are any. */
  private annotated(expr: string, ann: JsonObject, more: string[] = []): string {
    const cs = [...more];
    if (Object.keys(ann).length > 0) {
      this.helpers.add('annotate');
      cs.push(`annotate(${JSON.stringify(ann)})`);
    }
    return cs.length > 0 ? `${unnamed(expr)}.refine(${cs.join(', ')})` : expr;
  }

  private emitString(s: JsonObject, ptr: string, use: SchemaUse, notes: string[], ann: JsonObject): string {
    // A file part of a multipart body: `format: binary` (3.0), or content of a media type (3.1).
    if (use === 'part' && (s.format === 'binary' || typeof s.contentMediaType === 'string' || s.contentEncoding === 'binary')) {
      const extra = Object.keys(s).filter((k) => !['type', 'format', 'contentMediaType', 'contentEncoding', 'description'].includes(k));
      if (extra.length > 0) notes.push(this.refuse(ptr, 'binary-schema', `a file part is its bytes: ${extra.join(', ')} left out`));
      return typeof s.description === 'string' ? `codec.bytes().withDescription(${JSON.stringify(s.description)})` : 'codec.bytes()';
    }
    const cs: string[] = [];
    // 3.0's binary string is 3.1's content of application/octet-stream (OpenAPI 3.1 §4.8.14.3).
    if (this.v30 && s.format === 'binary' && s.contentMediaType === undefined) {
      s = { ...s, contentMediaType: 'application/octet-stream' };
      delete s.format;
      ann.contentMediaType = 'application/octet-stream';
    }
    if (typeof s.format === 'string') {
      const v = STRING_FORMATS[s.format];
      if (v !== undefined) cs.push(v);
      else {
        ann.format = s.format;
        notes.push(this.refuse(`${ptr}/format`, 'format-unchecked', `format ${JSON.stringify(s.format)} has no check in @lib/validate: documented, not checked`));
      }
    }
    if (typeof s.minLength === 'number') cs.push(`validate.minLength(${s.minLength})`);
    if (typeof s.maxLength === 'number') cs.push(`validate.maxLength(${s.maxLength})`);
    let annotations = ann;
    if (typeof s.pattern === 'string') {
      const compiles = (flags: string): boolean => {
        try {
          new RegExp(s.pattern as string, flags);
          return true;
        } catch {
          return false;
        }
      };
      if (compiles('u')) cs.push(`validate.pattern(new RegExp(${JSON.stringify(s.pattern)}))`);
      else if (compiles('')) {
        // Valid ECMA-262 without the u flag (a bare `{`, as many documents have): tested so, and
        // kept in the schema as the document writes it (validate.pattern reflects u patterns only).
        cs.push(`validate.pattern(new RegExp(${JSON.stringify(s.pattern)}))`);
        annotations = { ...ann, pattern: s.pattern };
      } else notes.push(this.refuse(`${ptr}/pattern`, 'pattern', `the pattern ${JSON.stringify(s.pattern)} is not an ECMAScript regular expression; left out`));
    }
    return this.annotated('codec.string()', annotations, cs);
  }

  private emitNumber(s: JsonObject, type: string, ptr: string, use: SchemaUse, notes: string[], ann: JsonObject): string {
    const cs: string[] = [];
    let base = type === 'integer' ? (use === 'param' ? 'codec.intString()' : 'codec.int()') : use === 'param' ? 'codec.numberString()' : 'codec.number()';
    if (typeof s.format === 'string') {
      if (type === 'integer' && s.format === 'int32' && use === 'json') base = 'codec.int32()';
      else if (type === 'integer' && s.format === 'int64') {
        ann.format = 'int64';
        notes.push(this.refuse(`${ptr}/format`, 'int64', '@lib carries 64-bit integers as JSON strings (codec.int64()); this integer is a safe integer (±2^53−1) documented as int64'));
      } else if (!(type === 'integer' && s.format === 'double-int')) {
        ann.format = s.format;
        notes.push(this.refuse(`${ptr}/format`, 'format-unchecked', `format ${JSON.stringify(s.format)} of a ${type}: documented, not checked`));
      }
    }
    const exMin = s.exclusiveMinimum;
    const exMax = s.exclusiveMaximum;
    if (typeof s.minimum === 'number') {
      if (exMin === true) cs.push(this.helper('exclusiveMinimum', s.minimum));
      else cs.push(`validate.min(${s.minimum})`);
    }
    if (typeof s.maximum === 'number') {
      if (exMax === true) cs.push(this.helper('exclusiveMaximum', s.maximum));
      else cs.push(`validate.max(${s.maximum})`);
    }
    if (typeof exMin === 'number') cs.push(this.helper('exclusiveMinimum', exMin));
    if (typeof exMax === 'number') cs.push(this.helper('exclusiveMaximum', exMax));
    if (typeof s.multipleOf === 'number') cs.push(this.helper('multipleOf', s.multipleOf));
    return this.annotated(base, ann, cs);
  }

  private helper(name: Helper, n: number): string {
    this.helpers.add(name);
    return `${name}(${n})`;
  }

  private emitArray(s: JsonObject, ptr: string, use: SchemaUse, notes: string[], ann: JsonObject): string {
    if (Array.isArray(s.items) || s.prefixItems !== undefined) {
      notes.push(this.refuse(`${ptr}/items`, 'tuple', 'tuples (prefixItems, items as an array) have no codec in @lib; any items accepted'));
      return this.annotated('codec.array(codec.any())', ann);
    }
    const item = s.items === undefined ? 'codec.any()' : this.emit(s.items, `${ptr}/items`, use);
    const cs: string[] = [];
    if (typeof s.minItems === 'number') cs.push(`validate.minItems(${s.minItems})`);
    if (typeof s.maxItems === 'number') cs.push(`validate.maxItems(${s.maxItems})`);
    if (s.uniqueItems === true) cs.push('validate.uniqueItems');
    return this.annotated(`codec.array(${item})`, ann, cs);
  }

  private emitObject(s: JsonObject, ptr: string, use: SchemaUse, notes: string[], ann: JsonObject, more: readonly string[] = []): string {
    // Declared properties beside a schema of the others: codec.withAdditionalProperties (typedRest).
    const props = isObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? (s.required.filter((r) => typeof r === 'string') as string[]) : []);
    const ap = s.additionalProperties;
    const cs: string[] = [...more];
    if (typeof s.minProperties === 'number') cs.push(`validate.minProperties(${s.minProperties})`);
    if (typeof s.maxProperties === 'number') cs.push(`validate.maxProperties(${s.maxProperties})`);
    const keys = Object.keys(props);
    if (keys.length === 0 && required.size === 0) {
      if (ap === false) return this.annotated('codec.object({}).strict()', ann, cs);
      const value = ap === undefined || ap === true ? 'codec.any()' : this.emit(ap, `${ptr}/additionalProperties`);
      return this.annotated(`codec.record(${value})`, ann, cs);
    }
    for (const r of required) {
      if (!Object.prototype.hasOwnProperty.call(props, r)) notes.push(this.refuse(`${ptr}/required`, 'required-unknown', `${JSON.stringify(r)} is required but not among the properties: @lib requires declared fields only; left out`));
    }
    const fields = keys.map((k) => {
      const p = this.emit(props[k], `${ptr}/properties/${escapeToken(k)}`, use === 'multipart' ? 'part' : use === 'param' ? 'param' : 'json');
      return `${propertyKey(k)}: ${required.has(k) ? p : `codec.optional(${p})`}`;
    });
    let expr = `codec.object({ ${fields.join(', ')} })`;
    if (ap === false) expr += '.strict()';
    else if (typedRest(s)) expr = `codec.withAdditionalProperties(${expr}, ${this.emit(ap, `${ptr}/additionalProperties`)})`;
    return this.annotated(expr, ann, cs);
  }

  private emitEnum(s: JsonObject, ptr: string, use: SchemaUse, notes: string[], ann: JsonObject): string {
    const values = s.enum as Json[];
    const nonNull = values.filter((v) => v !== null);
    const hasNull = nonNull.length < values.length;
    const kinds = new Set(nonNull.map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)));
    let expr: string;
    if (nonNull.length === 0) return 'codec.literal(null)';
    if (kinds.size === 1 && kinds.has('string')) expr = this.emitString({ ...s, enum: [] }, ptr, use, notes, {}).replace(/^codec\.string\(\)/, 'codec.string()');
    else if ([...kinds].every((k) => k === 'integer' || k === 'number') && use === 'json') expr = s.type === 'number' || kinds.has('number') ? 'codec.number()' : 'codec.int()';
    else if (kinds.size === 1 && kinds.has('integer') && use === 'param') expr = 'codec.intString()';
    else if (kinds.size === 1 && kinds.has('boolean')) expr = use === 'param' ? 'codec.boolString()' : 'codec.boolean()';
    else return `codec.any() ${this.refuse(`${ptr}/enum`, 'enum', 'an enum of mixed or structured values has no codec in @lib; any value accepted')}`;
    const oneOf = `validate.oneOf(${nonNull.map((v) => JSON.stringify(v)).join(', ')})`;
    // Keep constraints of a string enum (emitString handled them), add the values.
    const refined = expr.includes('.refine(') ? expr.replace(/\)$/, `, ${oneOf})`) : `${expr}.refine(${oneOf})`;
    const out = this.annotated(refined, ann);
    if (hasNull && s.nullable !== true && !(Array.isArray(s.type) && s.type.includes('null'))) {
      notes.push(this.refuse(`${ptr}/enum`, 'enum-null', 'null among the enum values: written as a nullable codec (anyOf with null)'));
      return `codec.nullable(${out})`;
    }
    return out;
  }

  private emitUnion(s: JsonObject, kw: 'oneOf' | 'anyOf', ptr: string, use: SchemaUse, notes: string[], ann: JsonObject): string {
    let branches = s[kw] as Json[];
    // A type beside the union applies to every branch: written into the branches that give
    // none; a referenced branch of another type (or none) cannot take it.
    if (typeof s.type === 'string' && s.type !== 'null') {
      const type = s.type;
      const misfit = branches.some((b) => isObject(b) && typeof b.$ref === 'string' && this.deref(b)?.type !== type && !(this.deref(b)?.type === 'integer' && type === 'number'));
      if (misfit) notes.push(this.refuse(`${ptr}/type`, 'union-sibling', `"type" beside ${kw}, with a referenced branch of another type or none: @lib unions take no keywords of their own; left out`));
      else branches = branches.map((b) => (isObject(b) && typeof b.$ref !== 'string' && b.type === undefined ? { ...b, type } : b));
    }
    const others = Object.keys(s).filter((k) => !['oneOf', 'anyOf', 'description', 'title', 'deprecated', 'example', 'examples', 'default', 'nullable', 'discriminator', 'type'].includes(k) && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
    // Properties beside the alternatives (a discriminator's property declared once, above them):
    // every value also matches them, and the schema states them as the document does.
    let beside: string | undefined;
    if (others.length > 0 && others.every((k) => k === 'properties' || k === 'required') && (s.type === undefined || s.type === 'object') && !JSON.stringify(others.map((k) => s[k])).includes('"$ref"')) {
      const keywords = Object.fromEntries(others.map((k) => [k, s[k] as Json]));
      beside = `alsoMatches(${this.emit({ type: 'object', ...keywords }, ptr, use)}, ${JSON.stringify(keywords)})`;
      this.helpers.add('alsoMatches');
      others.length = 0;
    }
    for (const k of others) notes.push(this.refuse(`${ptr}/${escapeToken(k)}`, 'union-sibling', `${JSON.stringify(k)} beside ${kw}: @lib unions take no keywords of their own; left out`));
    const isNull = (b: Json): boolean => isObject(b) && b.type === 'null' && Object.keys(b).length === 1;
    const kept = branches.map((b, i) => [b, i] as const).filter(([b]) => !isNull(b));
    const withNull = kept.length < branches.length;
    let expr: string;
    if (kept.length === 0) expr = 'codec.literal(null)';
    else if (kept.length === 1) {
      const [b, i] = kept[0] as readonly [Json, number];
      expr = this.emit(b, `${ptr}/${kw}/${i}`, use);
      if (beside !== undefined) expr = `${unnamed(expr)}.refine(${beside})`;
      if (Object.keys(ann).length > 0) expr = this.annotated(expr, ann);
    } else {
      const codecs = kept.map(([b, i]) => this.emit(b, `${ptr}/${kw}/${i}`, use));
      expr = `codec.untaggedUnion(${codecs.join(', ')})`;
      if (kw === 'oneOf') {
        this.helpers.add('exactlyOne');
        expr = `exactlyOne(${expr})`;
      }
      if (beside !== undefined) expr = `${expr}.refine(${beside})`;
      if (Object.keys(ann).length > 0) expr = this.annotated(expr, ann);
    }
    return withNull ? `codec.nullable(${expr})` : expr;
  }

  private emitAllOf(s: JsonObject, ptr: string, use: SchemaUse, notes: string[], ann: JsonObject): string {
    const parts = s.allOf as Json[];
    const { allOf: _a, description: _d, title: _t, deprecated: _dep, example: _e, examples: _es, default: _def, nullable: _n, ...siblings } = s;
    for (const k of Object.keys(ann)) delete siblings[k];
    const all: Json[] = [...parts];
    if (Object.keys(siblings).length > 0) all.push(siblings);
    if (all.length === 1) {
      const only = all[0] as Json;
      return this.annotated(this.emit(only, `${ptr}/allOf/0`, use), ann);
    }
    // Merge the parts (references followed) into one schema, keyword by keyword.
    const merged: JsonObject = {};
    for (let i = 0; i < all.length; i++) {
      const part = this.deref(all[i] as Json);
      const where = i < parts.length ? `${ptr}/allOf/${i}` : ptr;
      if (part === undefined) {
        notes.push(this.refuse(where, 'ref', 'a part of allOf points at nothing'));
        continue;
      }
      const flat = Array.isArray(part.allOf) ? this.flatten(part) : part;
      for (const [k, v] of Object.entries(flat)) {
        // Annotations of the parts apply to the whole (JSON Schema collects them from every
        // subschema): the first part's, where the schema itself gives none (emit adds its own).
        if (PART_DOCS.has(k)) {
          if (s[k] === undefined && !(k === 'example' && s.examples !== undefined) && !(k === 'examples' && s.example !== undefined) && merged[k] === undefined) merged[k] = structuredClone(v);
          continue;
        }
        if (k === 'discriminator' || k === 'xml' || k === 'externalDocs' || k.startsWith('x-')) continue;
        const cur = merged[k];
        if (cur === undefined) merged[k] = structuredClone(v);
        else if (k === 'properties' && isObject(cur) && isObject(v)) {
          for (const [pk, pv] of Object.entries(v)) {
            if (cur[pk] === undefined || JSON.stringify(cur[pk]) === JSON.stringify(pv)) cur[pk] = pv;
            else {
              const a = cur[pk] as Json;
              cur[pk] = { allOf: [a, pv] };
            }
          }
        } else if (k === 'required' && Array.isArray(cur) && Array.isArray(v)) merged[k] = [...new Set([...cur, ...v])];
        else if (JSON.stringify(cur) !== JSON.stringify(v)) notes.push(this.refuse(`${where}/${escapeToken(k)}`, 'allof-conflict', `allOf parts disagree on ${JSON.stringify(k)}: the first part's value is kept`));
      }
    }
    if (merged.type === undefined && (merged.properties !== undefined || merged.required !== undefined)) merged.type = 'object';
    return this.annotated(this.emit(merged, ptr, use), ann);
  }

  /** A schema with its own `allOf` merged in (one level), for nested merges. */
  private flatten(s: JsonObject): JsonObject {
    const { allOf, ...rest } = s;
    const out: JsonObject = { ...rest };
    for (const p of allOf as Json[]) {
      const part = this.deref(p);
      if (part === undefined) continue;
      const flat = Array.isArray(part.allOf) ? this.flatten(part) : part;
      for (const [k, v] of Object.entries(flat)) {
        if (k === 'properties' && isObject(out.properties) && isObject(v)) out.properties = { ...v, ...out.properties };
        else if (k === 'required' && Array.isArray(out.required) && Array.isArray(v)) out.required = [...new Set([...v, ...out.required])];
        else if (out[k] === undefined) out[k] = v;
      }
    }
    return out;
  }

  private withMeta(expr: string, s: JsonObject, ptr: string, notes: string[]): string {
    const metas: string[] = [];
    if (typeof s.title === 'string') metas.push(`.withTitle(${JSON.stringify(s.title)})`);
    if (typeof s.description === 'string') metas.push(`.withDescription(${JSON.stringify(s.description)})`);
    if (s.deprecated === true) metas.push('.withDeprecated()');
    const examples = Array.isArray(s.examples) ? s.examples : s.example !== undefined ? [s.example] : isObject(s.examples) ? undefined : undefined;
    const meta: JsonObject = {};
    if (examples !== undefined) meta.examples = examples;
    if (s.default !== undefined) meta.default = s.default;
    if (Object.keys(meta).length > 0) metas.push(`.withMeta(${JSON.stringify(meta)})`);
    if (metas.length === 0) return expr;
    return `${unnamed(expr)}${metas.join('')}`;
  }
}

/**
 * `expr`, made fit to take `.refine(…)` or `.with…(…)`: a reference to a named codec (its
 * identifier, maybe followed by comments) becomes `codec.lazy(() => id)`. A copy of a named
 * codec keeps its name, so a refined copy would be a second, different schema under that name
 * (the OpenAPI renderer refuses that); a lazy codec has no name of its own and renders as a
 * `$ref` to the named one with its own keywords beside it.
 */
/** A reference to a named codec, as a lazy one of no name of its own (annotations on it are this use's); any other expression as it is. */
export function unnamed(expr: string): string {
  const m = /^([A-Za-z_$][\w$]*)((?:\s*\/\*[\s\S]*?\*\/)*)$/.exec(expr);
  return m === null ? expr : `codec.lazy(() => ${m[1] as string})${m[2] as string}`;
}

/**
 * True when an object schema declares properties (or required names) and a schema of the other
 * keys (`additionalProperties` neither absent, `true`, `false` nor `{}`): it is imported as
 * `codec.withAdditionalProperties(object, value)`, whose value is not an object codec's (a
 * request body of it is the request's `body` field).
 */
export function typedRest(s: JsonObject): boolean {
  const ap = s.additionalProperties;
  const declares = (isObject(s.properties) && Object.keys(s.properties).length > 0) || (Array.isArray(s.required) && s.required.length > 0);
  return declares && ap !== undefined && ap !== true && ap !== false && !(isObject(ap) && Object.keys(ap).length === 0);
}

/**
 * The alternatives of a `oneOf`/`anyOf` when each only names properties the object must have
 * (`{ required: [...] }`, with a title or description at most); `undefined` otherwise.
 */
function requiredSetsOf(branches: readonly Json[]): readonly JsonObject[] | undefined {
  const ok = branches.length > 0 && branches.every((b) => isObject(b) && Array.isArray(b.required) && b.required.every((r) => typeof r === 'string') && Object.keys(b).every((k) => k === 'required' || k === 'title' || k === 'description'));
  return ok ? (branches as JsonObject[]) : undefined;
}
