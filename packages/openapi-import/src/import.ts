import { escapeToken, isObject, parseDocument, resolvePointer, type Json, type JsonObject } from './load.js';
import { camel, isIdentifier, propertyKey, toIdentifier, unique } from './names.js';
import { SchemaEmitter, typedRest, unnamed, type Refusal } from './schema.js';

/** Options of {@link importDocument}. */
export interface ImportOptions {
  /**
   * The module specifiers the generated code imports `@lib/codec`, `@lib/validate`,
   * `@lib/format` and `@lib/rest` from. Default: those package names.
   */
  readonly imports?: { readonly codec?: string; readonly validate?: string; readonly format?: string; readonly rest?: string };
  /** A line naming the document in the module's header comment (a file name). */
  readonly sourceName?: string;
}

/** What {@link importDocument} gives: the module's source and what it could not express. */
export interface ImportResult {
  /** The generated TypeScript module. */
  readonly source: string;
  /**
   * What the module does not express as the document says it, each at its place in the
   * document, also left as a comment at its place in the code. `kind` names the sort of
   * refusal (`format-unchecked`, `query-style`, `generated-name`…).
   */
  readonly refused: Refusal[];
}

export type { Refusal } from './schema.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const BODY_METHODS = new Set(['post', 'put', 'patch']);
/** A JSON media type: `application/json`, or one with a `+json` structured syntax suffix (RFC 6839 §3.1). */
const JSON_MEDIA_TYPE = /^application\/(?:[^/;\s]+\+)?json$/i;
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * Turns an OpenAPI 3.0.x or 3.1.x document into a TypeScript module of `@lib` declarations:
 * each component schema as a named codec exported under its name (made an identifier where it
 * is not one), `routes` — every operation as a `rest.route({...})`, by `operationId` (a name is
 * made up from the method and path where there is none, and reported) — `securitySchemes`,
 * `tags`, `info`, and `register(api)`, which adds the schemes and tags to a server.
 *
 * `document` is the text (YAML or JSON) or the parsed object. References must point inside it:
 * `loadDocument(file)` brings those to other local files in first.
 *
 * Nothing is left out silently: what `@lib` cannot express is listed in `refused` and commented
 * at its place in the code.
 * @throws {TypeError} when the document is not OpenAPI 3.0 or 3.1.
 */
export function importDocument(document: string | object, options: ImportOptions = {}): ImportResult {
  const doc = typeof document === 'string' ? parseDocument(document) : (structuredClone(document) as JsonObject);
  const version = typeof doc.openapi === 'string' ? doc.openapi : '';
  if (!/^3\.[01]\./.test(version)) throw new TypeError(`expected an OpenAPI 3.0 or 3.1 document, got ${typeof doc.swagger === 'string' ? `Swagger ${doc.swagger}` : JSON.stringify(version || 'no openapi field')}`);
  const refused: Refusal[] = [];
  const em = new SchemaEmitter(doc, refused, version.startsWith('3.0'));
  const out: string[] = [];
  const taken = new Set<string>();

  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const names = Object.keys(schemas);
  for (const n of names) em.idents.set(n, unique(toIdentifier(n), taken));

  // Components in dependency order: strongly connected components of their references.
  const order = sccOrder(names, (n) => refsOf(schemas[n] as Json, em));
  order.forEach((group, i) => group.forEach((n) => em.scc.set(n, i)));

  const im = options.imports ?? {};
  const body: string[] = [];
  body.push('// ---- component schemas ----');
  for (const group of order) {
    for (const n of group) {
      em.current = n;
      const id = em.idents.get(n) as string;
      const ptr = `#/components/schemas/${escapeToken(n)}`;
      const expr = em.emit(schemas[n], ptr);
      const note = id !== n ? `/** \`components.schemas[${JSON.stringify(n)}]\` */\n` : '';
      body.push(`${note}export const ${id} = ${expr}.withName(${JSON.stringify(n)});`);
      em.defined.add(n);
    }
  }
  em.current = undefined;

  // ---- security schemes ----
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const schemeLines: string[] = [];
  for (const [name, raw] of Object.entries(schemes)) {
    const ptr = `#/components/securitySchemes/${escapeToken(name)}`;
    const s = resolveRef(doc, raw);
    if (s === undefined) {
      schemeLines.push(`  // ${em.refuse(ptr, 'security-scheme', 'the scheme points at nothing')}`);
      continue;
    }
    let expr: string | undefined;
    if (s.type === 'http' && typeof s.scheme === 'string' && s.scheme.toLowerCase() === 'bearer') expr = `rest.bearerScheme(${typeof s.bearerFormat === 'string' ? JSON.stringify(s.bearerFormat) : ''})`;
    else if (s.type === 'http' && typeof s.scheme === 'string' && s.scheme.toLowerCase() === 'basic') expr = 'rest.basicScheme()';
    else if (s.type === 'apiKey' && typeof s.name === 'string' && (s.in === 'header' || s.in === 'query' || s.in === 'cookie')) expr = `rest.apiKeyScheme(${JSON.stringify(s.name)}, ${JSON.stringify(s.in)})`;
    else if (s.type === 'oauth2' && isObject(s.flows)) expr = `rest.oauth2Scheme(${JSON.stringify(s.flows)})`;
    else if (s.type === 'openIdConnect' && typeof s.openIdConnectUrl === 'string') expr = `rest.openIdConnectScheme(${JSON.stringify(s.openIdConnectUrl)})`;
    if (expr === undefined) {
      schemeLines.push(`  // ${em.refuse(ptr, 'security-scheme', `a ${JSON.stringify(s.type)}${typeof s.scheme === 'string' ? ` ${s.scheme}` : ''} scheme: @lib has bearer, basic, apiKey, oauth2 and openIdConnect schemes`)}`);
      continue;
    }
    if (typeof s.description === 'string') expr += `.withDescription(${JSON.stringify(s.description)})`;
    schemeLines.push(`  ${propertyKey(name)}: ${expr},`);
  }
  const registeredSchemes = new Set(schemeLines.filter((l) => !l.trimStart().startsWith('//')).map((l) => Object.keys(schemes).find((k) => l.startsWith(`  ${propertyKey(k)}:`))));

  // ---- operations ----
  const routeLines: string[] = [];
  const opIds = new Set<string>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  const globalSecurity = Array.isArray(doc.security) ? doc.security : undefined;
  let needsErrors = false;
  let usesFormat = false;
  const shapes = new Map<string, string>(); // path with its variables blanked → the first such path
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolveRef(doc, rawItem);
    const shape = path.replace(/\{[^}]*\}/g, '{}');
    const first = shapes.get(shape);
    if (first === undefined) shapes.set(shape, path);
    else if (first !== path) {
      routeLines.push(`  // ${em.refuse(`#/paths/${escapeToken(path)}`, 'path-template', `the path is ${first} with other variable names: one OpenAPI path has one set of names in @lib; its operations are left out`)}`);
      continue;
    }
    const itemPtr = `#/paths/${escapeToken(path)}`;
    if (item === undefined) continue;
    for (const k of Object.keys(item)) {
      if (!(METHODS as readonly string[]).includes(k) && !['parameters', 'summary', 'description', 'servers', '$ref'].includes(k) && !k.startsWith('x-')) em.refuse(`${itemPtr}/${escapeToken(k)}`, 'path-item', `${JSON.stringify(k)} of a path item has no place in a @lib route; left out`);
      if (k === 'servers' || k === 'summary' || k === 'description') em.refuse(`${itemPtr}/${k}`, 'path-item', `a path item's ${k} has no place in @lib (routes carry their own); left out`);
    }
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const ptr = `${itemPtr}/${method}`;
      const vars = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
      const partial = path.split('/').find((seg) => seg.includes('{') && !/^\{[^{}]*\}$/.test(seg));
      if (partial !== undefined) {
        routeLines.push(`  // ${em.refuse(ptr, 'path-template', `the segment ${JSON.stringify(partial)} holds a variable beside other text: @lib path variables fill a whole segment; the operation is left out`)}`);
        continue;
      }
      const bad = vars.find((v) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v ?? ''));
      if (bad !== undefined) {
        routeLines.push(`  // ${em.refuse(ptr, 'path-template', `the path variable {${bad}} is not an identifier: @lib path templates name variables [A-Za-z_][A-Za-z0-9_]*; the operation is left out`)}`);
        continue;
      }
      if (new Set(vars).size < vars.length) {
        routeLines.push(`  // ${em.refuse(ptr, 'path-template', `the path repeats a variable: @lib path templates name each variable once; the operation is left out`)}`);
        continue;
      }
      const gen = new RouteWriter(em, doc, path, method, op, ptr, item, globalSecurity, registeredSchemes);
      const code = gen.write();
      needsErrors ||= gen.usesErrors;
      usesFormat ||= gen.usesFormat;
      let id = typeof op.operationId === 'string' ? op.operationId : undefined;
      if (id === undefined) {
        id = unique(camel(`${method} ${path.replace(/[{}]/g, ' ')}`), opIds);
        em.refuse(ptr, 'generated-name', `no operationId: the route is routes.${id} (the document keeps none)`);
      } else if (opIds.has(id)) {
        const again = unique(id, opIds);
        em.refuse(`${ptr}/operationId`, 'operation-id', `operationId ${JSON.stringify(id)} is taken: this one is routes[${JSON.stringify(again)}]`);
        id = again;
      } else opIds.add(id);
      routeLines.push(`  ${propertyKey(id)}: ${code},`);
    }
  }
  for (const k of Object.keys(doc)) {
    if (k === 'webhooks' && isObject(doc.webhooks) && Object.keys(doc.webhooks).length > 0) em.refuse('#/webhooks', 'webhooks', '@lib serves routes, not webhooks: they are left out');
    if (k === 'servers') em.refuse('#/servers', 'servers', 'servers are the deployment\'s: add them with api.addServer(...) (left out)');
  }
  for (const k of Object.keys(components)) {
    if (!['schemas', 'securitySchemes', 'parameters', 'responses', 'requestBodies', 'headers', 'examples'].includes(k) && !k.startsWith('x-')) em.refuse(`#/components/${escapeToken(k)}`, 'components', `components.${k} are not carried over (only what operations use)`);
  }

  // ---- the module ----
  const info = isObject(doc.info) ? doc.info : {};
  out.push(`// Generated by @lib/openapi-import from ${options.sourceName ?? 'an OpenAPI document'}${typeof info.title === 'string' ? ` (${info.title.replace(/[\r\n]+/g, ' ')}${typeof info.version === 'string' ? ` ${info.version}` : ''})` : ''}, OpenAPI ${version}.`);
  out.push('// Edit the document and generate again, or edit this module and check it against the document with `openapi-import diff`.');
  out.push(`// ${refused.length} refusal(s): each is commented where it applies (search for "refused").`);
  out.push('/* eslint-disable */');
  out.push(`import * as codec from ${JSON.stringify(im.codec ?? '@lib/codec')};`);
  out.push(`import * as validate from ${JSON.stringify(im.validate ?? '@lib/validate')};`);
  if (usesFormat) out.push(`import * as format from ${JSON.stringify(im.format ?? '@lib/format')};`);
  out.push(`import * as rest from ${JSON.stringify(im.rest ?? '@lib/rest')};`);
  out.push('');
  out.push(...helperSource(em.helpers, needsErrors));
  out.push(...body);
  out.push('');
  out.push('// ---- security schemes: register them on a server with register(api) ----');
  out.push('export const securitySchemes: { readonly [name: string]: rest.SecurityScheme<string> } = {');
  out.push(...schemeLines);
  out.push('};');
  out.push('');
  const infoFields: JsonObject = { title: typeof info.title === 'string' ? info.title : 'API', version: typeof info.version === 'string' ? info.version : '0.0.0' };
  for (const k of ['summary', 'description', 'termsOfService']) if (typeof info[k] === 'string') infoFields[k] = info[k] as string;
  if (isObject(info.contact)) infoFields.contact = info.contact;
  if (isObject(info.license) && typeof info.license.name === 'string') infoFields.license = info.license;
  out.push('/** The document\'s `info`: `rest.newServer(info)`. */');
  out.push(`export const info = ${JSON.stringify(infoFields)} as const;`);
  const tags = Array.isArray(doc.tags) ? doc.tags.filter(isObject) : [];
  out.push('/** The document\'s tags, in its order. */');
  out.push(`export const tags: readonly { readonly name: string; readonly description?: string; readonly externalDocs?: { readonly url: string; readonly description?: string } }[] = ${JSON.stringify(tags.map((t) => ({ name: t.name, ...(typeof t.description === 'string' && { description: t.description }), ...(isObject(t.externalDocs) && { externalDocs: t.externalDocs }) })))};`);
  out.push('');
  out.push('/** Adds the security schemes and tags of the document to a server. */');
  out.push('export function register(api: rest.Server): rest.Server {');
  out.push('  for (const [name, scheme] of Object.entries(securitySchemes)) api.addSecurityScheme(name, scheme);');
  out.push('  for (const { name, ...doc } of tags) api.addTag(name, doc);');
  out.push('  return api;');
  out.push('}');
  out.push('');
  out.push('// ---- operations, by operationId ----');
  out.push('export const routes = {');
  out.push(...routeLines);
  out.push('};');
  out.push('');
  return { source: out.join('\n'), refused };
}

function helperSource(helpers: ReadonlySet<string>, errors: boolean): string[] {
  const out: string[] = [];
  if (helpers.has('annotate')) {
    out.push('/** Keywords that only annotate (readOnly, formats @lib does not check, x-…): added to the schema, checking nothing. */');
    out.push('function annotate<T>(keywords: codec.JsonSchema): codec.Constraint<T> {');
    out.push("  return validate.constraint<T>({ name: 'annotation', test: () => true, message: 'is valid', schema: (s) => ({ ...s, ...keywords }) });");
    out.push('}');
  }
  if (helpers.has('exclusiveMinimum')) {
    out.push('function exclusiveMinimum(n: number): codec.Constraint<number> {');
    out.push("  return validate.constraint<number>({ name: 'exclusiveMinimum', test: (v) => v > n, message: `must be more than ${n}`, schema: (s) => ({ ...s, exclusiveMinimum: n }) });");
    out.push('}');
  }
  if (helpers.has('exclusiveMaximum')) {
    out.push('function exclusiveMaximum(n: number): codec.Constraint<number> {');
    out.push("  return validate.constraint<number>({ name: 'exclusiveMaximum', test: (v) => v < n, message: `must be less than ${n}`, schema: (s) => ({ ...s, exclusiveMaximum: n }) });");
    out.push('}');
  }
  if (helpers.has('alsoMatches')) {
    out.push('/** Keywords beside a union (`properties`, `required`): every value also matches `object`; the schema states them. */');
    out.push('function alsoMatches(object: codec.Codec<any>, keywords: Readonly<Record<string, unknown>>): codec.Constraint<any> {');
    out.push("  return validate.constraint<any>({ name: 'properties', test: (v) => { try { object.validate(v); return true; } catch { return false; } }, message: 'must match the properties beside its alternatives', schema: (s) => ({ ...s, ...keywords }) });");
    out.push('}');
  }
  if (helpers.has('requiredSets')) {
    out.push('/** `oneOf` (exactly one) or `anyOf` (one or more) of sets of properties an object must have: `{ required: [...] }` each. */');
    out.push("function requiredSets(kw: 'oneOf' | 'anyOf', sets: readonly { readonly required: readonly string[]; readonly title?: string; readonly description?: string }[]): codec.Constraint<any> {");
    out.push('  const count = (v: Record<string, unknown>): number => sets.filter((set) => set.required.every((k) => v[k] !== undefined)).length;');
    out.push("  const message = `must have ${kw === 'oneOf' ? 'exactly one' : 'one or more'} of the property sets ${sets.map((set) => set.required.join(' + ')).join(', ')}`;");
    out.push("  return validate.constraint<any>({ name: kw, test: (v) => (kw === 'oneOf' ? count(v) === 1 : count(v) > 0), message, schema: (s) => ({ ...s, [kw]: sets }) });");
    out.push('}');
  }
  if (helpers.has('multipleOf')) {
    out.push('function multipleOf(n: number): codec.Constraint<number> {');
    out.push("  return validate.constraint<number>({ name: 'multipleOf', test: (v) => Number.isInteger(v / n), message: `must be a multiple of ${n}`, schema: (s) => ({ ...s, multipleOf: n }) });");
    out.push('}');
  }
  if (helpers.has('exactlyOne')) {
    out.push('/** `oneOf`: the union, with a check that exactly one alternative takes the value. */');
    out.push('function exactlyOne<C extends codec.UntaggedUnionCodec<readonly codec.Codec<unknown>[]>>(union: C): C {');
    out.push('  const matches = (v: unknown): number => union.codecs.filter((c) => { try { c.validate(v); return true; } catch { return false; } }).length;');
    out.push("  return union.refine(validate.constraint<any>({ name: 'oneOf', test: (v) => matches(v) === 1, message: 'must match exactly one alternative', schema: ({ anyOf, ...s }) => (anyOf === undefined ? s : { ...s, oneOf: anyOf }) }));");
    out.push('}');
  }
  if (errors) {
    out.push('/** Thrown by a handler to answer a status the document declares, with its body. */');
    out.push('export class ResponseError<S extends number | string = number | string> extends Error {');
    out.push('  readonly status: S;');
    out.push('  readonly body: unknown;');
    out.push('  /** The media type to answer in, where the status has a body per media type; `undefined`: the first. */');
    out.push('  readonly mediaType: string | undefined;');
    out.push('  /** The response headers the status declares, by field. */');
    out.push('  readonly headers: Readonly<Record<string, unknown>> | undefined;');
    out.push('  constructor(status: S, body?: unknown, mediaType?: string, headers?: Readonly<Record<string, unknown>>) {');
    out.push('    super(`HTTP ${status}`);');
    out.push("    this.name = 'ResponseError';");
    out.push('    this.status = status;');
    out.push('    this.body = body;');
    out.push('    this.mediaType = mediaType;');
    out.push('    this.headers = headers;');
    out.push('  }');
    out.push('}');
    out.push('/** Matches a ResponseError of `status` (and, given `mediaTypes`, of one of them). */');
    out.push('function errorOf<S extends number | string>(status: S, mediaTypes?: readonly string[]): (e: unknown) => e is ResponseError<S> {');
    out.push('  return (e: unknown): e is ResponseError<S> => e instanceof ResponseError && e.status === status && (mediaTypes === undefined || (e.mediaType !== undefined && mediaTypes.includes(e.mediaType)));');
    out.push('}');
  }
  if (out.length > 0) out.push('');
  return out;
}

const opIdCache = new WeakMap<JsonObject, Set<string>>();
/** The operationIds of a document's operations. */
function operationIds(doc: JsonObject): Set<string> {
  let ids = opIdCache.get(doc);
  if (ids === undefined) {
    ids = new Set();
    for (const raw of Object.values(isObject(doc.paths) ? doc.paths : {})) {
      const item = resolveRef(doc, raw);
      for (const m of METHODS) {
        const op = item?.[m];
        if (isObject(op) && typeof op.operationId === 'string') ids.add(op.operationId);
      }
    }
    opIdCache.set(doc, ids);
  }
  return ids;
}

function resolveRef(doc: JsonObject, v: Json | undefined): JsonObject | undefined {
  let cur = v;
  for (let i = 0; i < 32 && isObject(cur) && typeof cur.$ref === 'string'; i++) cur = cur.$ref.startsWith('#') ? resolvePointer(doc, cur.$ref) : undefined;
  return isObject(cur) ? cur : undefined;
}

/** The component schemas `schema` refers to. */
function refsOf(schema: Json, em: SchemaEmitter): string[] {
  const out = new Set<string>();
  const seen = new Set<string>();
  const walk = (v: Json): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObject(v)) return;
    if (typeof v.$ref === 'string') {
      const n = em.componentOf(v.$ref);
      if (n !== undefined) out.add(n);
      else if (v.$ref.startsWith('#') && !seen.has(v.$ref)) {
        seen.add(v.$ref);
        const t = resolvePointer(em.root, v.$ref);
        if (t !== undefined) walk(t);
      }
    }
    for (const k of Object.keys(v)) if (k !== '$ref') walk(v[k] as Json);
  };
  walk(schema);
  return [...out];
}

/** Tarjan's strongly connected components, dependencies first. */
function sccOrder(nodes: readonly string[], edges: (n: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let i = 0;
  const adj = new Map(nodes.map((n) => [n, edges(n)]));
  // Iterative, so that long chains of references do not overflow the stack.
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: [string, number][] = [[start, 0]];
    index.set(start, i);
    low.set(start, i++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1] as [string, number];
      const [v, ei] = top;
      const vs = adj.get(v) ?? [];
      if (ei < vs.length) {
        top[1]++;
        const w = vs[ei] as string;
        if (!index.has(w)) {
          index.set(w, i);
          low.set(w, i++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = (work[work.length - 1] as [string, number])[0];
        low.set(parent, Math.min(low.get(parent) as number, low.get(v) as number));
      }
      if (low.get(v) === index.get(v)) {
        const group: string[] = [];
        let w: string;
        do {
          w = stack.pop() as string;
          onStack.delete(w);
          group.push(w);
        } while (w !== v);
        out.push(group.reverse());
      }
    }
  }
  return out;
}

type ParamIn = 'path' | 'query' | 'header' | 'cookie';

/** Writes one operation as a `rest.route({...})` expression. */
class RouteWriter {
  usesErrors = false;
  usesFormat = false;
  private readonly fields = new Set<string>();

  constructor(
    private readonly em: SchemaEmitter,
    private readonly doc: JsonObject,
    private readonly path: string,
    private readonly method: string,
    private readonly op: JsonObject,
    private readonly ptr: string,
    private readonly item: JsonObject,
    private readonly globalSecurity: Json[] | undefined,
    private readonly schemes: ReadonlySet<string | undefined>,
  ) {}

  private refuse(ptr: string, kind: string, reason: string): string {
    return this.em.refuse(ptr, kind, reason);
  }

  write(): string {
    const parts: string[] = [`method: ${JSON.stringify(this.method.toUpperCase())}`, `path: ${JSON.stringify(this.path)}`];
    const notes: string[] = [];
    for (const k of Object.keys(this.op)) {
      if (['callbacks', 'servers'].includes(k)) notes.push(this.refuse(`${this.ptr}/${k}`, k, `an operation's ${k} have no place in a @lib route; left out`));
    }

    // The body first: its fields sit beside the parameters, which take other names.
    const bodyParts = this.requestBody(notes);
    const params = this.parameters(notes);
    for (const where of ['pathParams', 'query', 'headers', 'cookies'] as const) {
      const entries = params[where];
      if (entries.length > 0) parts.push(`${where}: { ${entries.join(', ')} }`);
    }
    parts.push(...bodyParts);
    parts.push(...this.responses(notes));

    const meta: string[] = [];
    if (typeof this.op.operationId === 'string') meta.push(`operationId: ${JSON.stringify(this.op.operationId)}`);
    if (typeof this.op.summary === 'string') meta.push(`summary: ${JSON.stringify(this.op.summary)}`);
    if (typeof this.op.description === 'string') meta.push(`description: ${JSON.stringify(this.op.description)}`);
    if (Array.isArray(this.op.tags) && this.op.tags.length > 0) meta.push(`tags: ${JSON.stringify(this.op.tags)}`);
    if (this.op.deprecated === true) meta.push('deprecated: true');
    if (isObject(this.op.externalDocs) && typeof this.op.externalDocs.url === 'string') meta.push(`externalDocs: ${JSON.stringify(this.op.externalDocs)}`);
    meta.push(...this.metaExtra);
    if (meta.length > 0) parts.push(`meta: { ${meta.join(', ')} }`);

    const security = Array.isArray(this.op.security) ? this.op.security : this.globalSecurity;
    if (security !== undefined) {
      const reqs: string[] = [];
      security.forEach((r, i) => {
        if (!isObject(r)) return;
        const missing = Object.keys(r).filter((n) => !this.schemes.has(n));
        if (missing.length > 0) {
          notes.push(this.refuse(Array.isArray(this.op.security) ? `${this.ptr}/security/${i}` : `#/security/${i}`, 'security', `the requirement names ${missing.map((m) => JSON.stringify(m)).join(', ')}, which is not a scheme @lib registers; the requirement is left out`));
          return;
        }
        reqs.push(JSON.stringify(r));
      });
      if (reqs.length > 0 || security.length === 0) parts.push(`security: [${reqs.join(', ')}]`);
    }
    const tail = notes.length > 0 ? `\n    ${notes.join('\n    ')}\n  ` : '';
    return `rest.route({\n    ${parts.join(',\n    ')},${tail}\n  })`;
  }

  private readonly metaExtra: string[] = [];

  /** The operation's parameters (path item's first, the operation's replacing them by name and place). */
  private parameters(notes: string[]): Record<'pathParams' | 'query' | 'headers' | 'cookies', string[]> {
    const byKey = new Map<string, [JsonObject, string]>();
    const add = (list: Json | undefined, base: string): void => {
      if (!Array.isArray(list)) return;
      list.forEach((raw, i) => {
        const p = resolveRef(this.doc, raw);
        if (p === undefined || typeof p.name !== 'string' || typeof p.in !== 'string') {
          notes.push(this.refuse(`${base}/parameters/${i}`, 'parameter', 'a parameter without name or in, or pointing at nothing; left out'));
          return;
        }
        byKey.set(`${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`, [p, `${base}/parameters/${i}`]);
      });
    };
    add(this.item.parameters, `#/paths/${escapeToken(this.path)}`);
    add(this.op.parameters, this.ptr);
    const out: Record<'pathParams' | 'query' | 'headers' | 'cookies', string[]> = { pathParams: [], query: [], headers: [], cookies: [] };
    const vars = [...this.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    const declaredPath = new Set<string>();
    for (const [p, ptr] of byKey.values()) {
      const where = p.in as ParamIn;
      const name = p.name as string;
      if (!['path', 'query', 'header', 'cookie'].includes(where)) {
        notes.push(this.refuse(ptr, 'parameter', `a parameter in ${JSON.stringify(where)}: not an OpenAPI location`));
        continue;
      }
      if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) {
        notes.push(this.refuse(ptr, 'header-ignored', `a header parameter named ${name}: OpenAPI ignores it, and @lib describes it by formats and security schemes`));
        continue;
      }
      if (where === 'path' && !vars.includes(name)) {
        notes.push(this.refuse(ptr, 'parameter', `path parameter ${JSON.stringify(name)} is not a variable of the path; left out`));
        continue;
      }
      let c: string;
      let style: string | undefined;
      if (p.content !== undefined || p.schema === undefined) {
        c = `codec.string() ${this.refuse(ptr, 'param-content', 'a parameter described by content (or without schema): @lib parameters are text read by a codec; read as a string')}`;
      } else {
        const schema = this.em.deref(p.schema as Json) ?? {};
        ({ codec: c, style } = this.paramCodec(p, schema, ptr, notes));
      }
      // A parameter in a style of its own: rest.styled (OpenAPI 3.1 §4.8.12.4).
      const styledOf = (v: string): string => (style === undefined ? v : `rest.styled(${v}, ${style})`);
      const checks: string[] = [];
      if (p.deprecated === true && where === 'path') checks.push(this.refuse(`${ptr}/deprecated`, 'param-doc', '@lib path parameters cannot be marked deprecated; left out'));
      if (p.example !== undefined || p.examples !== undefined) checks.push(this.refuse(ptr, 'param-doc', '@lib parameters carry no examples of their own (their schema may); left out'));
      if (p.allowEmptyValue === true || p.allowReserved === true) checks.push(this.refuse(ptr, 'param-doc', 'allowEmptyValue and allowReserved have no place in @lib; left out'));
      const note = checks.length > 0 ? ` ${checks.join(' ')}` : '';
      if (where === 'path') {
        declaredPath.add(name);
        // A path parameter is documented by its codec's description (rendered as the parameter's).
        const described = typeof p.description === 'string' ? `${unnamed(c)}.withDescription(${JSON.stringify(p.description)})` : c;
        out.pathParams.push(`${propertyKey(name)}: ${styledOf(described)}${note}`);
        this.fields.add(name);
        continue;
      }
      const required = p.required === true;
      const value = styledOf(required ? c : `codec.optional(${c})`);
      const field = unique(camel(name), this.fields);
      const desc = `${typeof p.description === 'string' ? `.withDescription(${JSON.stringify(p.description)})` : ''}${p.deprecated === true ? '.withDeprecated()' : ''}`;
      const entry = field === name && desc === '' ? value : `rest.named(${JSON.stringify(name)}, ${value})${desc}`;
      out[where === 'query' ? 'query' : where === 'header' ? 'headers' : 'cookies'].push(`${propertyKey(field)}: ${entry}${note}`);
    }
    for (const v of vars) {
      if (!declaredPath.has(v)) {
        out.pathParams.push(`${propertyKey(v)}: codec.string() ${this.refuse(this.ptr, 'path-param-missing', `the path variable {${v}} has no parameter: read as a string (the document will list it)`)}`);
      }
    }
    return out;
  }

  /**
   * The codec of a parameter, and the `rest.styled` options its style needs (OpenAPI 3.1
   * §4.8.12.4): lists and objects in any style @lib reads, scalars in `label` or `matrix`; the
   * location's default (a query list as repeated keys) needs none. What @lib cannot read is
   * refused and read as text.
   */
  private paramCodec(p: JsonObject, schema: JsonObject, ptr: string, notes: string[]): { codec: string; style: string | undefined } {
    const where = p.in as ParamIn;
    const defaultStyle = where === 'query' || where === 'cookie' ? 'form' : 'simple';
    const style = typeof p.style === 'string' ? p.style : defaultStyle;
    const explode = typeof p.explode === 'boolean' ? p.explode : style === 'form';
    const isArray = schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
    const isObj = !isArray && (schema.type === 'object' || (schema.type === undefined && isObject(schema.properties)));
    const text = (reason: string, at = ptr, kind = 'param-style'): { codec: string; style: undefined } => {
      notes.push(this.refuse(at, kind, `${reason}; read as a string`));
      return { codec: 'codec.string()', style: undefined };
    };
    const allowed: Record<ParamIn, string[]> = { path: ['simple', 'label', 'matrix'], query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'], header: ['simple'], cookie: ['form'] };
    if (!allowed[where].includes(style)) return text(`style ${style} for a ${where} parameter is not one OpenAPI gives it`, `${ptr}/style`);
    const options = (): string | undefined => {
      const o: string[] = [];
      if (style !== defaultStyle) o.push(`style: ${JSON.stringify(style)}`);
      if (explode !== (style === 'form')) o.push(`explode: ${explode}`);
      return o.length > 0 ? `{ ${o.join(', ')} }` : '{}';
    };
    if (isArray) {
      const items = this.em.deref((schema.items ?? {}) as Json) ?? {};
      if (items.type === 'array' || items.type === 'object') return text('an array of arrays or objects as a parameter', ptr, 'param-schema');
      if (style === 'deepObject') return text('deepObject on a list: OpenAPI gives it objects only', `${ptr}/style`);
      if ((style === 'spaceDelimited' || style === 'pipeDelimited') && explode) return text(`${style} exploded: the same as form, which OpenAPI does not define`, `${ptr}/explode`);
      if (where === 'cookie' && explode) return text('an exploded cookie list: a cookie cannot repeat its name', `${ptr}/explode`);
      const codec = this.em.emit(p.schema as Json, `${ptr}/schema`, 'param');
      // A query list as repeated keys is the location's default: a plain array codec.
      return { codec, style: where === 'query' && style === 'form' && explode ? undefined : options() };
    }
    if (isObj) {
      if ((style === 'spaceDelimited' || style === 'pipeDelimited') && explode) return text(`${style} exploded: the same as form, which OpenAPI does not define`, `${ptr}/explode`);
      if (where === 'cookie' && explode) return text('an exploded cookie object: a cookie cannot carry its properties as cookies', `${ptr}/explode`);
      if (where === 'query' && style === 'form' && explode && !isObject(schema.properties)) return text('an exploded form object without declared properties (its keys would be any query key)', ptr, 'param-schema');
      if (this.em.nestedValues(schema)) return text('an object parameter with nested objects, lists or unions: a parameter style carries texts only', ptr, 'param-schema');
      return { codec: this.em.emit(p.schema as Json, `${ptr}/schema`, 'param'), style: options() };
    }
    if (style === 'deepObject' || style === 'spaceDelimited' || style === 'pipeDelimited') return text(`${style} on a scalar`, `${ptr}/style`);
    // explode on a scalar changes nothing on the wire; written, it is kept for the document.
    return { codec: this.em.emit(p.schema as Json, `${ptr}/schema`, 'param'), style: style === defaultStyle && p.explode === undefined ? undefined : options() };
  }

  /** The body: `body`, and `requestFormats` for media types other than JSON. */
  private requestBody(notes: string[]): string[] {
    const raw = this.op.requestBody;
    if (raw === undefined) return [];
    const ptr = `${this.ptr}/requestBody`;
    if (!BODY_METHODS.has(this.method)) {
      notes.push(this.refuse(ptr, 'body-method', `a ${this.method.toUpperCase()} request body: @lib takes bodies on POST, PUT and PATCH only; left out`));
      return [];
    }
    const rb = resolveRef(this.doc, raw);
    if (rb === undefined || !isObject(rb.content)) {
      notes.push(this.refuse(ptr, 'body', 'a request body without content; left out'));
      return [];
    }
    if (typeof rb.description === 'string') notes.push(this.refuse(`${ptr}/description`, 'body-doc', '@lib request bodies carry no description of their own; left out'));
    const chosen = this.content(rb.content, `${ptr}/content`, notes, 'request');
    if (chosen === undefined) return [];
    // `required` is false unless written (OpenAPI 3.1 §4.8.13.1): a body that may be left out is
    // a codec that admits no value, under the request's `body` field.
    if (rb.required !== true) {
      this.fields.add('body');
      const out = [`body: codec.optional(${chosen.codec})`];
      if (chosen.formats !== undefined) out.push(`requestFormats: [${chosen.formats.join(', ')}]`);
      return out;
    }
    const out = [`body: ${chosen.codec}`];
    if (chosen.formats !== undefined) out.push(`requestFormats: [${chosen.formats.join(', ')}]`);
    // The object body's fields are request fields: parameters take other names.
    const schema = this.em.deref(chosen.schema);
    if (schema !== undefined && typedRest(schema)) this.fields.add('body');
    else if (schema !== undefined && isObject(schema.properties)) for (const k of Object.keys(schema.properties)) this.fields.add(k);
    return out;
  }

  /**
   * The codec and formats of a content map: one schema for every media type @lib has a format
   * for (JSON, binary, form, multipart); other media types, and other schemas, are refused.
   */
  private content(content: JsonObject, ptr: string, notes: string[], side: 'request' | 'response'): { codec: string; formats: string[] | undefined; schema: Json } | undefined {
    let schema: Json | undefined;
    let kind: 'json' | 'binary' | 'form' | 'multipart' | 'text' | 'xml' | undefined;
    const formats: string[] = [];
    let plainJson = true;
    for (const [ct, rawMt] of Object.entries(content)) {
      const mt = isObject(rawMt) ? rawMt : {};
      const mptr = `${ptr}/${escapeToken(ct)}`;
      const lower = ct.toLowerCase();
      const k = /^application\/([\w.+-]*\+)?json(;.*)?$/.test(lower) || lower === 'application/json' ? 'json'
        : lower === 'application/x-www-form-urlencoded' ? 'form'
        : lower === 'multipart/form-data' ? 'multipart'
        : /^(application|text)\/([\w.-]+\+)?xml(;.*)?$/.test(lower) ? 'xml'
        : /^(application\/octet-stream|image\/[\w.+-]+|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf|application\/zip)$/.test(lower) ? 'binary'
        : /^text\/(plain|csv|markdown|tab-separated-values)(;.*)?$/.test(lower) && isTextSchema(this.em.deref((isObject(rawMt) ? rawMt.schema : undefined) as Json) ?? {}) ? 'text'
        : undefined;
      if (k === undefined) {
        notes.push(this.refuse(mptr, 'media-type', `${ct}: @lib has no format for it; left out`));
        continue;
      }
      if (k === 'multipart' && side === 'response') {
        notes.push(this.refuse(mptr, 'media-type', 'a multipart response: @lib reads multipart bodies, it does not write them; left out'));
        continue;
      }
      if (k === 'form' && side === 'response') {
        notes.push(this.refuse(mptr, 'media-type', 'a form-encoded response: @lib reads forms, it does not write them; left out'));
        continue;
      }
      const s = (mt.schema ?? {}) as Json;
      if (k === 'form') {
        const nested = this.nestedFormFields(s);
        if (nested.length > 0) {
          notes.push(this.refuse(mptr, 'media-type', `a form body whose field${nested.length > 1 ? 's' : ''} ${nested.slice(0, 3).map((n) => JSON.stringify(n)).join(', ')}${nested.length > 3 ? '…' : ''} ${nested.length > 1 ? 'are' : 'is'} no text, number, boolean or list of them (nested objects, as \`card[number]\`): format.form carries flat fields; left out`));
          continue;
        }
      }
      if (kind === undefined) {
        kind = k;
        schema = s;
      } else if ((k === 'binary') !== (kind === 'binary') || JSON.stringify(s) !== JSON.stringify(schema)) {
        notes.push(this.refuse(mptr, 'media-type', `${ct} has another schema than the first media type: @lib formats of one route share its codec; left out`));
        continue;
      }
      for (const x of Object.keys(mt)) {
        if (x === 'examples' || x === 'example' || x === 'encoding' || x.startsWith('x-')) notes.push(this.refuse(`${mptr}/${escapeToken(x)}`, 'media-doc', `the media type's ${x} is not carried over (a schema's examples are)`));
      }
      if (k === 'json') formats.push(lower === 'application/json' ? 'format.json(BODY)' : `format.json(BODY).withContentType(${JSON.stringify(ct)})`);
      else if (k === 'binary') formats.push(lower === 'application/octet-stream' ? 'format.binary(BODY)' : `format.binary(BODY).withContentType(${JSON.stringify(ct)})`);
      else if (k === 'form') formats.push('format.form(BODY)');
      else if (k === 'multipart') formats.push('format.multipart(BODY)');
      else if (k === 'text') formats.push(`format.text(BODY, ${JSON.stringify(ct)})`);
      else if (k === 'xml') formats.push(lower === 'application/xml' ? 'format.xml(BODY)' : `format.xml(BODY).withContentType(${JSON.stringify(ct)})`);
      if (!(k === 'json' && lower === 'application/json')) plainJson = false;
    }
    if (kind === undefined || schema === undefined) return undefined;
    // A multipart body's properties are its parts: a binary string among them is a file (codec.bytes()).
    const multipart = formats.some((f) => f.startsWith('format.multipart('));
    const codec = kind === 'binary' ? 'codec.bytes()' : this.em.emit(schema, `${ptr}/${escapeToken(Object.keys(content).find((c) => JSON.stringify((content[c] as JsonObject)?.schema ?? {}) === JSON.stringify(schema)) ?? '')}/schema`, multipart ? 'multipart' : 'json');
    if (multipart && isObject(schema) && typeof schema.$ref === 'string' && hasFilePart(this.em.deref(schema))) {
      notes.push(this.refuse(ptr, 'media-type', 'a multipart body whose schema is a named component with file parts: the component is a JSON codec (its files are text); left out'));
      return undefined;
    }
    if (kind === 'binary' && isObject(schema) && Object.keys(schema).some((k) => k !== 'type' && k !== 'format')) notes.push(this.refuse(ptr, 'binary-schema', 'the schema of a binary body is the bytes: its other keywords are left out'));
    if ((kind === 'form' || multipart) && !/^(codec\.object\(|[A-Za-z_$][\w$]*$)/.test(codec)) {
      notes.push(this.refuse(ptr, 'media-type', `a ${multipart ? 'multipart' : 'form'} body that is not an object; left out`));
      return undefined;
    }
    if (plainJson && formats.length === 1) return { codec, formats: undefined, schema };
    this.usesFormat = true;
    if (kind === 'binary' || kind === 'form') {
      // The formats need the codec itself: bind it once.
      return { codec, formats: formats.map((f) => f.replace('BODY', codec)), schema };
    }
    return { codec, formats: formats.map((f) => f.replace('BODY', codec)), schema };
  }

  /**
   * The fields of a form body's object schema that `format.form` cannot carry: anything but a
   * text, number or boolean (an enum or constant of them) or a list of those — nested objects,
   * unions, nullable values.
   */
  private nestedFormFields(schema: Json): string[] {
    const s = this.em.deref(schema);
    if (s === undefined || !isObject(s.properties)) return [];
    const scalar = (raw: Json | undefined): boolean => {
      const v = this.em.deref(raw as Json);
      if (v === undefined || v.nullable === true || v.oneOf !== undefined || v.anyOf !== undefined || v.allOf !== undefined) return false;
      if (typeof v.type === 'string') return ['string', 'number', 'integer', 'boolean'].includes(v.type);
      const values = Array.isArray(v.enum) ? v.enum : 'const' in v ? [v.const] : undefined;
      return v.type === undefined && values !== undefined && values.every((x) => x !== null && typeof x !== 'object');
    };
    return Object.entries(s.properties).filter(([, raw]) => {
      const v = this.em.deref(raw as Json);
      return !(scalar(raw as Json) || (v !== undefined && v.type === 'array' && scalar(v.items as Json)));
    }).map(([name]) => name);
  }

  private responses(notes: string[]): string[] {
    const rs = isObject(this.op.responses) ? this.op.responses : {};
    const ptr = `${this.ptr}/responses`;
    const statuses = Object.keys(rs);
    const ok = statuses.filter((s) => /^2\d\d$/.test(s)).sort();
    const preferred = this.method === 'post' ? '201' : '200';
    const redirect = ok.length === 0 ? statuses.filter((s) => /^3\d\d$/.test(s) && s !== '304').sort()[0] : undefined;
    // Without a 2xx or a redirect, a `default` response is the operation's answer: the route's main response, documented as `default`.
    const main = ok.includes(preferred) ? preferred : ok.find((s) => s.startsWith('2')) ?? redirect ?? (statuses.includes('default') ? 'default' : undefined);
    const mainResponse = main === undefined ? undefined : resolveRef(this.doc, rs[main]);
    const mainHeaders = isObject(mainResponse?.headers) && Object.keys(mainResponse.headers).some((h) => !['set-cookie', 'content-type'].includes(h.toLowerCase()));
    const out: string[] = [];
    const successes: string[] = [];
    const errors: string[] = [];
    const documented: string[] = [];
    for (const status of statuses) {
      const r = resolveRef(this.doc, rs[status]);
      const rptr = `${ptr}/${escapeToken(status)}`;
      if (r === undefined) {
        notes.push(this.refuse(rptr, 'response', 'a response pointing at nothing; left out'));
        continue;
      }
      if (r.links !== undefined && status !== main) notes.push(this.refuse(`${rptr}/links`, 'links', 'links of a response other than the main one: @lib documents the links of the main success response (meta.links) only; left out'));
      else if (isObject(r.links)) this.links(r.links, `${rptr}/links`, notes);
      const description = typeof r.description === 'string' ? r.description : '';
      // A response without description (which OpenAPI requires) is left to @lib's: the reason phrase.
      const described = typeof r.description === 'string' ? `.withDescription(${JSON.stringify(description)})` : '';
      // An error with a schema per JSON media type (GitHub's 400: basic-error as JSON, scim-error
      // as SCIM): a pattern per schema, each with its own media types, the specific ones first.
      const groups = status !== main && /^[345]\d\d$/.test(status) && isObject(r.content) ? bySchema(r.content) : [];
      if (groups.length > 1) {
        this.usesErrors = true;
        const withHeaders = errorHeaders(this.responseHeaders(r, rptr, notes));
        const patterns = groups.map((g, i) => {
          const sub = Object.fromEntries(g.types.map((t) => [t, (r.content as JsonObject)[t] as Json]));
          const c = this.content(sub, `${rptr}/content`, notes, 'response');
          const witness = i === 0 ? `errorOf(${status})` : `errorOf(${status}, ${JSON.stringify(g.types)})`;
          // One status, several patterns: each names its media types, whether or not it has formats.
          const own = ownFormats(g.types, c?.formats ?? (g.types.every(isJsonType) ? [] : undefined));
          return `rest.errorPattern(${witness}, ${status}, ${c?.codec ?? 'codec.empty()'}, (e) => e.body as never)${described}${own}${withHeaders}`;
        });
        errors.push(...patterns.slice(1), patterns[0] as string);
        continue;
      }
      const content = isObject(r.content) && Object.keys(r.content).length > 0 ? this.content(r.content, `${rptr}/content`, notes, 'response') : undefined;
      const headers = this.responseHeaders(r, rptr, notes);
      if (status === main) {
        if (content !== undefined) out.push(`response: ${content.codec}`);
        if (content?.formats !== undefined) out.push(`formats: [${content.formats.join(', ')}]`);
        if (headers.length > 0) out.push(`responseHeaders: { ${headers.join(', ')} }`);
        const dflt = this.method === 'post' ? '201' : '200';
        if (status !== dflt) this.metaExtra.push(`respStatus: ${status === 'default' ? '"default"' : status}`);
        if (typeof r.description === 'string') this.metaExtra.push(`respDescription: ${JSON.stringify(description)}`);
        continue;
      }
      if (/^3\d\d$/.test(status) && status !== main) {
        // A redirect or 304 beside the main response: documented as an extra response (no content).
        if (content === undefined && headers.length === 0 && !(isObject(r.content) && Object.keys(r.content).length > 0)) {
          documented.push(`{ status: ${status}, description: ${JSON.stringify(description)} }`);
          continue;
        }
        // With content: an answer the handler gives by throwing, as an error rule's (a redirect
        // the client does not follow, a moved resource's body), typed by its pattern.
      }
      if (/^2\d\d$/.test(status)) {
        if (content?.formats !== undefined && !content.formats.every((f) => f.startsWith('format.json('))) notes.push(this.refuse(rptr, 'media-type', 'another success status answers in the main response\'s formats: its own media types are not carried over'));
        const opts = typeof r.description === 'string' ? [`description: ${JSON.stringify(description)}`] : [];
        // Its own headers, in place of the main response's; none where the main one has some.
        if (headers.length > 0 || mainHeaders) opts.push(`headers: { ${headers.join(', ')} }`);
        successes.push(`${status}: rest.success(${content?.codec ?? 'null'}, { ${opts.join(', ')} })`);
        continue;
      }
      if (/^[345]\d\d$/.test(status) || /^[45]XX$/i.test(status) || status === 'default') {
        this.usesErrors = true;
        const st = /^\d+$/.test(status) ? status : JSON.stringify(status === "default" ? "default" : status.toUpperCase());
        const body = content?.codec ?? 'codec.empty()';
        const own = ownFormats(isObject(r.content) ? Object.keys(r.content) : [], content?.formats);
        errors.push(`rest.errorPattern(errorOf(${st}), ${st}, ${body}, (e) => e.body as never)${described}${own}${errorHeaders(headers)}`);
        continue;
      }
      notes.push(this.refuse(rptr, 'status', `status ${status}: @lib declares 2xx–5xx statuses (1xx and ranges of successes are not); left out`));
    }
    // No success documented: a route that never succeeds, answering only its errors.
    if (main === undefined) out.push('response: codec.never()');
    if (successes.length > 0) out.push(`successes: { ${successes.join(', ')} }`);
    if (errors.length > 0) out.push(`errors: [${errors.join(', ')}]`);
    if (documented.length > 0) out.push(`responses: [${documented.join(', ')}]`);
    return out;
  }

  /** The main response's links (OpenAPI 3.1 §4.8.20) as `meta.links`. */
  private links(links: JsonObject, ptr: string, notes: string[]): void {
    const out: JsonObject = {};
    for (const [name, raw] of Object.entries(links)) {
      const lptr = `${ptr}/${escapeToken(name)}`;
      const l = resolveRef(this.doc, raw);
      if (l === undefined) continue;
      const bad = Object.keys(l).filter((k) => !['operationId', 'parameters', 'requestBody', 'description'].includes(k) && !k.startsWith('x-'));
      const params = isObject(l.parameters) ? l.parameters : {};
      const nonText = Object.keys(params).filter((k) => typeof params[k] !== 'string');
      if (typeof l.operationId !== 'string' || !operationIds(this.doc).has(l.operationId) || bad.length > 0 || nonText.length > 0 || (l.requestBody !== undefined && typeof l.requestBody !== 'string')) {
        notes.push(this.refuse(lptr, 'links', `a link @lib cannot declare: it names an operationId of the document, parameters and requestBody as runtime expressions or text, a description${bad.length > 0 ? ` (not ${bad.join(', ')})` : ''}; left out`));
        continue;
      }
      const link: JsonObject = { operationId: l.operationId };
      if (Object.keys(params).length > 0) link.parameters = params;
      if (typeof l.requestBody === 'string') link.requestBody = l.requestBody;
      if (typeof l.description === 'string') link.description = l.description;
      out[name] = link;
    }
    if (Object.keys(out).length > 0) this.metaExtra.push(`links: ${JSON.stringify(out)}`);
  }

  private responseHeaders(r: JsonObject, rptr: string, notes: string[]): string[] {
    if (!isObject(r.headers)) return [];
    const out: string[] = [];
    const taken = new Set<string>(this.fields);
    for (const [name, raw] of Object.entries(r.headers)) {
      const hptr = `${rptr}/headers/${escapeToken(name)}`;
      const h = resolveRef(this.doc, raw);
      if (h === undefined) continue;
      if (name.toLowerCase() === 'set-cookie' || name.toLowerCase() === 'content-type') {
        notes.push(this.refuse(hptr, 'response-header', `${name} is written by @lib itself (responseCookies, formats); left out`));
        continue;
      }
      const c = h.schema === undefined ? `codec.string() ${this.refuse(hptr, 'param-content', 'a header without schema; read as a string')}` : this.em.emit(h.schema as Json, `${hptr}/schema`, 'param');
      const field = unique(camel(name), taken);
      const value = h.required === true ? c : `codec.optional(${c})`;
      const desc = typeof h.description === 'string' ? `.withDescription(${JSON.stringify(h.description)})` : '';
      out.push(`${propertyKey(field)}: rest.named(${JSON.stringify(name)}, ${value})${desc}`);
    }
    return out;
  }
}

export { isIdentifier };

/** The `.withHeaders(...)` of an error pattern whose response has `headers` (entries of the object form); '' without. */
function errorHeaders(headers: readonly string[]): string {
  return headers.length === 0 ? '' : `.withHeaders({ ${headers.join(', ')} }, (e) => (e.headers ?? {}) as never)`;
}

/** True when an object schema has a property that is a file part (`format: binary`, or a `contentMediaType`). */
function hasFilePart(schema: Json | undefined): boolean {
  if (!isObject(schema) || !isObject(schema.properties)) return false;
  return Object.values(schema.properties).some((p) => isObject(p) && (p.format === 'binary' || typeof p.contentMediaType === 'string' || (p.type === 'array' && isObject(p.items) && (p.items.format === 'binary' || typeof p.items.contentMediaType === 'string'))));
}

/** The media types of a content map grouped by schema (equal JSON), in the order first met. */
function bySchema(content: JsonObject): { readonly types: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const [t, mt] of Object.entries(content)) {
    const key = JSON.stringify(isObject(mt) ? (mt.schema ?? {}) : {});
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  return [...groups.values()].map((types) => ({ types }));
}

/** True for a schema whose values are text: a string, or anything (`{}`), not an object or a number. */
function isTextSchema(schema: Json): boolean {
  if (!isObject(schema)) return schema === true;
  if (schema.type === undefined) return !isObject(schema.properties) && schema.items === undefined && !Array.isArray(schema.oneOf) && !Array.isArray(schema.anyOf) && !Array.isArray(schema.allOf);
  return schema.type === 'string' && schema.format !== 'binary';
}

/** True for a JSON media type: `application/json`, or a `+json` structured syntax suffix (SCIM's). */
function isJsonType(t: string): boolean {
  return JSON_MEDIA_TYPE.test(t.split(';')[0]?.trim() ?? '');
}

/**
 * The media types an error pattern names as its own (`undefined` formats: none, JSON by default):
 * JSON ones by `.withMediaTypes(...)`, any others (XML, text) by `.withFormats(...)`.
 */
function ownFormats(types: readonly string[], formats: readonly string[] | undefined): string {
  if (formats === undefined) return '';
  if (types.length > 0 && types.every(isJsonType)) return `.withMediaTypes(${types.map((t) => JSON.stringify(t)).join(', ')})`;
  return `.withFormats(${formats.join(', ')})`;
}
