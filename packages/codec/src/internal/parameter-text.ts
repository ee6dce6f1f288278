// How a parameter's text reads as the value a JSON Schema describes: shared by `defaulted`
// (the `default` a parameter schema shows) and `fromStandardSchema(schema, { parameter: true })`
// (the value a foreign schema validates).
import type { JsonSchema } from '../json-schema.js';

/** The definition a local `$ref` names (`#/$defs/Name`, or `#` for the root), or `undefined`. */
export type RefLookup = (ref: string) => JsonSchema | undefined;

/** What {@link textValue} gives for the text of an integer that no JSON number holds exactly. */
export const NO_VALUE: unique symbol = Symbol('no value');

/** A JSON number (RFC 8259 §6): the only numeric text a parameter reads as a number. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** `schema`, or the definition its `$ref` names (followed a few times). */
export function resolveRef(schema: JsonSchema, lookup: RefLookup): JsonSchema {
  let s = schema;
  for (let i = 0; i < 8 && typeof s.$ref === 'string'; i++) {
    const next = lookup(s.$ref);
    if (next === undefined) break;
    s = next;
  }
  return s;
}

/** The JSON type of a `const` or `enum` value. */
function typeOfValue(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/**
 * The types a schema admits, as far as reading text needs them: its `type`, else the types of
 * its `const` or `enum` values, and those of the branches of `anyOf` and `oneOf`.
 */
function typesOf(schema: JsonSchema, lookup: RefLookup, into: Set<string>, depth: number): Set<string> {
  const s = resolveRef(schema, lookup);
  if (s.type !== undefined) for (const t of Array.isArray(s.type) ? s.type : [s.type]) into.add(t);
  else if (s.const !== undefined) into.add(typeOfValue(s.const));
  else if (Array.isArray(s.enum)) for (const v of s.enum) into.add(typeOfValue(v));
  if (depth < 4) for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) typesOf(branch, lookup, into, depth + 1);
  return into;
}

/**
 * The value a parameter's wire text stands for under `schema` (a parameter schema describes
 * the value, not its text): a JSON number's text under a schema admitting `integer` or
 * `number` is that number; `"true"` and `"false"` under one admitting `boolean` are booleans;
 * each element of an array under `items` the same way, and each property of an object (a styled
 * parameter's) under its `properties` entry or `additionalProperties`; anything else stays as it is.
 * {@link NO_VALUE} when the text names an integer beyond ±(2^53−1) where only an integer is
 * admitted: no JSON number holds it exactly.
 */
export function textValue(schema: JsonSchema, wire: unknown, lookup: RefLookup): unknown {
  if (typeof wire === 'string') {
    const types = typesOf(schema, lookup, new Set(), 0);
    const numeric = types.has('number') || types.has('integer');
    if (numeric && NUMBER_TEXT.test(wire)) {
      const n = Number(wire);
      if (Number.isFinite(n) && (types.has('number') || !Number.isInteger(n) || Number.isSafeInteger(n))) return n;
      if (!types.has('string')) return NO_VALUE;
    }
    if (types.has('boolean') && (wire === 'true' || wire === 'false')) return wire === 'true';
    return wire;
  }
  const items = listItems(schema, lookup);
  if (Array.isArray(wire) && items !== undefined) {
    const out = wire.map((w) => textValue(items, w, lookup));
    return out.includes(NO_VALUE) ? NO_VALUE : out;
  }
  if (typeof wire === 'object' && wire !== null && !Array.isArray(wire)) {
    // An object of texts (a styled parameter's properties: `color[R]=100`), each by its property's schema.
    const s = resolveRef(schema, lookup);
    const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
    if (!isObject) return wire;
    const props = s.properties ?? {};
    const rest = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(wire)) {
      const sub = Object.hasOwn(props, key) ? props[key] : rest;
      const v = (wire as Record<string, unknown>)[key];
      const read = sub === undefined ? v : textValue(sub, v, lookup);
      if (read === NO_VALUE) return NO_VALUE;
      // An own data property, whatever the key (`__proto__` never reaches a prototype).
      Object.defineProperty(out, key, { value: read, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return wire;
}

/** The schema of the items when `schema` describes an array (a list of texts on the wire), else `undefined`. */
export function listItems(schema: JsonSchema, lookup: RefLookup): JsonSchema | undefined {
  const s = resolveRef(schema, lookup);
  const isArray = s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'));
  return isArray && typeof s.items === 'object' ? s.items : undefined;
}
