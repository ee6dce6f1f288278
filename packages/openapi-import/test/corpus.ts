// The corpus of public documents the round trip runs on; see CORPUS.md for their sources and licences.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseDocument } from '../src/index.js';

const require = createRequire(import.meta.url);
type Doc = { name: string; doc: Record<string, any> };

/** The OpenAPI 3.0 and 3.1 examples of `@readme/oas-examples` (MIT). */
export function readmeExamples(): Doc[] {
  const root = dirname(require.resolve('@readme/oas-examples/package.json'));
  const out: Doc[] = [];
  for (const v of ['3.0', '3.1']) {
    const dir = join(root, v, 'json');
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      out.push({ name: `readme-${v}-${f.replace(/\.json$/, '')}`, doc: parseDocument(readFileSync(join(dir, f), 'utf8')) });
    }
  }
  return out;
}

/** GitHub's REST API description from `@octokit/openapi` (MIT): api.github.com, OpenAPI 3.0.3. */
export function github(): Doc {
  const file = join(dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
  return { name: 'github', doc: JSON.parse(readFileSync(file, 'utf8')) };
}

/**
 * The operations of `doc` tagged with one of `tags`, with only the component schemas they use
 * (other components kept as they are): a mid-size document cut from a large one.
 */
export function subset(full: Doc, tags: readonly string[], name: string): Doc {
  const doc = full.doc;
  const paths: Record<string, any> = {};
  for (const [p, item] of Object.entries<any>(doc.paths ?? {})) {
    const kept: Record<string, any> = {};
    for (const [k, v] of Object.entries<any>(item)) {
      if (['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(k)) {
        if (Array.isArray(v.tags) && v.tags.some((t: string) => tags.includes(t))) kept[k] = v;
      } else kept[k] = v;
    }
    if (Object.keys(kept).some((k) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(k))) paths[p] = kept;
  }
  const out = { ...doc, paths, webhooks: undefined } as Record<string, any>;
  delete out.webhooks;
  const schemas = doc.components?.schemas ?? {};
  const used = new Set<string>();
  const seen = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== 'object' || v === null) return;
    const ref = (v as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !seen.has(ref)) {
      seen.add(ref);
      const parts = ref.slice(2).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (parts[0] === 'components' && parts[1] === 'schemas') used.add(parts[2] as string);
      let t: any = doc;
      for (const p of parts) t = t?.[p];
      walk(t);
    }
    for (const [k, c] of Object.entries(v)) if (k !== '$ref') walk(c);
  };
  walk(paths);
  out.components = { ...doc.components, schemas: Object.fromEntries(Object.entries(schemas).filter(([k]) => used.has(k))) };
  return { name, doc: out };
}
