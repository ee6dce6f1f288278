import type { SchemaGenerator } from '@lib/codec';
import type { MediaTypeDescriptor } from './descriptor.js';
import type { MediaTypeObject } from './model.js';
import { routeError } from './render-error.js';

/**
 * The `content` map of a request body or response: media type → `{ schema }`, in declaration
 * order. The schema is, in order of precedence: `md.schema` as given (binary bodies); a `$ref`
 * to `components.schemas[md.schemaName]` holding the codec's full schema (the name wins over the
 * codec's own `withName`); the codec's schema at a use site (a `$ref` for a named codec).
 * Media types whose codec is `codec.empty()` and that have no explicit schema are left out: they
 * describe an absent body.
 * @throws {OpenAPIRenderError} `duplicateMediaType` when one media type appears twice.
 */
export function renderContent(
  route: { readonly method: string; readonly path: string },
  content: readonly MediaTypeDescriptor[],
  gen: SchemaGenerator,
): Record<string, MediaTypeObject> {
  const out: Record<string, MediaTypeObject> = {};
  for (const md of content) {
    if (md.schema === undefined && md.codec.kind === 'empty') continue;
    if (Object.hasOwn(out, md.mediaType)) {
      throw routeError(route, 'duplicateMediaType', `media type "${md.mediaType}" is declared twice for one body`, md.mediaType);
    }
    const schema =
      md.schema !== undefined
        ? structuredClone(md.schema)
        : md.schemaName !== undefined
          ? gen.ref(md.schemaName, md.codec)
          : gen.schema(md.codec);
    out[md.mediaType] = { schema };
  }
  return out;
}
