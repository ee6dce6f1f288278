/** Thrown when a route declaration is malformed (bad path template, conflicting parameters). */
export class RouteDeclarationError extends Error {
  /** The route, as `METHOD /path`. */
  readonly route: string;
  constructor(route: string, message: string) {
    super(`${route}: ${message}`);
    this.name = 'RouteDeclarationError';
    this.route = route;
  }
}

const VAR = /\{([^{}]*)\}/g;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The variable names of a path template, in order. A
 * placeholder fills a whole segment.
 * @throws {RouteDeclarationError} for a template that does not start with `/`, a segment written
 * `:name` (router syntax: write `{name}`), a malformed or repeated placeholder, or one that shares its segment with other text.
 */
export function templateVars(route: string, template: string): string[] {
  if (!template.startsWith('/')) throw new RouteDeclarationError(route, 'path must start with "/"');
  const vars: string[] = [];
  const segments = template.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment.startsWith(':')) throw new RouteDeclarationError(route, `path variables are written {name}, not :name: ${JSON.stringify(segment)}`);
    if (!segment.includes('{') && !segment.includes('}')) continue;
    const m = /^\{([^{}]*)\}$/.exec(segment);
    if (m === null) throw new RouteDeclarationError(route, `placeholder must fill a whole segment: ${JSON.stringify(segment)}`);
    const name = m[1] as string;
    if (!VAR_NAME.test(name)) throw new RouteDeclarationError(route, `invalid path variable name ${JSON.stringify(name)}`);
    if (vars.includes(name)) throw new RouteDeclarationError(route, `path variable ${JSON.stringify(name)} appears twice`);
    vars.push(name);
  }
  return vars;
}

/** The template with every `{var}` replaced by `x`, for template-transparent path validation. */
export function transparentPath(template: string): string {
  return template.replace(VAR, 'x');
}

/**
 * The shape of a template, every `{var}` written `{}`: two templates of one shape match the same
 * paths (`/users/{id}` and `/users/{name}`), so a builder or a router holds one route per shape.
 */
export function templateShape(template: string): string {
  return template.replace(VAR, '{}');
}

/**
 * The template as a regular-expression source of the paths it matches, without anchors: each
 * `{var}` a segment of one or more characters (`[^/]+`), the literal text escaped.
 */
export function templateSource(template: string): string {
  return template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
}

/** The template in `:var` router syntax (find-my-way, Hono): `/users/{id}` → `/users/:id`. */
export function colonPath(template: string): string {
  return template.replace(VAR, ':$1');
}

/** Substitutes percent-encoded values into the template. Every variable must be in `vars`. */
export function fillTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  // The template split once: literal text at even indexes, variable names at odd ones.
  let parts = SPLIT.get(template);
  if (parts === undefined) SPLIT.set(template, (parts = template.split(VAR)));
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) path += encodeURIComponent(vars[parts[i] as string] as string) + (parts[i + 1] as string);
  return path;
}
const SPLIT = new Map<string, readonly string[]>();

/**
 * Substitutes segments already percent-encoded into the template (a styled path parameter's
 * text, `.3.4.5`), as they are. Every variable must be in `segments`.
 */
export function fillEncodedTemplate(template: string, segments: Readonly<Record<string, string>>): string {
  let parts = SPLIT.get(template);
  if (parts === undefined) SPLIT.set(template, (parts = template.split(VAR)));
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) path += (segments[parts[i] as string] as string) + (parts[i + 1] as string);
  return path;
}
