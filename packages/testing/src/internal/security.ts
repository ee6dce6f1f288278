import type { ParameterDescriptor, RouteDescriptor, SecurityRequirement } from '@lib/openapi';
import type { SecurityScheme } from '@lib/rest';
import type { RequestCredentials } from '../requests.js';
import type { Scalar } from './state.js';

/**
 * How a route is guarded, from its security requirements (its own, else the API's global ones;
 * OpenAPI 3.1 §4.8.30: alternatives, each needing all its schemes): `public` (none), `optional`
 * (`{}` among the alternatives: anonymous, or signed in with a credential that is checked) or
 * `secured`.
 */
export type Guard = 'public' | 'optional' | 'secured';

/** A route's security as the checks use it. */
export interface RouteSecurity {
  readonly guard: Guard;
  /** The alternatives that sign in (`{}` left out), each as its schemes by name. */
  readonly alternatives: readonly (readonly (readonly [string, SecurityScheme<unknown>])[])[];
  /** A declared parameter travels where a scheme's credential does (it would carry one). */
  readonly paramAtCredential: boolean;
}

/** The security of a described route, on a builder with `schemes` and `global` requirements. */
export function routeSecurity(d: RouteDescriptor, schemes: ReadonlyMap<string, SecurityScheme<unknown>>, global: readonly SecurityRequirement[]): RouteSecurity {
  const requirements = d.security ?? global;
  const signIns = requirements.filter((r) => Object.keys(r).length > 0);
  const guard: Guard = signIns.length === 0 ? 'public' : signIns.length < requirements.length ? 'optional' : 'secured';
  const alternatives = signIns.map((r) => Object.keys(r).flatMap((name) => {
    const s = schemes.get(name);
    return s === undefined ? [] : [[name, s] as const];
  }));
  const listed = alternatives.flat().map(([, s]) => s);
  const paramAtCredential = d.parameters.some((p) => listed.some((s) => atLocation(s, p)));
  return { guard, alternatives, paramAtCredential };
}

/** True when parameter `p` travels where `scheme`'s credential does. */
function atLocation(scheme: SecurityScheme<unknown>, p: ParameterDescriptor): boolean {
  const o = scheme.object;
  if (o.type !== 'apiKey') return p.in === 'header' && p.name.toLowerCase() === 'authorization';
  if (o.in === 'header') return p.in === 'header' && p.name.toLowerCase() === (o.name ?? '').toLowerCase();
  return p.in === o.in && p.name === o.name;
}

/** The credential of `scheme` among `c`, as the server reads it (`undefined`: none). */
export function credentialOf(scheme: SecurityScheme<unknown>, c: RequestCredentials | undefined): string | undefined {
  if (c === undefined) return undefined;
  const headers = new Map(Object.entries(c.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return scheme.read({ header: (name) => headers.get(name), query: (name) => c.query?.[name], cookie: (name) => c.cookies?.[name] });
}

/** `c` without what travels where the credentials of `schemes` do. */
export function withoutCredentials(c: RequestCredentials | undefined, schemes: readonly SecurityScheme<unknown>[]): RequestCredentials {
  const headers = { ...c?.headers };
  const query = { ...c?.query };
  const cookies = { ...c?.cookies };
  for (const s of schemes) {
    const o = s.object;
    if (o.type !== 'apiKey' || o.in === 'header') {
      const name = (o.type === 'apiKey' ? (o.name ?? '') : 'authorization').toLowerCase();
      for (const k of Object.keys(headers)) if (k.toLowerCase() === name) delete headers[k];
    } else if (o.in === 'query') delete query[o.name ?? ''];
    else delete cookies[o.name ?? ''];
  }
  return { headers, query, cookies };
}

/** `c` with `credential` placed where `scheme` reads it (over what is there). */
export function placed(c: RequestCredentials, scheme: SecurityScheme<unknown>, credential: string): RequestCredentials {
  const at = scheme.place(credential);
  if (at.in === 'header') {
    const headers = Object.fromEntries(Object.entries(c.headers ?? {}).filter(([k]) => k.toLowerCase() !== at.name.toLowerCase()));
    return { ...c, headers: { ...headers, [at.name.toLowerCase()]: at.value } };
  }
  if (at.in === 'query') return { ...c, query: { ...c.query, [at.name]: at.value } };
  return { ...c, cookies: { ...c.cookies, [at.name]: at.value } };
}

/**
 * A credential like `credential` that no server can accept: one character in its middle
 * changed (a signature, a session id or a password no longer matches; the middle, since the
 * last character of base64 may carry only padding bits). Without a credential to start from, a
 * made-up one (`user:password` in shape for a basic scheme).
 */
export function tampered(scheme: SecurityScheme<unknown>, credential: string | undefined): string {
  const basic = scheme.object.type === 'http' && scheme.object.scheme === 'basic';
  if (credential === undefined || credential.length === 0) return basic ? 'lib-testing:not-a-password' : 'lib-testing-not-a-credential';
  const i = Math.floor(credential.length / 2);
  const c = credential[i] as string;
  const swap = /[0-8]/.test(c) ? String(Number(c) + 1) : c === '9' ? '0' : /[a-yA-Y]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 1) : c === 'z' ? 'a' : c === 'Z' ? 'A' : c === 'x' ? 'y' : 'x';
  return credential.slice(0, i) + swap + credential.slice(i + 1);
}

/** Field names of an answer that carry a bearer token: OAuth 2.0's (RFC 6749 §5.1) and the usual others. */
const TOKEN_FIELDS = ['access_token', 'accessToken', 'token'];

/**
 * The credentials a run learns from the API's own answers, by scheme name: a cookie a successful
 * answer sets under the name of a cookie API key scheme (a session), and a token a successful
 * JSON answer gives in `access_token`, `accessToken` or `token` for a bearer scheme (`http`
 * bearer, `oauth2`, `openIdConnect`) — when the scheme's codec, if it has one, accepts it. The
 * latest wins.
 */
export class LearnedCredentials {
  readonly #schemes: ReadonlyMap<string, SecurityScheme<unknown>>;
  readonly #learned = new Map<string, string>();

  constructor(schemes: ReadonlyMap<string, SecurityScheme<unknown>>) {
    this.#schemes = schemes;
  }

  get(name: string): string | undefined {
    return this.#learned.get(name);
  }

  learn(json: unknown, cookies: Readonly<Record<string, string>>): void {
    const fields: Record<string, Scalar> = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, Scalar>) : {};
    for (const [name, s] of this.#schemes) {
      const o = s.object;
      let found: string | undefined;
      if (o.type === 'apiKey' && o.in === 'cookie') found = cookies[o.name ?? ''];
      else if ((o.type === 'http' && o.scheme?.toLowerCase() === 'bearer') || o.type === 'oauth2' || o.type === 'openIdConnect') {
        const t = TOKEN_FIELDS.map((f) => fields[f]).find((v): v is string => typeof v === 'string' && v !== '');
        found = t;
      }
      if (found === undefined || found === '' || !accepts(s, found)) continue;
      this.#learned.set(name, found);
    }
  }
}

function accepts(s: SecurityScheme<unknown>, raw: string): boolean {
  if (s.codec === undefined) return true;
  try {
    s.codec.decode(raw);
    return true;
  } catch {
    return false;
  }
}

/**
 * The credentials a route's requests carry: `given` (all of it, as always), and for each scheme
 * of the route's alternatives that `given` has no credential for, the one the run learned.
 * Also says whether some alternative is then fully covered.
 */
export function credentialsFor(sec: RouteSecurity, given: RequestCredentials | undefined, learned: LearnedCredentials): { credentials: RequestCredentials | undefined; covered: boolean } {
  let out = given;
  let covered = false;
  for (const alt of sec.alternatives) {
    let all = true;
    for (const [name, s] of alt) {
      if (out !== undefined && credentialOf(s, out) !== undefined) continue;
      const l = learned.get(name);
      if (l === undefined) {
        all = false;
        continue;
      }
      try {
        out = placed(out ?? {}, s, l);
      } catch {
        all = false;
      }
    }
    if (all) covered = true;
  }
  return { credentials: out, covered };
}

/**
 * Credentials for the malformed probe: `given` without any credential of the route's schemes,
 * then each scheme of one alternative (the first one the run has credentials for, else the
 * first) given a tampered credential. `undefined` when none can be placed.
 */
export function malformedFor(sec: RouteSecurity, given: RequestCredentials | undefined, withLearned: RequestCredentials | undefined): RequestCredentials | undefined {
  const all = sec.alternatives.flat().map(([, s]) => s);
  const alt = sec.alternatives.find((a) => a.every(([, s]) => credentialOf(s, withLearned) !== undefined)) ?? sec.alternatives[0];
  if (alt === undefined || alt.length === 0) return undefined;
  let out = withoutCredentials(given, all);
  for (const [, s] of alt) {
    try {
      out = placed(out, s, tampered(s, credentialOf(s, withLearned)));
    } catch {
      return undefined;
    }
  }
  return out;
}
