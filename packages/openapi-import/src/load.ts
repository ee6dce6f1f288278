import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';

/** A JSON value as a parsed document holds it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** True for a plain JSON object (not an array, not null). */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses OpenAPI text: JSON, or YAML 1.2 (of which JSON is a subset). Anchors and aliases are
 * expanded; a document that is not a mapping is refused.
 * @throws {TypeError} when the text does not parse or is not an object.
 */
export function parseDocument(text: string): JsonObject {
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: -1, uniqueKeys: false });
  } catch (err) {
    throw new TypeError(`the document does not parse as YAML or JSON: ${(err as Error).message}`);
  }
  if (!isObject(value)) throw new TypeError('the document is not an object');
  return value;
}

/** Unescapes one JSON Pointer token (RFC 6901 §4). */
export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Escapes one JSON Pointer token (RFC 6901 §3). */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value at a JSON Pointer fragment (`#/components/schemas/Pet`) of `root`, or `undefined`. */
export function resolvePointer(root: Json, fragment: string): Json | undefined {
  const f = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (f === '' || f === '/') return f === '' ? root : isObject(root) ? root[''] : undefined;
  let cur: Json | undefined = root;
  for (const raw of f.slice(1).split('/')) {
    const token = unescapeToken(decodeURIComponent(raw));
    if (Array.isArray(cur)) cur = cur[Number(token)];
    else if (isObject(cur)) cur = Object.prototype.hasOwnProperty.call(cur, token) ? cur[token] : undefined;
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/**
 * Reads an OpenAPI document from a local file (YAML or JSON) and brings every `$ref` to another
 * local file into it, so that the result refers to itself only. A referenced file's schema that
 * sits under `components/schemas` there (or is a whole file) becomes a component of the same
 * name (its file name for a whole file); anything else is inlined at the place of use.
 * References to `http:` or `https:` URLs are left as they are (nothing is downloaded).
 * @throws {TypeError} when a file does not parse, or a reference points at nothing.
 */
export function loadDocument(file: string): JsonObject {
  const cache = new Map<string, JsonObject>();
  const read = (path: string): JsonObject => {
    let doc = cache.get(path);
    if (doc === undefined) {
      doc = parseDocument(readFileSync(path, 'utf8'));
      cache.set(path, doc);
    }
    return doc;
  };
  const rootPath = resolve(file);
  const root = structuredClone(read(rootPath));
  const components = (isObject(root.components) ? root.components : (root.components = {})) as JsonObject;
  const schemas = (isObject(components.schemas) ? components.schemas : (components.schemas = {})) as JsonObject;
  const imported = new Map<string, string>(); // "file#pointer" → component name

  const visit = (node: Json, base: string, inFile: JsonObject): Json => {
    if (Array.isArray(node)) return node.map((n) => visit(n, base, inFile));
    if (!isObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string' && !ref.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
      const [filePart = '', fragment = ''] = ref.split('#');
      const target = resolve(dirname(base), filePart);
      const doc = read(target);
      const key = `${target}#${fragment}`;
      const m = /^\/components\/schemas\/([^/]+)$/.exec(fragment);
      const isSchemaFile = fragment === '' && (typeof doc.type === 'string' || isObject(doc.properties) || Array.isArray(doc.allOf) || Array.isArray(doc.oneOf) || Array.isArray(doc.anyOf));
      if (m !== null || isSchemaFile) {
        let name = imported.get(key);
        if (name === undefined) {
          const base0 = m !== null ? unescapeToken(m[1] as string) : (filePart.split('/').pop() ?? 'Schema').replace(/\.(ya?ml|json)$/i, '');
          name = base0;
          for (let i = 2; Object.prototype.hasOwnProperty.call(schemas, name) && !imported.has(key); i++) name = `${base0}${i}`;
          imported.set(key, name);
          const value = resolvePointer(doc, fragment);
          if (value === undefined) throw new TypeError(`$ref ${ref}: nothing there`);
          schemas[name] = {};
          schemas[name] = visit(value, target, doc);
        }
        return { $ref: `#/components/schemas/${escapeToken(name)}` };
      }
      const value = resolvePointer(doc, fragment);
      if (value === undefined) throw new TypeError(`$ref ${ref}: nothing there`);
      return visit(value, target, doc);
    }
    if (typeof ref === 'string' && ref.startsWith('#') && inFile !== root && base !== rootPath) {
      // A local reference inside another file: resolve it against that file.
      const m = /^#\/components\/schemas\/([^/]+)$/.exec(ref);
      if (m !== null) return visit({ $ref: `${base}${ref}` }, base, inFile);
      const value = resolvePointer(inFile, ref);
      if (value === undefined) throw new TypeError(`$ref ${ref} in ${base}: nothing there`);
      return visit(value, base, inFile);
    }
    const out: JsonObject = {};
    for (const k of Object.keys(node)) out[k] = visit(node[k] as Json, base, inFile);
    return out;
  };
  const result = visit(root, rootPath, root) as JsonObject;
  const rc = result.components as JsonObject;
  rc.schemas = { ...(rc.schemas as JsonObject), ...schemas };
  if (Object.keys(rc.schemas as JsonObject).length === 0) delete rc.schemas;
  if (Object.keys(rc).length === 0) delete result.components;
  return result;
}
