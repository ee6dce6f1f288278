import type { Codec, JsonSchema, SchemaGenerator } from '@lib/codec';
import type { MediaTypeDescriptor } from './descriptor.js';
import type { MediaTypeObject } from './model.js';
import { routeError } from './render-error.js';

/**
 * The `content` map of a request body or response: media type → `{ schema }`, in declaration
 * order. The schema is, in order of precedence: `md.schemaWith(gen)` (form and multipart bodies);
 * `md.schema` as given (binary bodies); a `$ref`
 * to `components.schemas[md.schemaName]` holding the codec's full schema (the name wins over the
 * codec's own `withName`); the codec's schema at a use site (a `$ref` for a named codec). With
 * `md.alternatives`, the schema is `anyOf` of the distinct schemas of `md.codec` and each
 * alternative (JSON Schema 2020-12 §10.2.1.2; the same codec or an identical schema appears
 * once, and a branch that accepts every value makes the whole schema `{}`).
 * Media types whose codecs are all `codec.empty()` and that have no explicit schema are left
 * out: they describe an absent body. `md.itemCodec` adds `x-itemSchema` (the items of a
 * streamed sequence); `md.encoding` adds the Encoding Objects of a multipart body.
 * @throws {OpenAPIRenderError} `duplicateMediaType` when one media type appears twice.
 */
export function renderContent(
  route: { readonly method: string; readonly path: string },
  content: readonly MediaTypeDescriptor[],
  gen: SchemaGenerator,
): Record<string, MediaTypeObject> {
  const out: Record<string, MediaTypeObject> = {};
  for (const md of content) {
    const codecs = [md.codec, ...(md.alternatives ?? [])].filter((c, i, all) => c.kind !== 'empty' && all.indexOf(c) === i);
    if (md.schema === undefined && md.schemaWith === undefined && codecs.length === 0) continue;
    if (Object.hasOwn(out, md.mediaType)) {
      throw routeError(route, 'duplicateMediaType', `media type "${md.mediaType}" is declared twice for one body`, md.mediaType);
    }
    const mt: MediaTypeObject = { schema: md.schemaWith !== undefined ? md.schemaWith(gen) : md.schema !== undefined ? structuredClone(md.schema) : bodySchema(md, codecs, gen) };
    if (md.itemCodec !== undefined) mt['x-itemSchema'] = gen.schema(md.itemCodec);
    if (md.encoding !== undefined) mt.encoding = Object.fromEntries(Object.entries(md.encoding).map(([k, e]) => [k, { contentType: e.contentType }]));
    out[md.mediaType] = mt;
  }
  return out;
}

function bodySchema(md: MediaTypeDescriptor, codecs: readonly Codec<unknown>[], gen: SchemaGenerator): JsonSchema {
  const schemas: JsonSchema[] = [];
  const texts = new Set<string>();
  for (const c of codecs) {
    const s = c === md.codec && md.schemaName !== undefined ? gen.ref(md.schemaName, c) : gen.schema(c);
    const text = JSON.stringify(s);
    if (texts.has(text)) continue;
    texts.add(text);
    schemas.push(s);
  }
  if (schemas.length === 1) return schemas[0] as JsonSchema;
  if (schemas.some((s) => Object.keys(s).length === 0)) return {};
  return { anyOf: schemas };
}
