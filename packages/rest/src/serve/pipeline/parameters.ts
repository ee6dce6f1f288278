import { parseCookie } from 'cookie';
import { ParamError } from '../../declare/errors.js';
import type { Observer } from '../../declare/options.js';
import { decodeParam, decodeStyled, isMultiValue, type RequestParamSpec } from '../../declare/param-values.js';
import { rawQueryPairs } from '../../declare/param-styles.js';
import { RAW_COOKIE, readStyled } from './styled-params.js';
import type { PipelineRequest } from './exchange.js';
import { observeSafely } from './observe.js';
import type { Exchange, RoutePlan, Step } from './stage.js';

/** Request parameters in the order the server checks them: query, cookie, header, path. */
const PARAM_ORDER = { query: 0, cookie: 1, header: 2, path: 3 } as const;

/** `params` in the order the server checks them: query, cookie, header, path. */
export function inCheckOrder(params: readonly RequestParamSpec[]): readonly RequestParamSpec[] {
  return [...params].sort((a, b) => PARAM_ORDER[a.kind] - PARAM_ORDER[b.kind]);
}

/** Where a parameter decoder reports each failure: the observer and the route it is for. */
export interface ParamReport {
  readonly observer: Observer | undefined;
  readonly route: string;
}

/**
 * Decodes every query, header, cookie and path parameter of a request by its codec into
 * `decoded` (by position in `params`); returns the failures, each reported to the observer, or
 * `undefined` when none. With `multiValueQuery`, every value of a repeated scalar query key is
 * validated (the first is kept). A styled parameter (a list, an object, a `label` or `matrix`
 * value: OpenAPI 3.1 §4.8.12.4) is read in its style first (`param-styles.ts`). A constraint
 * that throws is a server bug (500): it is thrown.
 * @param template the route's path template, where a styled path variable's segment is found in the raw path.
 */
export function paramDecoder(params: readonly RequestParamSpec[], multiValueQuery: boolean, report: ParamReport, template = ''): (req: PipelineRequest, decoded: unknown[]) => Error[] | undefined {
  const needsQuery = params.some((p) => p.kind === 'query' && p.style === undefined);
  const needsCookies = params.some((p) => p.kind === 'cookie' && p.style === undefined);
  const styledCookies = params.some((p) => p.kind === 'cookie' && p.style !== undefined);
  // Header names are looked up lower-case; computed once here, not per request.
  const lookupNames = params.map((p) => (p.kind === 'header' ? p.name.toLowerCase() : p.name));
  // Array-valued query parameters receive every value of their key (OpenAPI style: form, explode: true).
  const multi = params.map((p) => p.kind === 'query' && isMultiValue(p.codec));
  const { observer, route } = report;
  return (req, decoded) => {
    let invalid: Error[] | undefined;
    const query = needsQuery ? new URLSearchParams(req.rawQuery) : undefined;
    const cookieHeader = needsCookies ? req.header('cookie') : undefined;
    const cookies = cookieHeader === undefined ? undefined : parseCookie(cookieHeader);
    // What styled parameters read, made once per request when the first asks.
    let pairs: readonly (readonly [string, string])[] | undefined;
    const queryPairs = (): readonly (readonly [string, string])[] => (pairs ??= rawQueryPairs(req.rawQuery));
    let raw: Readonly<Record<string, string | undefined>> | undefined | null = null;
    const rawCookies = (): Readonly<Record<string, string | undefined>> | undefined => {
      if (raw === null) {
        const header = styledCookies ? req.header('cookie') : undefined;
        raw = header === undefined ? undefined : parseCookie(header, RAW_COOKIE);
      }
      return raw;
    };
    for (let i = 0; i < params.length; i++) {
      const p = params[i] as RequestParamSpec;
      const style = p.style;
      if (style !== undefined) {
        try {
          decoded[i] = decodeStyled(p, () => readStyled(p, style, req, template, queryPairs, rawCookies));
        } catch (err) {
          if (!(err instanceof ParamError)) throw err;
          if (observer !== undefined) observeSafely(() => observer.onValidationError?.({ route, location: p.kind, name: p.name, error: err }));
          (invalid ??= []).push(err);
        }
        continue;
      }
      const name = lookupNames[i] as string;
      const raw =
        p.kind === 'query' ? (multi[i] === true ? query?.getAll(name) : (query?.get(name) ?? undefined))
        : p.kind === 'header' ? req.header(name)
        : p.kind === 'cookie' ? cookies?.[name]
        : req.pathParams[name];
      try {
        decoded[i] = decodeParam(p, raw);
        if (multiValueQuery && p.kind === 'query' && multi[i] !== true && query !== undefined) for (const extra of query.getAll(p.name).slice(1)) decodeParam(p, extra);
      } catch (err) {
        if (!(err instanceof ParamError)) throw err;
        if (observer !== undefined) observeSafely(() => observer.onValidationError?.({ route, location: p.kind, name: p.name, error: err }));
        (invalid ??= []).push(err);
      }
    }
    return invalid;
  };
}

/**
 * Writes each decoded parameter into the request value through its merge field. An absent
 * optional body (`undefined`) still receives them, as a fresh object, when any parameter has one.
 */
export function paramMerger(params: readonly RequestParamSpec[]): (value: unknown, decoded: readonly unknown[] | undefined) => unknown {
  const hasMergeFields = params.some((p) => p.merge !== undefined);
  return (value, decoded) => {
    const req = value === undefined && hasMergeFields ? {} : value;
    if (decoded === undefined) return req;
    for (let i = 0; i < params.length; i++) {
      const p = params[i] as RequestParamSpec;
      const v = decoded[i];
      if (p.merge !== undefined && v !== undefined) p.merge.set(req, v);
    }
    return req;
  };
}

/**
 * The parameters stage (400): decodes every parameter of a route that has any, each failure
 * reported and kept, so that the body stage refuses them with the body's in one 400. `undefined`
 * for a route without parameters.
 */
export function compileParameters(plan: RoutePlan): Step | undefined {
  const params = plan.params;
  if (params.length === 0) return undefined;
  const decode = paramDecoder(params, plan.options.multiValueQueryParams === true, { observer: plan.observer, route: plan.route.id }, plan.route.path);
  return {
    run(ex: Exchange): void {
      const decoded = new Array<unknown>(params.length);
      ex.decoded = decoded;
      ex.invalid = decode(ex.req, decoded);
    },
  };
}
