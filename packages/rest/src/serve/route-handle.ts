// The server-side handle of a registered route: the client-side handle of `declare/route.ts`,
// and what only a server does with the declaration — error mapping, merge fields and parameter
// checks. It lives here, made by the builder (`Server.newHandle`), so that a browser client,
// which holds only client-side handles, carries none of this code.
import type { VarField } from '@lib/codec';
import { json } from '@lib/format';
import type { Context } from '../declare/context.js';
import type { ErrorRule } from '../declare/error-rules.js';
import { ErrorPatternResponse } from '../declare/http-errors.js';
import type { Observer } from '../declare/options.js';
import { decodeParam, decodeStyled, isMultiValue } from '../declare/param-values.js';
import { readStyledQuery, readStyledText, type ResolvedParamStyle } from '../declare/param-styles.js';
import type { ParamLocation } from '../declare/params.js';
import { matchErrorRule, RouteHandle, type RegisteredRouteHandle } from '../declare/route.js';
import { observeErrorMapping } from './pipeline/observe.js';

/** The handle `route.registerHandle(api)` returns and `api.handles()` lists. See {@link RegisteredRouteHandle}. */
export class ServerRouteHandle<Req, Resp> extends RouteHandle<Req, Resp> implements RegisteredRouteHandle<Req, Resp> {
  /** All request merge fields, flat, for `codec.decodeVars`. */
  mergeFields(): VarField<Req>[] {
    return this.#fields();
  }
  /** Path merge fields. */
  pathMergeFields(): VarField<Req>[] {
    return this.#fields('path');
  }
  /** Query merge fields. */
  queryMergeFields(): VarField<Req>[] {
    return this.#fields('query');
  }
  /** Header merge fields. */
  headerMergeFields(): VarField<Req>[] {
    return this.#fields('header');
  }
  /** Cookie merge fields. */
  cookieMergeFields(): VarField<Req>[] {
    return this.#fields('cookie');
  }

  #fields(kind?: ParamLocation): VarField<Req>[] {
    const out: VarField<Req>[] = [];
    for (const p of this.requestParams) {
      if (p.merge === undefined || (kind !== undefined && p.kind !== kind)) continue;
      const m = p.merge;
      out.push({ name: m.name, codec: m.codec, set: (req: Req, v: unknown) => m.set(req, v) });
    }
    return out;
  }

  /** The first error rule matching `err`, with its match. */
  matchRule(err: unknown): { readonly rule: ErrorRule; readonly value: unknown } | undefined {
    return matchErrorRule(this.errorRules, err);
  }

  /** The status of the first error rule matching `err`. */
  errorStatusFor(err: unknown): number | undefined {
    return this.matchRule(err)?.rule.status;
  }

  /**
   * The typed response of the first matching rule when it is an `ErrorRespond` pattern;
   * `undefined` when no rule matches or the rule writes no typed body.
   * @throws when the pattern's `mapFn` throws or its body cannot be encoded.
   */
  errorResponseFor(err: unknown): ErrorPatternResponse | undefined {
    const m = this.matchRule(err);
    if (m === undefined || m.rule.optionKind !== 'errorPattern' || m.rule.action !== 'respond') return undefined;
    const body = json(m.rule.body).marshal(m.value);
    return new ErrorPatternResponse(m.rule.status, m.value, body, { cause: err }, m.rule.matchHeaders(err) as Readonly<Record<string, unknown>> | undefined);
  }

  /**
   * As {@link ServerRouteHandle.errorResponseFor}, and reports to `observer`: the match or miss
   * (`onErrorPattern`), an `ErrorLog` match (`onErrorLog`), and the span attributes
   * `http.route`, `http.response.status_code`, `error.type` and `error.pattern` (`onSpanTags`).
   * An observer that throws is ignored.
   */
  observeErrorResponseFor(_ctx: Context, observer: Observer | undefined, err: unknown): ErrorPatternResponse | undefined {
    const m = this.matchRule(err);
    // An error no rule maps answers the status the server's pipeline gives it (a 415 is a 415).
    const status = m?.rule.status ?? this.server?.errorStatus?.(err) ?? 500;
    if (observer !== undefined) observeErrorMapping(observer, this.route, m, status, err);
    return this.errorResponseFor(err);
  }

  #validate(kind: ParamLocation, lookup: (name: string) => string | undefined, decode?: (t: string) => string): void {
    for (const p of this.requestParams) {
      if (p.kind !== kind) continue;
      if (p.style === undefined) decodeParam(p, lookup(p.name));
      else {
        const text = lookup(p.name);
        decodeStyled(p, () => (text === undefined ? undefined : readStyledText(p.style as ResolvedParamStyle, text, decode)));
      }
    }
  }

  /**
   * Checks the declared query parameters; an array-valued one gets every value of its key, a
   * styled one (OpenAPI 3.1 §4.8.12.4) is read in its style from the decoded pairs (their
   * delimiters taken as delimiters). @throws {QueryParamError}
   */
  validateQuery(query: URLSearchParams): void {
    let pairs: [string, string][] | undefined;
    for (const p of this.requestParams) {
      if (p.kind !== 'query') continue;
      if (p.style === undefined) {
        decodeParam(p, isMultiValue(p.codec) ? query.getAll(p.name) : (query.get(p.name) ?? undefined));
        continue;
      }
      // Decoded values, escaped again so that reading them decodes nothing more.
      pairs ??= [...query].map(([k, v]) => [k, v.replaceAll('%', '%25').replaceAll('+', '%2B')]);
      const all = pairs;
      decodeStyled(p, () => readStyledQuery(p.style as ResolvedParamStyle, all));
    }
  }

  /** Checks the declared cookies. @throws {CookieParamError} */
  validateCookies(cookies: Readonly<Record<string, string>>): void {
    // Cookie values arrive decoded: a styled one's items are not decoded again.
    this.#validate('cookie', (n) => (Object.prototype.hasOwnProperty.call(cookies, n) ? cookies[n] : undefined), (t) => t);
  }

  /** Checks the declared request headers. @throws {HeaderParamError} */
  validateHeaders(headers: Headers): void {
    this.#validate('header', (n) => headers.get(n) ?? undefined);
  }
}
