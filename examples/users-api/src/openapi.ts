import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate as readmeValidate } from '@readme/openapi-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import * as codec from '@lib/codec';
import type * as rest from '@lib/rest';
import { buildApi } from './server.js';

/** Where the committed document lives. */
export const openapiPath: string = fileURLToPath(new URL('../openapi.yaml', import.meta.url));

/** The OpenAPI 3.1 document of the users API, as YAML. */
export function renderOpenAPI(): string {
  return buildApi('document-only').openAPISpec().marshalYAML();
}

/**
 * Validates an OpenAPI document file against the official OpenAPI 3.1 JSON Schema and checks
 * that every `$ref` resolves. Returns the errors (empty when valid).
 */
export async function validateOpenAPI(file: string): Promise<string[]> {
  const validator = new Validator();
  const res = await validator.validate(file);
  if (!res.valid) return (res.errors as unknown as { instancePath?: string; message?: string }[]).map((e) => `${e.instancePath ?? ''} ${e.message ?? JSON.stringify(e)}`);
  if (validator.version !== '3.1') return [`expected an OpenAPI 3.1 document, got ${String(validator.version)}`];
  try {
    validator.resolveRefs();
  } catch (err) {
    return [`unresolvable $ref: ${err instanceof Error ? err.message : String(err)}`];
  }
  return readmeErrors(file);
}

/** Every rule of `@readme/openapi-parser`, as an error: what the schema alone cannot see. */
const STRICT = {
  'array-without-items': 'error',
  'duplicate-non-request-body-parameters': 'error',
  'duplicate-operation-id': 'error',
  'invalid-security-scheme-properties': 'error',
  'non-optional-path-parameters': 'error',
  'path-parameters-not-in-parameters': 'error',
  'path-parameters-not-in-path': 'error',
} as const;

/**
 * The errors and warnings `@readme/openapi-parser` finds with every rule strict: duplicate
 * operation ids, path parameters missing from the template or from the parameters, and more.
 */
export async function readmeErrors(file: string): Promise<string[]> {
  const res = await readmeValidate(file, { validate: { rules: { openapi: STRICT } } });
  return [...(res.valid ? [] : res.errors.map((e) => e.message)), ...res.warnings.map((w) => `warning: ${w.message}`)];
}

/** What `redocly lint` reported about a document. */
export interface LintReport {
  readonly errors: number;
  readonly warnings: number;
  /** One line per problem: `severity ruleId pointer: message`. */
  readonly problems: readonly string[];
}

/**
 * Runs the Redocly CLI's `lint` with its `recommended` ruleset on a document file (a separate
 * process, as a user would run it) and returns its totals and problems.
 */
export function redoclyLint(file: string): Promise<LintReport> {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    // lint exits 1 when it finds errors; the JSON report on stdout says which.
    execFile(process.execPath, [cli, 'lint', '--extends=recommended', '--format=json', file], { env, maxBuffer: 16 << 20 }, (err, stdout) => {
      try {
        const out = JSON.parse(stdout) as {
          totals: { errors: number; warnings: number };
          problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
        };
        const problems = out.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
        resolve({ errors: out.totals.errors, warnings: out.totals.warnings, problems });
      } catch (parseError) {
        reject(err ?? parseError);
      }
    });
  });
}

/**
 * Every documented `default` that the server does not apply: by OpenAPI's meaning a schema's
 * `default` is what the server assumes for an absent value, so for each object field and
 * parameter of every route's request (body, path, query, header, cookie) whose schema has one,
 * decoding an absent value must give what decoding the default gives. Returns
 * `METHOD /path field: …` lines (empty when every default holds).
 */
export function defaultsNotApplied(api: rest.Server): string[] {
  const out: string[] = [];
  const seen = new Set<codec.Codec<unknown>>();
  const check = (where: string, field: codec.Codec<unknown>): void => {
    const schema = field.schema as { default?: unknown };
    if (!('default' in schema)) return;
    let absent: unknown;
    let given: unknown;
    try {
      absent = field.decode(undefined);
      given = field.decode(schema.default);
    } catch (err) {
      out.push(`${where}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (!codec.deepEqual(absent, given)) out.push(`${where}: documented default ${JSON.stringify(schema.default)}, but an absent value decodes to ${JSON.stringify(absent)}`);
  };
  const walk = (where: string, c: codec.Codec<unknown>): void => {
    if (seen.has(c)) return;
    seen.add(c);
    if (c instanceof codec.ObjectCodec) {
      for (const [key, field] of Object.entries(c.shape as Record<string, codec.Codec<unknown>>)) {
        check(`${where} ${key}`, field);
        walk(`${where} ${key}`, field);
      }
      return;
    }
    for (const child of c.children()) walk(where, child);
  };
  for (const handle of api.handles()) {
    const route = handle.route;
    for (const f of handle.requestFormats) walk(`${route.id} body`, f.codec as codec.Codec<unknown>);
    for (const p of handle.requestParams) {
      if (p.codec === undefined) continue;
      check(`${route.id} ${p.kind} ${p.name}`, p.codec);
      walk(`${route.id} ${p.kind} ${p.name}`, p.codec);
    }
  }
  return out;
}
