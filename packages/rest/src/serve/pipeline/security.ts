import { parseCookie } from 'cookie';
import { DecodeError } from '@lib/codec';
import type { SecurityRequirement } from '@lib/openapi';
import { credentialsKey, markSignedIn, type Context } from '../../declare/context.js';
import { UnauthorizedError } from '../../declare/errors.js';
import type { SecurityFunc } from '../../declare/options.js';
import { RouteDeclarationError } from '../../declare/path-template.js';
import type { CredentialSource, SecurityScheme } from '../../declare/security.js';
import type { PipelineRequest } from './exchange.js';

/** The realm of `WWW-Authenticate` challenges (RFC 9110 §11.5). */
const REALM = 'api';

/** A route's security requirements, compiled: checks a request's credentials. */
export interface PreparedSecurity {
  /**
   * Finds the first alternative whose every scheme has a credential its codec accepts, records
   * the credentials in the context (`scheme.credential(ctx)`), then runs `securityFunc` with that
   * alternative. When sign-in is optional (`{}` among the alternatives), a request that carries
   * no credential of any listed scheme goes through anonymous (no credential recorded, and
   * `securityFunc` does not run); one that carries any is checked as above.
   * @throws {UnauthorizedError} no alternative is satisfied (and the request carried a credential,
   * or sign-in is required), or `securityFunc` threw (its error is the `cause`, so error rules
   * can map it, to 403 for instance).
   */
  check(ctx: Context, req: PipelineRequest): Promise<void>;
}

/**
 * Compiles the security of a route: its own requirements, else the builder's global ones. An
 * empty list (`security: []`, or none at all), or one whose only requirement is `{}`, needs no
 * credential: `undefined`. OpenAPI 3.1 §4.8.30: the list holds alternatives (any one suffices);
 * the schemes of one requirement object are all needed; an empty object `{}` among them makes
 * sign-in optional — credentials that are sent are still checked.
 * @throws {RouteDeclarationError} a requirement names a scheme the builder does not have, or the
 * route needs credentials but no `securityFunc` option is set (a credential is never accepted
 * unverified).
 */
export function prepareSecurity(
  routeId: string,
  requirements: readonly SecurityRequirement[],
  schemes: ReadonlyMap<string, SecurityScheme<unknown>>,
  securityFunc: SecurityFunc | undefined,
): PreparedSecurity | undefined {
  // `{}` is the anonymous alternative: it makes sign-in optional, and is never matched itself.
  const signIns = requirements.filter((r) => Object.keys(r).length > 0);
  if (signIns.length === 0) return undefined;
  const optional = signIns.length < requirements.length;
  const alternatives = signIns.map((r) =>
    Object.keys(r).map((name) => {
      const scheme = schemes.get(name);
      if (scheme === undefined) throw new RouteDeclarationError(routeId, `security scheme ${JSON.stringify(name)} is not registered with api.addSecurityScheme`);
      return { name, scheme };
    }),
  );
  if (securityFunc === undefined) {
    throw new RouteDeclarationError(routeId, 'the route requires credentials but no securityFunc option verifies them (rest.withDefaultOptions({ securityFunc }) or route.withOptions)');
  }
  const challenges = [...new Set(alternatives.flat().map(({ scheme }) => scheme.challenge(REALM)).filter((c): c is string => c !== undefined))];
  const listed = [...new Set(alternatives.flat().map(({ scheme }) => scheme))];

  return {
    async check(ctx, req) {
      const source = credentialSource(req);
      let sawCredential = false;
      for (let i = 0; i < alternatives.length; i++) {
        const found = new Map<SecurityScheme<unknown>, unknown>();
        let ok = true;
        for (const { scheme } of alternatives[i] as { name: string; scheme: SecurityScheme<unknown> }[]) {
          const raw = scheme.read(source);
          if (raw === undefined) {
            ok = false;
            break;
          }
          sawCredential = true;
          try {
            found.set(scheme, scheme.codec === undefined ? raw : scheme.codec.decode(raw));
          } catch (err) {
            // A credential the scheme's codec refuses is invalid; a constraint that throws is a server bug (500).
            if (!(err instanceof DecodeError)) throw err;
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        ctx.set(credentialsKey, found);
        try {
          await securityFunc(ctx, req.fetchRequest?.() ?? (req.native instanceof Request ? req.native : undefined), [signIns[i] as SecurityRequirement]);
        } catch (err) {
          throw new UnauthorizedError('unauthorized', challenges, err);
        }
        // Sign-in was required and succeeded: the handler reads the principal as present.
        if (!optional) markSignedIn(ctx);
        return;
      }
      // Optional sign-in: nothing of any listed scheme was sent, so the request is anonymous.
      if (optional && !listed.some((scheme) => scheme.read(source) !== undefined)) return;
      throw new UnauthorizedError(sawCredential ? 'invalid credentials' : 'missing credentials', challenges);
    },
  };
}

/** Reads credentials from a pipeline request: headers, then the query and cookies, parsed on first use. */
function credentialSource(req: PipelineRequest): CredentialSource {
  let query: URLSearchParams | undefined;
  let cookies: Record<string, string | undefined> | undefined;
  return {
    header: (name) => req.header(name),
    query: (name) => (query ??= new URLSearchParams(req.rawQuery)).get(name) ?? undefined,
    cookie: (name) => {
      if (cookies === undefined) {
        const h = req.header('cookie');
        cookies = h === undefined ? {} : parseCookie(h);
      }
      return Object.prototype.hasOwnProperty.call(cookies, name) ? cookies[name] : undefined;
    },
  };
}
