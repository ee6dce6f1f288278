import { stringify } from 'yaml';

/**
 * YAML text of a JSON-compatible value: block style, no line folding, no anchors or aliases
 * for repeated objects, and strings that YAML 1.1 or 1.2 would read as numbers, booleans or
 * null (`'200'`, `'1.0'`, `'yes'`, `'null'`) quoted, so the text parses back to the same JSON
 * under either version. Ends with a newline.
 */
export function toYAMLText(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false, compat: 'yaml-1.1' });
}

/** JSON text of a value: 2-space indentation and a trailing newline. */
export function toJSONText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
