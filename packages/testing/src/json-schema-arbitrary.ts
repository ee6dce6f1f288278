/**
 * Generation from a JSON Schema 2020-12, for codecs no builder of `arbitrary` knows: a
 * `codec.fromStandardSchema` codec (a zod, valibot or arktype schema given to `rest.route`) or a
 * codec class of your own. Candidates are read from the schema (types, `enum`, `const`,
 * `properties`, `required`, `additionalProperties`, `items`, `prefixItems`, lengths, ranges,
 * `multipleOf`, `pattern`, `format`, `anyOf`, `oneOf`, `allOf`, local `$ref`s); the codec's own
 * decoding is the judge: a valid candidate is kept only when the codec decodes it, a refusal
 * only when the codec refuses it. Refusals are labelled with the JSON Schema keyword they break.
 */
import { StandardSchemaCodec, type AnyCodec, type JsonSchema } from '@lib/codec';
import * as fc from 'fast-check';
import { refuses, structuralDecoder } from './constraints.js';
import { describeCodec, type Draft, type Walk } from './internal/gen.js';
import { satisfying } from './internal/satisfying.js';
import { refusal, under, type RefusedValue } from './refused-value.js';

type Schema = JsonSchema | boolean;
type Obj = Record<string, unknown>;

/** Wrong-type candidates, with the JSON types they have. */
const SAMPLES: readonly (readonly [unknown, readonly string[]])[] = [
  [null, ['null']],
  [true, ['boolean']],
  [0, ['integer', 'number']],
  [1.5, ['number']],
  ['text', ['string']],
  [[], ['array']],
  [{}, ['object']],
];

/** How deep a recursive schema may go past the depth limit before it has no finite value. */
const HARD_LIMIT = 12;

/** The keywords that say which JSON type a schema without `type` describes. */
const IMPLIED: readonly (readonly [string, readonly string[]])[] = [
  ['object', ['properties', 'required', 'additionalProperties', 'propertyNames', 'minProperties', 'maxProperties']],
  ['array', ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems']],
  ['string', ['minLength', 'maxLength', 'pattern', 'format']],
  ['number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']],
];

/** Strings of code points from `lo` to `hi`: mostly printable ASCII, sometimes any code point. */
function text(lo = 0, hi?: number): fc.Arbitrary<string> {
  const c = { minLength: lo, ...(hi === undefined ? { maxLength: lo + 12 } : { maxLength: hi }) };
  return fc.oneof({ weight: 4, arbitrary: fc.string(c) }, { weight: 1, arbitrary: fc.string({ ...c, unit: 'binary' }) });
}

const dates = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });

/** Generators of the string formats. */
const FORMATS: Readonly<Record<string, () => fc.Arbitrary<string>>> = {
  email: () => fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}[a-z0-9]@[a-z][a-z0-9-]{0,8}[a-z0-9]\.[a-z]{2,6}$/),
  uuid: () => fc.uuid(),
  'date-time': () => dates.map((d) => d.toISOString()),
  date: () => dates.map((d) => d.toISOString().slice(0, 10)),
  time: () => dates.map((d) => d.toISOString().slice(11, 19)),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  hostname: () => fc.domain(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
};

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON types of a value (`integer` and `number` for an integer). */
function typesOfValue(v: unknown): readonly string[] {
  if (v === null) return ['null'];
  if (Array.isArray(v)) return ['array'];
  if (typeof v === 'number') return Number.isInteger(v) ? ['integer', 'number'] : ['number'];
  return [typeof v];
}

/** The types a schema allows (`nullable: true` adds `null`); `undefined` when any. */
function typesOf(s: JsonSchema): string[] | undefined {
  let types: string[] | undefined;
  if (s.type !== undefined) types = Array.isArray(s.type) ? [...s.type] : [s.type];
  else {
    const implied = IMPLIED.filter(([, keys]) => keys.some((k) => k in s)).map(([t]) => t);
    if (implied.length > 0) types = implied;
  }
  if (types !== undefined && (s as Obj)['nullable'] === true && !types.includes('null')) types.push('null');
  return types;
}

/** Sibling keywords merged into each branch of a combinator (`{ type, anyOf }`). */
function withoutKeys(s: JsonSchema, ...keys: string[]): JsonSchema {
  const out: Obj = { ...s };
  for (const k of keys) delete out[k];
  return out as JsonSchema;
}

/** The schemas of `allOf` merged into one: properties and required lists united, other keywords the last one's. */
function mergeAll(parts: readonly Schema[]): JsonSchema {
  const out: Obj = {};
  for (const p of parts) {
    if (p === true) continue;
    if (p === false) return { not: {} } as JsonSchema;
    for (const [k, v] of Object.entries(p)) {
      if (k === 'properties' && isObj(out[k])) out[k] = { ...(out[k] as Obj), ...(v as Obj) };
      else if (k === 'required' && Array.isArray(out[k])) out[k] = [...new Set([...(out[k] as string[]), ...(v as string[])])];
      else if (k === 'additionalProperties' && v === false) out[k] = false;
      else if (!(k === 'additionalProperties' && out[k] === false)) out[k] = v;
    }
  }
  return out as JsonSchema;
}

/** A JSON Pointer segment decoded (`~1` is `/`, `~0` is `~`; percent-encoding of a URI fragment). */
function unescape(seg: string): string {
  return decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Thrown where a schema allows no value. */
class NoValue extends Error {}

/** The walk over one root schema: valid candidates and labelled refusals of each node. */
class SchemaWalk {
  private depth = 0;
  private readonly root: JsonSchema;
  private readonly maxDepth: number;
  private readonly refusing: boolean;

  constructor(root: JsonSchema, maxDepth: number, refusing: boolean) {
    this.root = root;
    this.maxDepth = maxDepth;
    this.refusing = refusing;
  }

  /** Past the depth limit: the smallest values, no refusal. */
  private get terminal(): boolean {
    return this.depth > this.maxDepth;
  }

  private resolve(ref: string): Schema {
    if (!ref.startsWith('#')) throw new TypeError(`@lib/testing: cannot follow the non-local $ref ${JSON.stringify(ref)}`);
    let node: unknown = this.root;
    for (const seg of ref.slice(1).split('/').slice(1)) node = isObj(node) || Array.isArray(node) ? (node as Obj)[unescape(seg)] : undefined;
    if (typeof node !== 'boolean' && !isObj(node)) throw new TypeError(`@lib/testing: the $ref ${JSON.stringify(ref)} points at nothing`);
    return node as Schema;
  }

  /** `f` of the schema a `$ref` points at (its sibling keywords merged in), one level deeper. */
  private followRef<T>(s: JsonSchema, f: (s: Schema) => T): T {
    if (this.depth > this.maxDepth + HARD_LIMIT) throw new TypeError('@lib/testing: the recursive schema has no finite value: every way down leads back to it');
    const target = this.resolve(s.$ref as string);
    const rest = withoutKeys(s, '$ref');
    const merged = Object.keys(rest).length === 0 ? target : mergeAll([target, rest]);
    this.depth++;
    try {
      return f(merged);
    } finally {
      this.depth--;
    }
  }

  /** The branches of `anyOf`/`oneOf`, siblings merged in; past the depth limit, those without a `$ref` first. */
  private branches(s: JsonSchema, key: 'anyOf' | 'oneOf'): Schema[] {
    const rest = withoutKeys(s, key);
    const all = (s[key] as Schema[]).map((b) => (Object.keys(rest).length === 0 ? b : mergeAll([rest, b])));
    if (!this.terminal) return all;
    const plain = all.filter((b) => !JSON.stringify(b).includes('"$ref"'));
    return plain.length > 0 ? plain : all;
  }

  valid(s: Schema): fc.Arbitrary<unknown> {
    if (s === true) return fc.jsonValue({ maxDepth: 2 });
    if (s === false) throw new NoValue();
    if (typeof s.$ref === 'string') return this.followRef(s, (t) => this.valid(t));
    if (Array.isArray(s.allOf)) return this.valid(mergeAll([withoutKeys(s, 'allOf'), ...s.allOf]));
    for (const key of ['anyOf', 'oneOf'] as const) {
      if (Array.isArray(s[key])) {
        const arbs = this.branches(s, key).flatMap((b) => {
          try {
            return [this.valid(b)];
          } catch (err) {
            if (err instanceof NoValue) return [];
            throw err;
          }
        });
        if (arbs.length === 0) throw new NoValue();
        return arbs.length === 1 ? (arbs[0] as fc.Arbitrary<unknown>) : fc.oneof(...arbs);
      }
    }
    if ('const' in s) return fc.constant(s.const).map((v) => structuredClone(v));
    if (Array.isArray(s.enum)) {
      if (s.enum.length === 0) throw new NoValue();
      return fc.constantFrom(...s.enum).map((v) => structuredClone(v));
    }
    const types = typesOf(s);
    if (types === undefined) return fc.jsonValue({ maxDepth: 2 });
    const arbs = types.map((t) => this.typed(s, t));
    if (arbs.length === 0) throw new NoValue();
    return arbs.length === 1 ? (arbs[0] as fc.Arbitrary<unknown>) : fc.oneof(...arbs);
  }

  private typed(s: JsonSchema, type: string): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'string':
        return this.string(s);
      case 'integer':
      case 'number':
        return this.number(s, type === 'integer');
      case 'array':
        return this.array(s);
      case 'object':
        return this.object(s);
      default:
        throw new NoValue();
    }
  }

  private string(s: JsonSchema): fc.Arbitrary<string> {
    const lo = s.minLength ?? 0;
    const hi = s.maxLength;
    const format = s.format === undefined ? undefined : FORMATS[s.format];
    if (format !== undefined) return format();
    if (s.pattern !== undefined) {
      const re = new RegExp(s.pattern, 'u');
      const lengthOk = (v: string): boolean => [...v].length >= lo && (hi === undefined || [...v].length <= hi);
      const matching = fc.stringMatching(new RegExp(s.pattern));
      return fc.oneof(matching, text(lo, hi)).filter((v) => re.test(v) && lengthOk(v));
    }
    return text(lo, hi);
  }

  /** The integer bounds of a schema, clamped to safe integers. */
  private intBounds(s: JsonSchema, step = 1): [number, number] {
    let lo = -Number.MAX_SAFE_INTEGER;
    let hi = Number.MAX_SAFE_INTEGER;
    if (typeof s.minimum === 'number') lo = Math.max(lo, Math.ceil(s.minimum / step));
    if (typeof s.exclusiveMinimum === 'number') lo = Math.max(lo, Math.floor(s.exclusiveMinimum / step) + 1);
    if (typeof s.maximum === 'number') hi = Math.min(hi, Math.floor(s.maximum / step));
    if (typeof s.exclusiveMaximum === 'number') hi = Math.min(hi, Math.ceil(s.exclusiveMaximum / step) - 1);
    return [Math.max(lo, -Number.MAX_SAFE_INTEGER), Math.min(hi, Number.MAX_SAFE_INTEGER)];
  }

  private number(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
    const noNegZero = (v: number): number => (Object.is(v, -0) ? 0 : v);
    if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
      const m = s.multipleOf;
      const [lo, hi] = this.intBounds(s, m);
      if (lo > hi) throw new NoValue();
      return fc.integer({ min: lo, max: hi }).map((k) => noNegZero(k * m));
    }
    const [lo, hi] = this.intBounds(s);
    const ints = lo <= hi ? fc.integer({ min: lo, max: hi }).map(noNegZero) : undefined;
    if (integer) {
      if (ints === undefined) throw new NoValue();
      // Small values near the bounds are the likely ones.
      const near = [lo, hi, lo + 1, hi - 1].filter((v) => v >= lo && v <= hi);
      return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...near) }, { weight: 4, arbitrary: ints });
    }
    const min = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : s.minimum;
    const max = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : s.maximum;
    const doubles = fc
      .double({ noNaN: true, noDefaultInfinity: true, ...(min === undefined ? {} : { min, minExcluded: typeof s.exclusiveMinimum === 'number' }), ...(max === undefined ? {} : { max, maxExcluded: typeof s.exclusiveMaximum === 'number' }) })
      .map(noNegZero);
    return ints === undefined ? doubles : fc.oneof(ints, doubles);
  }

  private array(s: JsonSchema): fc.Arbitrary<unknown[]> {
    if (Array.isArray(s.prefixItems)) {
      const prefix = s.prefixItems.map((p) => this.valid(p));
      return fc.tuple(...prefix);
    }
    const lo = s.minItems ?? 0;
    if (this.terminal && lo === 0) return fc.constant([]);
    const item = s.items === undefined ? fc.jsonValue({ maxDepth: 1 }) : this.valid(s.items);
    const hi = this.terminal ? lo : Math.min(s.maxItems ?? Infinity, lo + 4);
    if (lo > hi) throw new NoValue();
    return s.uniqueItems === true ? fc.uniqueArray(item, { minLength: lo, maxLength: hi, selector: (v) => JSON.stringify(v) }) : fc.array(item, { minLength: lo, maxLength: hi });
  }

  private object(s: JsonSchema): fc.Arbitrary<Obj> {
    const props = s.properties ?? {};
    const required = new Set(s.required ?? []);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, p] of Object.entries(props)) if (required.has(k) || !this.terminal) model[k] = this.valid(p);
    const extra = s.additionalProperties;
    for (const k of required) if (!(k in model)) model[k] = extra === undefined || extra === false ? fc.jsonValue({ maxDepth: 1 }) : this.valid(extra);
    const fixed = fc.record(model, { requiredKeys: Object.keys(model).filter((k) => required.has(k)) });
    if (!isObj(extra) || this.terminal) return fixed as fc.Arbitrary<Obj>;
    // A record (`additionalProperties` a schema): keys of `propertyNames`, or any text.
    const keys = (s.propertyNames === undefined ? text(1, 8) : this.valid(s.propertyNames)).filter((k): k is string => typeof k === 'string' && !(k in props) && k !== '__proto__');
    return fc.tuple(fixed, fc.dictionary(keys, this.valid(extra), { maxKeys: 3 })).map(([a, b]) => ({ ...b, ...a }));
  }

  /** The refusals of `s`, pointers relative to it, each breaking one keyword of it or of a child. */
  refused(s: Schema): fc.Arbitrary<RefusedValue>[] {
    if (!this.refusing || this.terminal || typeof s === 'boolean') return [];
    if (typeof s.$ref === 'string') return this.followRef(s, (t) => this.refused(t));
    if (Array.isArray(s.allOf)) return this.refused(mergeAll([withoutKeys(s, 'allOf'), ...s.allOf]));
    for (const key of ['anyOf', 'oneOf'] as const) {
      if (Array.isArray(s[key])) {
        const types = this.branches(s, key).map((b) => (typeof b === 'boolean' ? undefined : typesOf(b)));
        if (types.some((t) => t === undefined)) return [];
        return this.wrongTypes(types.flat() as string[], key);
      }
    }
    if ('const' in s || Array.isArray(s.enum)) {
      const allowed = 'const' in s ? [s.const] : (s.enum as unknown[]);
      const keyword = 'const' in s ? 'const' : 'enum';
      const others = [...new Set(allowed.flatMap(typesOfValue))].map((t) => ({ string: '~not-one~', number: 0.25, integer: -987_654, boolean: !allowed.includes(true), null: undefined })[t]).filter((v) => v !== undefined && !allowed.includes(v));
      return [...(others.length > 0 ? [fc.constantFrom(...others).map((v) => refusal(v, keyword))] : []), ...this.wrongTypes(allowed.flatMap(typesOfValue), 'type')];
    }
    const types = typesOf(s);
    if (types === undefined) return [];
    const out = this.wrongTypes(types, 'type');
    for (const t of new Set(types)) out.push(...this.refusedOf(s, t));
    return out;
  }

  private wrongTypes(types: readonly string[], keyword: string): fc.Arbitrary<RefusedValue>[] {
    const wrong = SAMPLES.filter(([, ts]) => !ts.some((t) => types.includes(t))).map(([v]) => v);
    return wrong.length === 0 ? [] : [fc.constantFrom(...wrong).map((v) => refusal(structuredClone(v), keyword))];
  }

  private refusedOf(s: JsonSchema, type: string): fc.Arbitrary<RefusedValue>[] {
    const out: fc.Arbitrary<RefusedValue>[] = [];
    const push = (keyword: string, arb: fc.Arbitrary<unknown>): void => void out.push(arb.map((v) => refusal(v, keyword)));
    switch (type) {
      case 'string': {
        const lo = s.minLength ?? 0;
        if (lo > 0) push('minLength', text(lo - 1, lo - 1));
        if (s.maxLength !== undefined) push('maxLength', text(s.maxLength + 1, s.maxLength + 3));
        if (s.pattern !== undefined) {
          const re = new RegExp(s.pattern, 'u');
          push('pattern', text(lo, s.maxLength).filter((v) => !re.test(v)));
        }
        if (s.format !== undefined && FORMATS[s.format] !== undefined) push('format', fc.constantFrom(`not-a-${s.format}`, 'x@', '2020-13-45T99:99:99Z', '12345'));
        break;
      }
      case 'integer':
      case 'number': {
        if (type === 'integer') push('type', fc.constantFrom(0.5, 1.5, -2.25, 1e-3));
        const min = s.exclusiveMinimum ?? s.minimum;
        const max = s.exclusiveMaximum ?? s.maximum;
        if (typeof min === 'number' && min > -Number.MAX_SAFE_INTEGER) push(s.exclusiveMinimum === undefined ? 'minimum' : 'exclusiveMinimum', fc.integer({ min: 1, max: 1000 }).map((d) => Math.ceil(min) - d + (s.exclusiveMinimum === undefined ? 0 : 1)));
        if (typeof max === 'number' && max < Number.MAX_SAFE_INTEGER) push(s.exclusiveMaximum === undefined ? 'maximum' : 'exclusiveMaximum', fc.integer({ min: 1, max: 1000 }).map((d) => Math.floor(max) + d - (s.exclusiveMaximum === undefined ? 0 : 1)));
        if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
          const m = s.multipleOf;
          push('multipleOf', this.valid(withoutKeys(s, 'multipleOf')).filter((v) => typeof v === 'number' && !Number.isInteger(v / m)));
        }
        break;
      }
      case 'array': {
        if (Array.isArray(s.prefixItems)) break;
        const item = s.items === undefined ? fc.jsonValue({ maxDepth: 1 }) : this.valid(s.items);
        const lo = s.minItems ?? 0;
        if (lo > 0) push('minItems', fc.array(item, { minLength: lo - 1, maxLength: lo - 1 }));
        if (s.maxItems !== undefined) push('maxItems', fc.array(item, { minLength: s.maxItems + 1, maxLength: s.maxItems + 2 }));
        if (s.items !== undefined && typeof s.items !== 'boolean') {
          const arrays = fc.array(item, { minLength: Math.max(lo, 1), maxLength: Math.max(lo, 1) + 2 });
          for (const r of this.refused(s.items)) out.push(fc.tuple(arrays, r, fc.nat()).map(([a, bad, n]) => {
            const i = n % a.length;
            const copy = [...a];
            copy[i] = bad.value;
            return under(i, copy, bad);
          }));
        }
        break;
      }
      case 'object': {
        const valid = this.object(s);
        const required = (s.required ?? []).filter((k) => k !== '__proto__');
        for (const k of required) {
          out.push(valid.map((o) => {
            const copy = { ...o };
            delete copy[k];
            return refusal(copy, 'required', `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
          }));
        }
        if (s.additionalProperties === false) {
          const key = Object.hasOwn(s.properties ?? {}, 'unknownKey') ? '~unknown~' : 'unknownKey';
          out.push(valid.map((o) => refusal({ ...o, [key]: 1 }, 'additionalProperties', `/${key.replace(/~/g, '~0')}`)));
        }
        const props = s.properties ?? {};
        for (const [k, p] of Object.entries(props)) {
          if (k === '__proto__') continue;
          for (const r of this.refused(p)) {
            out.push(fc.tuple(valid, r).map(([o, bad]) => {
              const copy: Obj = { ...o };
              Object.defineProperty(copy, k, { value: bad.value, enumerable: true, writable: true, configurable: true });
              return under(k, copy, bad);
            }));
          }
        }
        break;
      }
      default:
    }
    return out;
  }
}

/** The JSON Schema a codec's values are generated from: a foreign schema's own, else the codec's. */
function schemaOf(codec: AnyCodec): JsonSchema {
  return codec instanceof StandardSchemaCodec ? (codec.rawJsonSchema as JsonSchema) : codec.schema;
}

/** A value written as a parameter's text: numbers and booleans as their text, lists item by item, objects (a styled parameter's) property by property. */
function asText(v: unknown): unknown {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(asText);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) Object.defineProperty(out, key, { value: asText((v as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  return out;
}

/** True for a plain object whose every property is text: a styled parameter's object. */
function textObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/**
 * The {@link Draft} of a codec read from its JSON Schema: valid candidates kept when the codec
 * decodes them (its own constraints aside, which `finish` applies), and refusals kept when the
 * codec refuses them. A parameter's codec (`fromStandardSchema(s, { parameter: true })`) gets text.
 * @throws {TypeError} when no candidate decodes, or the schema cannot be read.
 */
export function schemaDraft(codec: AnyCodec, walk: Walk, maxDepth: number, why: string): Draft {
  let schema: JsonSchema;
  try {
    schema = schemaOf(codec);
  } catch (err) {
    throw new TypeError(`@lib/testing: cannot generate values of a codec of kind ${JSON.stringify(codec.kind)}: ${why}, and its JSON Schema cannot be read`, { cause: err });
  }
  const parameter = codec instanceof StandardSchemaCodec && codec.options.parameter === true;
  const wire = parameter ? asText : (v: unknown) => v;
  // A parameter is text (a list of texts for a multi-valued one): other refusals cannot be sent.
  const list = parameter && (codec as StandardSchemaCodec<unknown>).list;
  // An object of texts where the schema describes an object (a styled parameter's properties).
  const object = parameter && (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')));
  const sendable = (v: unknown): boolean => !parameter || (list ? Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') : typeof v === 'string' || (object && textObject(v)));
  const sw = new SchemaWalk(schema, maxDepth, !walk.terminal);
  let candidates: fc.Arbitrary<unknown>;
  try {
    candidates = sw.valid(schema).map(wire);
  } catch (err) {
    if (err instanceof NoValue) throw new TypeError(`@lib/testing: the JSON Schema of ${describeCodec(codec)} allows no value`);
    throw err;
  }
  const decode = structuralDecoder(codec);
  const valid = satisfying(candidates, (w) => decode(w).ok, `value of ${describeCodec(codec)} its schema accepts`);
  if (valid === undefined) throw new TypeError(`@lib/testing: cannot generate a value of ${describeCodec(codec)} from its JSON Schema: no candidate decodes`);
  const refused: fc.Arbitrary<RefusedValue>[] = [];
  for (const r of sw.refused(schema)) {
    const kept = satisfying(
      r.map((x) => ({ ...x, value: wire(x.value) })),
      (x) => x.value !== undefined && sendable(x.value) && refuses(codec, x.value),
      `value ${describeCodec(codec)} refuses`,
    );
    if (kept !== undefined) refused.push(kept);
  }
  return { valid, refused };
}
