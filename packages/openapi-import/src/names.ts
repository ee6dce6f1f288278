const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await ' +
    'arguments eval undefined NaN Infinity Object Array String Number Boolean Symbol Error Date Promise Map Set JSON Math RegExp ' +
    'codec validate rest format routes securitySchemes registerSecuritySchemes ResponseError annotate exclusiveMinimum exclusiveMaximum multipleOf exactlyOne'
  ).split(' '),
);

/** True when `s` is a plain JavaScript identifier. */
export function isIdentifier(s: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s) && !RESERVED.has(s);
}

/** `s` made an identifier: other characters become `_`, a leading digit gets `_`, reserved words get a trailing `_`. */
export function toIdentifier(s: string): string {
  let id = s.replace(/[^A-Za-z0-9_$]/g, '_');
  if (id === '' || /^[0-9]/.test(id)) id = `_${id}`;
  while (RESERVED.has(id)) id = `${id}_`;
  return id;
}

/** `s` in camelCase: `X-Rate-Limit` → `xRateLimit`, `page_size` stays `page_size`. */
export function camel(s: string): string {
  const parts = s.split(/[^A-Za-z0-9_$]+/).filter((p) => p !== '');
  if (parts.length === 0) return '_';
  const [first = '', ...rest] = parts;
  const id = first.charAt(0).toLowerCase() + first.slice(1) + rest.map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
  return toIdentifier(id);
}

/** A name not in `taken` (adding `2`, `3`… to `base`), recorded in `taken`. */
export function unique(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}

/** A property key as written in an object literal: bare when it is an identifier, else quoted. */
export function propertyKey(key: string): string {
  if (key === '__proto__') return '["__proto__"]';
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}
