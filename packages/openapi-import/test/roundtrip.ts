// The round trip of a document: import → write → type-check → import the module → serve its
// routes with stub handlers on 127.0.0.1 → export the document → diff it with the input.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import * as nodeHttp from '@lib/node-http';
import { diffDocuments, importDocument, type Difference, type Refusal } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Where generated modules go: inside the package, so that they resolve `@lib/*`. */
export const GENERATED: string = join(here, '.generated');

/** What one document's round trip gave. */
export interface RoundTrip {
  readonly name: string;
  readonly refused: Refusal[];
  readonly file: string;
  compiled: boolean;
  typeErrors: string[];
  served: boolean;
  serveMs: number;
  operations: number;
  operationsEqual: number;
  schemas: number;
  schemasEqual: number;
  differences: Difference[];
  schemaDifferences: Difference[];
  error?: string;
}

/** Generates the module of each document and writes it; type-checks them all in one program. */
export function generate(docs: readonly { name: string; doc: object }[]): RoundTrip[] {
  mkdirSync(GENERATED, { recursive: true });
  const out: RoundTrip[] = docs.map(({ name, doc }) => {
    const { source, refused } = importDocument(doc, { sourceName: name });
    const file = join(GENERATED, `${name.replace(/[^A-Za-z0-9_-]/g, '_')}.ts`);
    writeFileSync(file, source);
    return { name, refused, file, compiled: false, typeErrors: [], served: false, serveMs: 0, operations: 0, operationsEqual: 0, schemas: 0, schemasEqual: 0, differences: [], schemaDifferences: [] };
  });
  const errors = typeCheck(out.map((r) => r.file));
  for (const r of out) {
    r.typeErrors = errors.get(r.file) ?? [];
    r.compiled = r.typeErrors.length === 0;
  }
  return out;
}

/** Options the generated modules are checked with: the repository's, strict, exactOptionalPropertyTypes. */
export function compilerOptions(): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ['lib-source'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    types: ['node'],
  };
}

/** Type errors by file, of the files given (errors elsewhere are the packages' own business). */
export function typeCheck(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram({ rootNames: [...files], options: compilerOptions() });
  const out = new Map<string, string[]>();
  const wanted = new Set(files);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const f = d.file?.fileName;
    if (f === undefined || !wanted.has(f)) continue;
    const where = d.start !== undefined && d.file !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const list = out.get(f) ?? [];
    list.push(`${where !== undefined ? `${where.line + 1}:${where.character + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    out.set(f, list);
  }
  return out;
}

type Module = { routes: Record<string, rest.Route<any, any>>; info: { title: string; version: string }; register(api: rest.Server): rest.Server } & Record<string, unknown>;

/** Imports the module, serves its routes with stub handlers, exports the document and diffs it with `doc`. */
export async function serveAndDiff(r: RoundTrip, doc: object): Promise<RoundTrip> {
  try {
    const mod = (await import(pathToFileURL(r.file).href)) as Module;
    // Stub credentials check: the round trip serves, it does not sign anybody in.
    const api = rest.newServer(mod.info, rest.withDefaultOptions({ securityFunc: () => undefined }));
    mod.register(api);
    for (const route of Object.values(mod.routes)) {
      (route as any).withHandler(() => {
        throw new Error('not implemented');
      }).register(api);
    }
    const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
    api.attach(transport);
    const stop = new AbortController();
    const t0 = performance.now();
    const served = api.serve({ signal: stop.signal });
    const { host, port } = await Promise.race([transport.listening(), served.then(() => Promise.reject(new Error('serve ended before listening')))]);
    r.serveMs = performance.now() - t0;
    // The server answers: an unknown path is a 404 from the pipeline.
    const res = await fetch(`http://${host}:${port}/openapi-import-round-trip-unknown`);
    await res.arrayBuffer();
    r.served = res.status === 404;
    const exported = JSON.parse(api.openAPISpec().marshalJSON()) as object;
    stop.abort();
    await served;
    r.differences = diffDocuments(doc, exported);
    const ops = operationKeys(doc);
    r.operations = ops.length;
    // A pointer names the operation whose key is its longest prefix: `GET /issues/{n}/timeline/...`
    // is the timeline's, not `GET /issues`'s.
    const missed = new Set(r.differences.map((d) => operationOf(d.pointer, ops)));
    r.operationsEqual = ops.filter((k) => !missed.has(k)).length;
    // Every component schema, used by an operation or not: the module's codecs, rendered.
    const gen = new codec.SchemaGenerator({ refPrefix: '#/components/schemas/', refNamed: true });
    for (const v of Object.values(mod)) if (v instanceof codec.Codec && v.meta.name !== undefined) gen.schema(v);
    const expectedSchemas = ((doc as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {});
    const docVersion = (doc as { openapi?: string }).openapi ?? '3.1.0';
    r.schemaDifferences = diffDocuments({ openapi: docVersion, components: { schemas: expectedSchemas } }, { openapi: '3.1.0', components: { schemas: gen.definitions } }, { componentsByName: true });
    const names = Object.keys(expectedSchemas);
    r.schemas = names.length;
    r.schemasEqual = names.filter((n) => !r.schemaDifferences.some((d) => d.pointer === `components/schemas/${esc(n)}` || d.pointer.startsWith(`components/schemas/${esc(n)}/`))).length;
  } catch (err) {
    r.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
  return r;
}

function esc(t: string): string {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

function operationKeys(doc: object): string[] {
  const out: string[] = [];
  const paths = (doc as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const [p, item] of Object.entries(paths)) for (const m of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']) if (item[m] !== undefined) out.push(`${m.toUpperCase()} ${p}`);
  return out;
}

/** The operation key (`GET /path`) a difference's pointer is under: the longest that prefixes it. */
export function operationOf(pointer: string, ops: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const k of ops) if ((pointer === `paths/${k}` || pointer.startsWith(`paths/${k}/`)) && (best === undefined || k.length > best.length)) best = k;
  return best;
}
