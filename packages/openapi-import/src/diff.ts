import { escapeToken, isObject, parseDocument, resolvePointer, type Json, type JsonObject } from './load.js';

/** One difference between two documents, found at a place of the expected one. */
export interface Difference {
  /**
   * Where: `paths/GET /pets/{id}/parameters/query:limit/schema/maximum`,
   * `components/schemas/Pet/properties/name`, `components/securitySchemes/bearer`.
   */
  readonly pointer: string;
  /**
   * What kind: `operation-missing`, `operation-added`, `parameter`, `request-body`, `media-type`,
   * `status`, `header`, `link`, `security`, `security-scheme`, `schema`, `doc` (summary,
   * description, tags, deprecated, operationId).
   */
  readonly kind: string;
  /** The difference in words. */
  readonly message: string;
  /** The expected value there (`undefined`: absent). */
  readonly expected?: unknown;
  /** The actual value there (`undefined`: absent). */
  readonly actual?: unknown;
}

/** Options of {@link diffDocuments}. */
export interface DiffOptions {
  /**
   * Also report what a `@lib` server adds to any document it writes: the responses of its own
   * pipeline that the expected document does not list (400, 401, 406, 413, 415, 500, 503, 304,
   * 412 with their headers), `format: double-int` on an integer the expected document gives no
   * format (`codec.int()` takes safe integers), the `maxLength: 254` of `validate.email`, and
   * component schemas no operation uses (a server documents the schemas its routes use).
   * Default `false`.
   */
  readonly strict?: boolean;
  /** Leave documentation out (summary, description, title, examples, tags). Default `false`. */
  readonly ignoreDocs?: boolean;
  /**
   * Judge each component schema by its own definition: a `$ref` to a component of the same
   * name on both sides is equal there (that component is compared on its own). Default `false`:
   * references are followed, so a difference shows at every place that uses it.
   */
  readonly componentsByName?: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const PIPELINE_STATUSES = new Set(['304', '400', '401', '406', '412', '413', '415', '500', '503']);
const DOC_KEYWORDS = new Set(['description', 'title', 'examples', 'example', '$comment']);
const HOISTED = ['description', 'title', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly'];
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'not', 'propertyNames', 'contains', 'if', 'then', 'else', 'unevaluatedProperties']);
const SUBSCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/**
 * Compares two OpenAPI documents (3.0 or 3.1, text or parsed) by meaning: operations (by method
 * and path, whatever their variables are called), their parameters with schemas and styles,
 * request and response media types and schemas, statuses, response headers, security
 * requirements and schemes, and component schemas. Schemas are equal up to `$ref` naming and
 * keyword order: references are followed, `nullable` (3.0) equals a `null` type (3.1),
 * `allOf`s of objects are merged, `required` and `enum` are sets, a one-branch union is its
 * branch, `additionalProperties: true` is absent.
 *
 * The result is empty when the documents agree; see {@link DiffOptions.strict} for what a
 * `@lib` server adds and is left out by default.
 */
export function diffDocuments(expected: string | object, actual: string | object, options: DiffOptions = {}): Difference[] {
  const e = typeof expected === 'string' ? parseDocument(expected) : (expected as JsonObject);
  const a = typeof actual === 'string' ? parseDocument(actual) : (actual as JsonObject);
  return new Differ(e, a, options).run();
}

interface Op {
  readonly key: string;
  readonly op: JsonObject;
  readonly item: JsonObject;
  readonly path: string;
}

function operations(doc: JsonObject): Map<string, Op> {
  const out = new Map<string, Op>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, raw] of Object.entries(paths)) {
    let item = raw;
    if (isObject(item) && typeof item.$ref === 'string') item = resolvePointer(doc, item.$ref) ?? {};
    if (!isObject(item)) continue;
    for (const m of METHODS) {
      const op = item[m];
      if (!isObject(op)) continue;
      const key = `${m.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
      out.set(key, { key: `${m.toUpperCase()} ${path}`, op, item, path });
    }
  }
  return out;
}

class Differ {
  readonly out: Difference[] = [];
  /**
   * The differences under each pair of references already compared (expected `$ref` | actual
   * `$ref`), their pointers relative to where the pair was met: met again, they are added under
   * the new pointer without comparing again. Large documents reach one pair by many paths
   * (Stripe's expandable fields, `anyOf: [string, $ref]` everywhere): without it, a diff takes
   * time exponential in their depth.
   */
  readonly comparedRefs = new Map<string, readonly Difference[]>();
  readonly e30: boolean;
  readonly a30: boolean;
  constructor(
    readonly e: JsonObject,
    readonly a: JsonObject,
    readonly options: DiffOptions,
  ) {
    this.e30 = String(e.openapi ?? '').startsWith('3.0');
    this.a30 = String(a.openapi ?? '').startsWith('3.0');
  }

  add(pointer: string, kind: string, message: string, expected?: unknown, actual?: unknown): void {
    this.out.push({ pointer, kind, message, ...(expected !== undefined && { expected }), ...(actual !== undefined && { actual }) });
  }

  run(): Difference[] {
    const eo = operations(this.e);
    const ao = operations(this.a);
    for (const [k, x] of eo) {
      const y = ao.get(k);
      if (y === undefined) this.add(`paths/${x.key}`, 'operation-missing', `${x.key} is not in the actual document`);
      else this.operation(x, y);
    }
    for (const [k, y] of ao) if (!eo.has(k)) this.add(`paths/${y.key}`, 'operation-added', `${y.key} is not in the expected document`);
    this.schemes();
    this.components();
    return this.out;
  }

  private doc(at: string, what: string, x: Json | undefined, y: Json | undefined): void {
    if (this.options.ignoreDocs === true) return;
    if (JSON.stringify(x ?? null) !== JSON.stringify(y ?? null)) this.add(`${at}/${what}`, 'doc', `${what} differs`, x, y);
  }

  private operation(x: Op, y: Op): void {
    const at = `paths/${x.key}`;
    for (const k of ['operationId', 'summary', 'description', 'deprecated'] as const) {
      const xv = k === 'deprecated' ? x.op[k] === true : x.op[k];
      const yv = k === 'deprecated' ? y.op[k] === true : y.op[k];
      if (k === 'description' && (xv ?? '') === (yv ?? '')) continue;
      this.doc(at, k, xv, yv);
    }
    const tags = (o: JsonObject): string => JSON.stringify([...(Array.isArray(o.tags) ? o.tags : [])].sort());
    if (tags(x.op) !== tags(y.op)) this.doc(at, 'tags', x.op.tags, y.op.tags);
    this.parameters(at, x, y);
    this.requestBody(at, x, y);
    this.responses(at, x, y);
    const sec = (doc: JsonObject, o: JsonObject): string[] => {
      const list = Array.isArray(o.security) ? o.security : Array.isArray(doc.security) ? doc.security : [];
      return list.filter(isObject).map((r) => JSON.stringify(Object.keys(r).sort().map((n) => [n, [...((r[n] as string[]) ?? [])].sort()]))).sort();
    };
    const xs = sec(this.e, x.op);
    const ys = sec(this.a, y.op);
    if (JSON.stringify(xs) !== JSON.stringify(ys)) this.add(`${at}/security`, 'security', 'the security requirements differ', xs.map((s) => JSON.parse(s)), ys.map((s) => JSON.parse(s)));
  }

  private params(doc: JsonObject, o: Op): Map<string, JsonObject> {
    const out = new Map<string, JsonObject>();
    for (const list of [o.item.parameters, o.op.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const p = deref(doc, raw);
        if (p === undefined || typeof p.name !== 'string') continue;
        if (p.in === 'header' && ['accept', 'content-type', 'authorization'].includes(p.name.toLowerCase())) continue;
        const name = p.in === 'header' ? p.name.toLowerCase() : p.name;
        out.set(`${String(p.in)}:${p.in === 'path' ? `#${[...o.path.matchAll(/\{([^}]+)\}/g)].findIndex((m) => m[1] === p.name)}` : name}`, p);
      }
    }
    return out;
  }

  private parameters(at: string, x: Op, y: Op): void {
    const xp = this.params(this.e, x);
    const yp = this.params(this.a, y);
    for (const [k, p] of xp) {
      const q = yp.get(k);
      const pat = `${at}/parameters/${p.in}:${String(p.name)}`;
      if (q === undefined) {
        this.add(pat, 'parameter', `parameter ${p.in}:${String(p.name)} is missing`);
        continue;
      }
      if (p.in === 'path' && p.name !== q.name) this.doc(pat, 'name', p.name, q.name);
      const req = (v: JsonObject): boolean => v.in === 'path' || v.required === true;
      if (req(p) !== req(q)) this.add(`${pat}/required`, 'parameter', 'required differs', req(p), req(q));
      // explode changes how a list or an object is written; a scalar (as the contract types the
      // parameter) is written the same either way.
      const one = scalar(this.e, p.schema);
      const style = (v: JsonObject): string => {
        const s = typeof v.style === 'string' ? v.style : v.in === 'query' || v.in === 'cookie' ? 'form' : 'simple';
        const ex = typeof v.explode === 'boolean' ? v.explode : s === 'form';
        return one ? s : `${s}/${ex}`;
      };
      if (style(p) !== style(q)) this.add(`${pat}/style`, 'parameter', 'style or explode differs', style(p), style(q));
      if ((p.deprecated === true) !== (q.deprecated === true)) this.add(`${pat}/deprecated`, 'parameter', 'deprecated differs', p.deprecated, q.deprecated);
      if (p.in !== 'path' || q.description !== undefined) this.doc(pat, 'description', p.description, q.description);
      this.schema(`${pat}/schema`, p.schema, q.schema);
    }
    for (const [k, q] of yp) if (!xp.has(k)) this.add(`${at}/parameters/${q.in}:${String(q.name)}`, 'parameter', `parameter ${q.in}:${String(q.name)} is added`);
  }

  private requestBody(at: string, x: Op, y: Op): void {
    const xb = deref(this.e, x.op.requestBody);
    const yb = deref(this.a, y.op.requestBody);
    if (xb === undefined && yb === undefined) return;
    if (xb === undefined || yb === undefined) {
      this.add(`${at}/requestBody`, 'request-body', xb === undefined ? 'a request body is added' : 'the request body is missing');
      return;
    }
    if ((xb.required === true) !== (yb.required === true)) this.add(`${at}/requestBody/required`, 'request-body', 'required differs', xb.required === true, yb.required === true);
    this.content(`${at}/requestBody`, xb.content, yb.content);
  }

  private content(at: string, x: Json | undefined, y: Json | undefined): void {
    const xc = isObject(x) ? x : {};
    const yc = isObject(y) ? y : {};
    const norm = (c: JsonObject): Map<string, JsonObject> => new Map(Object.entries(c).map(([k, v]) => [k.toLowerCase().replace(/\s+/g, ''), isObject(v) ? v : {}]));
    const xm = norm(xc);
    const ym = norm(yc);
    for (const [ct, mt] of xm) {
      const nt = ym.get(ct);
      if (nt === undefined) this.add(`${at}/content/${escapeToken(ct)}`, 'media-type', `media type ${ct} is missing`);
      else this.schema(`${at}/content/${escapeToken(ct)}/schema`, mt.schema, nt.schema, isBinary(ct));
    }
    for (const ct of ym.keys()) if (!xm.has(ct)) this.add(`${at}/content/${escapeToken(ct)}`, 'media-type', `media type ${ct} is added`);
  }

  private responses(at: string, x: Op, y: Op): void {
    const xr = isObject(x.op.responses) ? x.op.responses : {};
    const yr = isObject(y.op.responses) ? y.op.responses : {};
    const norm = (s: string): string => s.toUpperCase() === s ? s : s.toUpperCase() === 'DEFAULT' ? 'default' : s.toUpperCase();
    const xk = new Map(Object.keys(xr).map((k) => [norm(k), k]));
    const yk = new Map(Object.keys(yr).map((k) => [norm(k), k]));
    for (const [s, k] of xk) {
      const rat = `${at}/responses/${s}`;
      const yv = yk.get(s);
      if (yv === undefined) {
        this.add(rat, 'status', `status ${s} is missing`);
        continue;
      }
      const r = deref(this.e, xr[k]) ?? {};
      const q = deref(this.a, yr[yv]) ?? {};
      const pipeline = this.options.strict !== true && (PIPELINE_STATUSES.has(s) || s === 'default');
      // The pipeline's own answers of a status the document declares are documented beside it ("Or: …").
      const desc = pipeline && typeof q.description === 'string' && typeof r.description === 'string' && q.description.startsWith(`${r.description}\n\nOr: `) ? r.description : q.description;
      this.doc(rat, 'description', r.description, desc);
      this.content(rat, r.content, pipeline ? (isObject(r.content) ? withoutEnvelope(q.content) : undefined) : q.content);
      this.links(rat, r, q);
      const hs = (doc: JsonObject, v: JsonObject): Map<string, JsonObject> => new Map(Object.entries(isObject(v.headers) ? v.headers : {}).map(([n, h]) => [n.toLowerCase(), deref(doc, h) ?? {}]));
      const xh = hs(this.e, r);
      const yh = hs(this.a, q);
      for (const [n, h] of xh) {
        if (n === 'content-type') continue;
        const g = yh.get(n);
        if (g === undefined) {
          this.add(`${rat}/headers/${n}`, 'header', `response header ${n} is missing`);
          continue;
        }
        if ((h.required === true) !== (g.required === true)) this.add(`${rat}/headers/${n}/required`, 'header', 'required differs', h.required === true, g.required === true);
        this.doc(`${rat}/headers/${n}`, 'description', h.description, g.description);
        this.schema(`${rat}/headers/${n}/schema`, h.schema, g.schema);
      }
      for (const n of yh.keys()) {
        if (xh.has(n)) continue;
        if (this.options.strict !== true && s === '401' && n === 'www-authenticate') continue;
        this.add(`${rat}/headers/${n}`, 'header', `response header ${n} is added`);
      }
    }
    for (const [s] of yk) {
      if (xk.has(s)) continue;
      if (this.options.strict !== true && PIPELINE_STATUSES.has(s)) continue;
      this.add(`${at}/responses/${s}`, 'status', `status ${s} is added`);
    }
  }

  /** The links of two responses, by name: target operation, parameters, request body, description. */
  private links(at: string, r: JsonObject, q: JsonObject): void {
    const ls = (doc: JsonObject, v: JsonObject): Map<string, JsonObject> => new Map(Object.entries(isObject(v.links) ? v.links : {}).map(([n, l]) => [n, deref(doc, l) ?? {}]));
    const xl = ls(this.e, r);
    const yl = ls(this.a, q);
    for (const [n, l] of xl) {
      const lat = `${at}/links/${escapeToken(n)}`;
      const m = yl.get(n);
      if (m === undefined) {
        this.add(lat, 'link', `link ${n} is missing`);
        continue;
      }
      const { description: ld, ...lr } = l;
      const { description: md, ...mr } = m;
      if (JSON.stringify(sortKeys(lr)) !== JSON.stringify(sortKeys(mr))) this.add(lat, 'link', `link ${n} differs`, lr, mr);
      this.doc(lat, 'description', ld, md);
    }
    for (const n of yl.keys()) if (!xl.has(n)) this.add(`${at}/links/${escapeToken(n)}`, 'link', `link ${n} is added`);
  }

  private schemes(): void {
    const xs = isObject(this.e.components) && isObject(this.e.components.securitySchemes) ? this.e.components.securitySchemes : {};
    const ys = isObject(this.a.components) && isObject(this.a.components.securitySchemes) ? this.a.components.securitySchemes : {};
    for (const [n, raw] of Object.entries(xs)) {
      const at = `components/securitySchemes/${escapeToken(n)}`;
      const x = deref(this.e, raw) ?? {};
      const y = deref(this.a, ys[n]);
      if (y === undefined) {
        this.add(at, 'security-scheme', `security scheme ${n} is missing`);
        continue;
      }
      const { description: xd, ...xr } = x;
      const { description: yd, ...yr } = y;
      const low = (o: JsonObject): string => JSON.stringify(sortKeys({ ...o, ...(typeof o.scheme === 'string' && { scheme: o.scheme.toLowerCase() }) }));
      if (low(xr) !== low(yr)) this.add(at, 'security-scheme', `security scheme ${n} differs`, xr, yr);
      this.doc(at, 'description', xd, yd);
    }
    for (const n of Object.keys(ys)) if (!(n in xs)) this.add(`components/securitySchemes/${escapeToken(n)}`, 'security-scheme', `security scheme ${n} is added`);
  }

  private components(): void {
    const xs = isObject(this.e.components) && isObject(this.e.components.schemas) ? this.e.components.schemas : {};
    const ys = isObject(this.a.components) && isObject(this.a.components.schemas) ? this.a.components.schemas : {};
    const used = this.options.strict === true || !isObject(this.e.paths) ? undefined : usedComponents(this.e);
    for (const n of Object.keys(xs)) {
      const at = `components/schemas/${escapeToken(n)}`;
      if (!(n in ys)) {
        if (used === undefined || used.has(n)) this.add(at, 'schema', `component schema ${n} is missing`);
        continue;
      }
      this.schema(at, xs[n], ys[n]);
    }
  }

  /** Compares two schemas, each in its own document. */
  schema(at: string, x: Json | undefined, y: Json | undefined, binary = false): void {
    if (binary) return; // a binary body's schema describes bytes, whatever its keywords
    new SchemaDiff(this, this.options).compare(at, x, y, new Set());
  }
}

/** A content map whose schemas are `anyOf: [declared, pipeline envelope]` given with the declared schemas alone. */
function withoutEnvelope(content: Json | undefined): Json | undefined {
  if (!isObject(content)) return content;
  const out: JsonObject = {};
  for (const [ct, mt] of Object.entries(content)) {
    const s = isObject(mt) ? mt.schema : undefined;
    const branches = isObject(s) && Array.isArray(s.anyOf) && s.anyOf.length === 2 ? s.anyOf : undefined;
    const envelope = branches?.[1];
    out[ct] = branches !== undefined && isObject(envelope) && typeof envelope.$ref === 'string' && /\/(ErrorEnvelope|ProblemDetails)$/.test(envelope.$ref) ? { ...(mt as JsonObject), schema: branches[0] as Json } : (mt as Json);
  }
  return out;
}

function isBinary(ct: string): boolean {
  return /^(application\/octet-stream|image\/|audio\/|video\/|application\/pdf|application\/zip)/.test(ct);
}

/**
 * True when `schema` admits only scalars (strings, numbers, booleans, null): a parameter whose
 * `explode` has no effect (OpenAPI 3.1 §4.8.12.4: explode applies to arrays and objects).
 */
function scalar(doc: JsonObject, schema: Json | undefined): boolean {
  const s = deref(doc, schema);
  if (s === undefined) return false;
  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  if (types !== undefined) return types.length > 0 && types.every((t) => t === 'string' || t === 'number' || t === 'integer' || t === 'boolean' || t === 'null');
  const values = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined;
  return values !== undefined && values.every((v) => v === null || typeof v !== 'object');
}

function deref(doc: JsonObject, v: Json | undefined): JsonObject | undefined {
  let cur = v;
  for (let i = 0; i < 32 && isObject(cur) && typeof cur.$ref === 'string'; i++) cur = cur.$ref.startsWith('#') ? resolvePointer(doc, cur.$ref) : undefined;
  return isObject(cur) ? cur : undefined;
}

function sortKeys(v: Json): Json {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k] as Json);
  return out;
}

/** The component schemas the operations of `doc` use, directly or through other schemas. */
function usedComponents(doc: JsonObject): Set<string> {
  const used = new Set<string>();
  const seen = new Set<string>();
  const walk = (v: Json | undefined): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObject(v)) return;
    if (typeof v.$ref === 'string' && v.$ref.startsWith('#') && !seen.has(v.$ref)) {
      seen.add(v.$ref);
      const m = /^#\/components\/schemas\/([^/]+)/.exec(v.$ref);
      if (m !== null) used.add(decodeURIComponent(m[1] as string).replace(/~1/g, '/').replace(/~0/g, '~'));
      walk(resolvePointer(doc, v.$ref));
    }
    if (isObject(v.discriminator) && isObject(v.discriminator.mapping)) {
      for (const t of Object.values(v.discriminator.mapping)) if (typeof t === 'string') walk({ $ref: t.startsWith('#') ? t : `#/components/schemas/${t}` });
    }
    for (const [k, c] of Object.entries(v)) if (k !== '$ref') walk(c);
  };
  walk(doc.paths);
  return used;
}

/** A schema compared with another: both followed through `$ref`s and brought to one form. */
class SchemaDiff {
  constructor(
    readonly d: Differ,
    readonly options: DiffOptions,
  ) {}

  /** The schema in canonical form: references followed, 3.0 keywords as 3.1's, allOf of objects merged. */
  norm(s: Json | undefined, root: JsonObject, v30: boolean, pairs: { ref?: string }): JsonObject {
    let cur: Json | undefined = s;
    for (let i = 0; i < 64 && isObject(cur) && typeof cur.$ref === 'string'; i++) {
      const { $ref, ...siblings } = cur;
      pairs.ref = $ref;
      const target = $ref.startsWith('#') ? resolvePointer(root, $ref) : undefined;
      // 3.1: siblings of $ref apply too; documentation siblings override.
      cur = isObject(target) ? (Object.keys(siblings).length > 0 && !v30 ? { ...target, ...siblings } : target) : {};
    }
    if (cur === true || cur === undefined) return {};
    if (!isObject(cur)) return { not: {} };
    let o: JsonObject = { ...cur };
    // 3.0's keywords, also met in 3.1 documents (nullable, example, boolean exclusive bounds), read as 3.0 reads them.
    if (v30 || o.nullable !== undefined || o.example !== undefined || typeof o.exclusiveMinimum === 'boolean' || typeof o.exclusiveMaximum === 'boolean') {
      if (o.example !== undefined) {
        if (o.examples === undefined) o.examples = [o.example];
        delete o.example;
      }
      if (o.exclusiveMinimum === true) {
        o.exclusiveMinimum = o.minimum as Json;
        delete o.minimum;
      } else if (o.exclusiveMinimum === false) delete o.exclusiveMinimum;
      if (o.exclusiveMaximum === true) {
        o.exclusiveMaximum = o.maximum as Json;
        delete o.maximum;
      } else if (o.exclusiveMaximum === false) delete o.exclusiveMaximum;
      // 3.0's binary strings are 3.1's content (OpenAPI 3.1 §4.8.14.3): bytes, or base64 text.
      if (v30 && o.type === 'string' && o.format === 'binary' && o.contentMediaType === undefined) {
        delete o.format;
        o.contentMediaType = 'application/octet-stream';
      }
      if (o.nullable === true) {
        delete o.nullable;
        if (typeof o.type === 'string') o.type = [o.type, 'null'];
        else if (Array.isArray(o.enum)) o.enum = [...o.enum, null];
        else o = { anyOf: [o, { type: 'null' }] };
      } else delete o.nullable;
    }
    for (const k of ['$schema', '$id']) delete o[k];
    if (o.additionalProperties === true || (isObject(o.additionalProperties) && Object.keys(o.additionalProperties).length === 0)) delete o.additionalProperties;
    if (isObject(o.items) && Object.keys(o.items).length === 0) delete o.items;
    if (isObject(o.properties) && Object.keys(o.properties).length === 0) delete o.properties;
    if (Array.isArray(o.required) && o.required.length === 0) delete o.required;
    if (o.const !== undefined && o.type === undefined) {
      const c = o.const;
      o.type = c === null ? 'null' : typeof c === 'number' ? (Number.isInteger(c) ? 'integer' : 'number') : Array.isArray(c) ? 'array' : typeof c;
    }
    if (o.type === undefined && (isObject(o.properties) || Array.isArray(o.required))) o.type = 'object';
    // Items name an array as properties name an object.
    if (o.type === undefined && isObject(o.items)) o.type = 'array';
    // Null is the one value of the null type.
    if (o.const === null && o.type === 'null') delete o.const;
    // An enum names its values: a type they all have says nothing more.
    // (A type with null is read below as anyOf [type, null] first.)
    if (Array.isArray(o.enum) && o.enum.length > 0 && o.type !== undefined && !(Array.isArray(o.type) && o.type.includes('null'))) {
      const types = Array.isArray(o.type) ? o.type : [o.type];
      if (o.enum.every((v) => types.some((t) => hasType(v, t)))) delete o.type;
    }
    // Several types and nothing else: the union of one schema per type.
    if (Array.isArray(o.type) && o.type.filter((t) => t !== 'null').length > 1 && Object.keys(o).every((k) => k === 'type' || DOC_KEYWORDS.has(k) || k === 'default' || k === 'deprecated')) {
      const { type, ...docs } = o;
      o = { ...docs, anyOf: (type as Json[]).map((t) => ({ type: t })) };
    }
    // A type beside oneOf/anyOf applies to each branch: written into the branches, it is said once.
    for (const kw of ['oneOf', 'anyOf'] as const) {
      const list = o[kw];
      if (typeof o.type !== 'string' || o.type === 'null' || !Array.isArray(list)) continue;
      const type = o.type;
      const fits = (b: Json): boolean => {
        if (!isObject(b)) return false;
        if (typeof b.$ref !== 'string') return true;
        const t = deref(root, b)?.type;
        return t === type || (t === 'integer' && type === 'number');
      };
      if (!list.every(fits)) continue;
      o[kw] = list.map((b) => (isObject(b) && typeof b.$ref !== 'string' && b.type === undefined ? { ...b, type } : b));
      delete o.type;
    }
    // [t, 'null'] → anyOf of t and null; a union with a null branch is nullable whichever keyword.
    if (Array.isArray(o.type) && o.type.includes('null') && o.type.length === 2) {
      const t = o.type.find((x) => x !== 'null') as Json;
      const { type: _t, ...rest } = o;
      const ann = pick(rest, DOC_KEYWORDS, true);
      const inner = pick(rest, DOC_KEYWORDS, false);
      if (Array.isArray(inner.enum)) inner.enum = inner.enum.filter((x) => x !== null);
      o = { ...ann, anyOf: [{ ...inner, type: t }, { type: 'null' }] };
    }
    for (const kw of ['oneOf', 'anyOf'] as const) {
      const list = o[kw];
      if (Array.isArray(list) && list.length === 2 && list.some((b) => isObject(b) && b.type === 'null' && Object.keys(b).length === 1)) {
        delete o[kw];
        o.anyOf = list;
      }
      if (Array.isArray(o[kw]) && (o[kw] as Json[]).length === 1 && Object.keys(o).filter((k) => !DOC_KEYWORDS.has(k) && k !== 'discriminator').length === 1) {
        const only = (o[kw] as Json[])[0] as Json;
        const ann = pick(o, DOC_KEYWORDS, true);
        return { ...this.norm(only, root, v30, pairs), ...ann };
      }
    }
    if (Array.isArray(o.allOf)) o = this.mergeAllOf(o, root, v30);
    // anyOf [X, null]: X's annotations belong to the whole (nullable(x.withDescription(…)) and
    // nullable(x).withDescription(…) say the same).
    if (Array.isArray(o.anyOf) && o.anyOf.length === 2) {
      const [first, second] = o.anyOf as [Json, Json];
      if (isObject(first) && first.$ref !== undefined && !v30 && isObject(second) && second.type === 'null') {
        // 3.1: annotations beside a $ref belong to the whole too.
        const inner: JsonObject = { ...first };
        for (const k of HOISTED) if (inner[k] !== undefined && o[k] === undefined) {
          o[k] = inner[k] as Json;
          delete inner[k];
        }
        o.anyOf = [inner, second];
      } else if (isObject(first) && first.$ref === undefined && isObject(second) && second.type === 'null') {
        const inner: JsonObject = { ...first };
        for (const k of HOISTED) if (inner[k] !== undefined && o[k] === undefined) {
          o[k] = inner[k] as Json;
          delete inner[k];
        }
        if (inner.example !== undefined && v30 && o.examples === undefined) {
          o.examples = [inner.example];
          delete inner.example;
        }
        o.anyOf = [inner, second];
      }
    }
    // anyOf [anyOf [A, B], C] is anyOf [A, B, C].
    if (Array.isArray(o.anyOf) && o.anyOf.some((b) => isObject(b) && Array.isArray(b.anyOf) && Object.keys(b).length === 1)) {
      o.anyOf = o.anyOf.flatMap((b) => (isObject(b) && Array.isArray(b.anyOf) && Object.keys(b).length === 1 ? b.anyOf : [b]));
    }
    return o;
  }

  private mergeAllOf(o: JsonObject, root: JsonObject, v30: boolean): JsonObject {
    const { allOf, ...rest } = o;
    // The schema's own keywords first: its annotations win over its parts' (which apply to
    // the whole too, JSON Schema collecting them from every subschema: the first part's).
    const parts = [rest, ...(allOf as Json[])];
    const merged: JsonObject = {};
    for (const p of parts) {
      const n = this.norm(p, root, v30, {});
      for (const [k, v] of Object.entries(n)) {
        if (k === 'discriminator' || k === 'xml' || k === 'externalDocs' || k.startsWith('x-')) {
          if (p === rest) merged[k] = v;
          continue;
        }
        const cur = merged[k];
        if (cur === undefined) merged[k] = v;
        else if (k === 'properties' && isObject(cur) && isObject(v)) {
          // A property of several parts is all of its schemas.
          const props: JsonObject = { ...cur };
          for (const [pk, pv] of Object.entries(v)) props[pk] = props[pk] === undefined || JSON.stringify(props[pk]) === JSON.stringify(pv) ? pv : { allOf: [props[pk] as Json, pv] };
          merged[k] = props;
        } else if (k === 'required' && Array.isArray(cur) && Array.isArray(v)) merged[k] = [...new Set([...cur, ...v])];
      }
    }
    if (merged.type === undefined && (merged.properties !== undefined || merged.required !== undefined)) merged.type = 'object';
    return merged;
  }

  compare(at: string, x: Json | undefined, y: Json | undefined, seen: Set<string>): void {
    if (this.options.componentsByName === true && at.includes('/', 'components/schemas/'.length) && isObject(x) && isObject(y) && typeof x.$ref === 'string' && x.$ref === y.$ref && x.$ref.startsWith('#/components/schemas/')) return;
    const px: { ref?: string } = {};
    const py: { ref?: string } = {};
    const a = this.norm(x, this.d.e, this.d.e30, px);
    const b = this.norm(y, this.d.a, this.d.a30, py);
    if (px.ref !== undefined && py.ref !== undefined) {
      const key = `${px.ref}|${py.ref}`;
      if (seen.has(key)) return; // a recursion already being compared
      const known = this.d.comparedRefs.get(key);
      if (known !== undefined) {
        for (const d of known) this.d.add(at + d.pointer, d.kind, d.message, d.expected, d.actual);
        return;
      }
      const start = this.d.out.length;
      this.keywords(at, a, b, new Set(seen).add(key));
      this.d.comparedRefs.set(key, this.d.out.slice(start).map((d) => ({ ...d, pointer: d.pointer.slice(at.length) })));
      return;
    }
    this.keywords(at, a, b, seen);
  }

  /** Compares two schemas in canonical form, keyword by keyword. */
  private keywords(at: string, a: JsonObject, b: JsonObject, seen: Set<string>): void {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const va = a[k];
      const vb = b[k];
      const kat = `${at}/${escapeToken(k)}`;
      if (DOC_KEYWORDS.has(k)) {
        if (this.options.ignoreDocs !== true && JSON.stringify(va ?? null) !== JSON.stringify(vb ?? null)) this.d.add(kat, 'schema-doc', `${k} differs`, va, vb);
        continue;
      }
      if (this.options.strict !== true) {
        // An integer: by its type, or by an enum of integers (whose type the canonical form drops).
        const integer = a.type === 'integer' || (Array.isArray(a.enum) && a.enum.length > 0 && a.enum.every((v) => Number.isInteger(v)));
        if (k === 'format' && va === undefined && vb === 'double-int' && integer) continue;
        if (k === 'maxLength' && va === undefined && vb === 254 && a.format === 'email') continue;
      }
      if (va === undefined || vb === undefined) {
        this.d.add(kat, 'schema', va === undefined ? `${k} is added` : `${k} is missing`, va, vb);
        continue;
      }
      if (SUBSCHEMA_MAPS.has(k) && isObject(va) && isObject(vb)) {
        for (const p of new Set([...Object.keys(va), ...Object.keys(vb)])) {
          if (va[p] === undefined || vb[p] === undefined) this.d.add(`${kat}/${escapeToken(p)}`, 'schema', va[p] === undefined ? `property ${p} is added` : `property ${p} is missing`);
          else this.compare(`${kat}/${escapeToken(p)}`, va[p], vb[p], seen);
        }
        continue;
      }
      if (SUBSCHEMA.has(k) && (isObject(va) || typeof va === 'boolean') && (isObject(vb) || typeof vb === 'boolean')) {
        this.compare(kat, va, vb, seen);
        continue;
      }
      if (SUBSCHEMA_LISTS.has(k) && Array.isArray(va) && Array.isArray(vb)) {
        if (va.length !== vb.length) this.d.add(kat, 'schema', `${k} has ${vb.length} alternatives, not ${va.length}`);
        else va.forEach((s, i) => this.compare(`${kat}/${i}`, s, vb[i], seen));
        continue;
      }
      if ((k === 'required' || k === 'enum' || k === 'type') && Array.isArray(va) && Array.isArray(vb)) {
        const sa = JSON.stringify(va.map((v) => JSON.stringify(v)).sort());
        const sb = JSON.stringify(vb.map((v) => JSON.stringify(v)).sort());
        if (sa !== sb) this.d.add(kat, 'schema', `${k} differs`, va, vb);
        continue;
      }
      if (k === 'pattern' && typeof va === 'string' && typeof vb === 'string') {
        if (source(va) !== source(vb)) this.d.add(kat, 'schema', 'pattern differs', va, vb);
        continue;
      }
      if (k === 'discriminator' && isObject(va) && isObject(vb)) {
        const canon = (d: JsonObject): string => JSON.stringify({ p: d.propertyName, m: Object.entries(isObject(d.mapping) ? d.mapping : {}).map(([t, r]) => [t, String(r).replace(/^#\/components\/schemas\//, '')]).sort() });
        if (canon(va) !== canon(vb)) this.d.add(kat, 'schema', 'discriminator differs', va, vb);
        continue;
      }
      if (JSON.stringify(sortKeys(va)) !== JSON.stringify(sortKeys(vb))) this.d.add(kat, 'schema', `${k} differs`, va, vb);
    }
  }
}

/** True when `v` is of the JSON Schema type `t`. */
function hasType(v: Json, t: Json): boolean {
  switch (t) {
    case 'null': return v === null;
    case 'boolean': return typeof v === 'boolean';
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number';
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'array': return Array.isArray(v);
    case 'object': return isObject(v);
    default: return false;
  }
}

function pick(o: JsonObject, keys: ReadonlySet<string>, inside: boolean): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (keys.has(k) === inside) out[k] = v;
  return out;
}

function source(p: string): string {
  try {
    return new RegExp(p, 'u').source;
  } catch {
    return p;
  }
}
