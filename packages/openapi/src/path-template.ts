const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The placeholder names of a path template, in order, without repeats: `/a/{x}/b/{y}` → `['x', 'y']`. */
export function templateVars(path: string): string[] {
  const vars: string[] = [];
  for (const m of path.matchAll(PLACEHOLDER)) {
    const name = m[1] as string;
    if (!vars.includes(name)) vars.push(name);
  }
  return vars;
}

/**
 * Why `path` is not a usable OpenAPI path template, or `undefined` when it is: it must start
 * with `/`, and every `{` must open a non-empty placeholder closed by `}` before the next brace.
 */
export function templateProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'must start with "/"';
  const rest = path.replace(PLACEHOLDER, (m: string, name: string) => (name === '' ? '\u0000' : ''));
  if (rest.includes('\u0000')) return 'has an empty "{}" placeholder';
  if (rest.includes('{') || rest.includes('}')) return 'has unbalanced braces';
  return undefined;
}

/** The template with placeholder names erased (`/a/{id}` → `/a/{}`): equal shapes are the same OpenAPI path. */
export function templateShape(path: string): string {
  return path.replace(PLACEHOLDER, '{}');
}
