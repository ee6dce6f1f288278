import { parseCookie } from 'cookie';
import { DecodeError, type Codec } from '@lib/codec';
import type { Context, ContextKey } from '../../declare/context.js';
import { MiddlewareError, MiddlewareInputError, MiddlewareOutputError, ParamError, RequestValidationError } from '../../declare/errors.js';
import { middlewareParamSpecs, type MiddlewareAttachment } from '../../declare/middleware.js';
import type { Observer } from '../../declare/options.js';
import type { ResponseMergeParam } from '../../declare/params.js';
import { RouteDeclarationError } from '../../declare/path-template.js';
import { Redirect } from '../../declare/redirect.js';
import { decodeParam, decodeStyled, isMultiValue, type RequestParamSpec } from '../../declare/param-values.js';
import { rawQueryPairs } from '../../declare/param-styles.js';
import { RAW_COOKIE, readStyled } from './styled-params.js';
import { matchErrorRule, type RouteHandle } from '../../declare/route.js';
import type { PipelineRequest } from './exchange.js';
import { observeSafely } from './observe.js';
import { encodeResponseFields } from './response-fields.js';

/** A route's middleware, compiled for serving. */
export interface PreparedMiddleware {
  /** The response header names the middleware may send (for CORS `Access-Control-Expose-Headers`). */
  readonly exposed: readonly string[];
  /**
   * Runs every middleware in order for one request, after the merge fields and before the
   * handler: decodes its `In`, calls its function, checks its `Out` and stores it in the context.
   * The header lines of each middleware that succeeded are appended to `lines` (`set-cookie` may
   * repeat), for whatever response is sent.
   * @throws {MiddlewareInputError} `In` failed a merge field's codec or `inCodec.validate` (400).
   * @throws {MiddlewareError} the function threw an error no rule of the route matches (400).
   * @throws the function's own error when a rule of the route matches it, or a `Redirect`.
   * @throws {MiddlewareOutputError} `Out` failed `outCodec` or a response merge field (500).
   */
  run(ctx: Context, req: PipelineRequest, value: unknown, lines: [string, string][]): Promise<void>;
}

interface Compiled {
  readonly name: string;
  readonly params: readonly RequestParamSpec[];
  /** Lookup names: header names lower-case. */
  readonly lookup: readonly string[];
  readonly multi: readonly boolean[];
  readonly inCodec: Codec<unknown>;
  readonly outCodec: Codec<unknown>;
  readonly responseParams: readonly ResponseMergeParam<unknown, unknown>[];
  readonly receive: (ctx: Context, req: unknown, input: unknown) => unknown;
  readonly key: ContextKey<unknown>;
}

/**
 * Compiles the middleware the server runs for a route (`handle.serverMiddleware`: the builder's,
 * then the route's). `undefined` when there is none.
 * @throws {RouteDeclarationError} a middleware has no server function (only `clientMW` or `withSend`).
 */
export function prepareMiddleware(handle: RouteHandle<unknown, unknown>, observer: Observer | undefined): PreparedMiddleware | undefined {
  const routeId = handle.route.id;
  const attachments: readonly MiddlewareAttachment[] = handle.serverMiddleware;
  if (attachments.length === 0) return undefined;
  const compiled: Compiled[] = attachments.map((a) => {
    const mw = a.middleware;
    if (a.receive === undefined) {
      throw new RouteDeclarationError(routeId, `middleware ${JSON.stringify(mw.name)} has no server function: bind one with route.handleMW(mw, fn) or bundle one with mw.withReceive(fn)`);
    }
    const params = middlewareParamSpecs(mw);
    return {
      name: mw.name,
      params,
      lookup: params.map((p) => (p.kind === 'header' ? p.name.toLowerCase() : p.name)),
      multi: params.map((p) => p.kind === 'query' && isMultiValue(p.codec)),
      inCodec: mw.declaration.inCodec,
      outCodec: mw.declaration.outCodec,
      responseParams: mw.responseParams,
      receive: a.receive,
      key: mw.contextKey,
    };
  });
  const exposed = compiled.flatMap((c) => c.responseParams.filter((p) => p.kind === 'responseHeader').map((p) => p.name));

  return {
    exposed,
    async run(ctx, req, value, lines) {
      let query: URLSearchParams | undefined;
      let cookies: Record<string, string | undefined> | undefined;
      // What styled parameters read: the query's pairs as they arrived, cookie values as sent.
      let pairs: readonly (readonly [string, string])[] | undefined;
      let rawCookies: Record<string, string | undefined> | undefined;
      const queryPairs = (): readonly (readonly [string, string])[] => (pairs ??= rawQueryPairs(req.rawQuery));
      const sentCookies = (): Record<string, string | undefined> => {
        if (rawCookies === undefined) {
          const header = req.header('cookie');
          rawCookies = header === undefined ? {} : parseCookie(header, RAW_COOKIE);
        }
        return rawCookies;
      };
      for (const m of compiled) {
        const input: Record<string, unknown> = {};
        let invalid: Error[] | undefined;
        for (let i = 0; i < m.params.length; i++) {
          const p = m.params[i] as RequestParamSpec;
          const name = m.lookup[i] as string;
          if (p.style !== undefined) {
            try {
              const style = p.style;
              const v = decodeStyled(p, () => readStyled(p, style, req, handle.route.path, queryPairs, sentCookies));
              if (v !== undefined) p.merge?.set(input, v);
            } catch (err) {
              if (!(err instanceof ParamError)) throw err;
              if (observer !== undefined) observeSafely(() => observer.onValidationError?.({ route: routeId, location: p.kind, name: p.name, error: err }));
              (invalid ??= []).push(err as Error);
            }
            continue;
          }
          let raw: string | readonly string[] | undefined;
          if (p.kind === 'header') raw = req.header(name);
          else if (p.kind === 'query') {
            query ??= new URLSearchParams(req.rawQuery);
            raw = m.multi[i] === true ? query.getAll(name) : (query.get(name) ?? undefined);
          } else {
            if (cookies === undefined) {
              const header = req.header('cookie');
              cookies = header === undefined ? {} : parseCookie(header);
            }
            raw = cookies[name];
          }
          try {
            const v = decodeParam(p, raw);
            if (v !== undefined) p.merge?.set(input, v);
          } catch (err) {
            // A constraint that throws is a server bug (500), not the client's input.
            if (!(err instanceof ParamError)) throw err;
            if (observer !== undefined) observeSafely(() => observer.onValidationError?.({ route: routeId, location: p.kind, name: p.name, error: err }));
            (invalid ??= []).push(err as Error);
          }
        }
        if (invalid !== undefined) throw new MiddlewareInputError(m.name, invalid.length === 1 ? invalid[0] : new RequestValidationError(invalid));
        try {
          m.inCodec.validate(input);
        } catch (err) {
          if (!(err instanceof DecodeError)) throw err;
          throw new MiddlewareInputError(m.name, err);
        }

        let out: unknown;
        try {
          out = await m.receive(ctx, value, input);
        } catch (err) {
          // A rule of the route sees the original error first; a redirect is an answer, not a failure.
          if (err instanceof Redirect || err instanceof MiddlewareError || matchErrorRule(handle.errorRules, err) !== undefined) throw err;
          throw new MiddlewareError(m.name, err);
        }
        let own: [string, string][];
        try {
          m.outCodec.encode(out);
          own = encodeResponseFields(m.responseParams, out, false);
        } catch (err) {
          throw new MiddlewareOutputError(m.name, err);
        }
        ctx.set(m.key, out);
        lines.push(...own);
      }
    },
  };
}
