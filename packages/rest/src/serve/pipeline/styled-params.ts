/**
 * Where the server reads a styled parameter's text (OpenAPI 3.1 §4.8.12.4) in a request: the
 * parameters stage and the middleware stage both read through here.
 */
import { percentDecode, rawPathSegment, readStyledQuery, readStyledText, type ResolvedParamStyle, type StyledRead } from '../../declare/param-styles.js';
import type { RequestParamSpec } from '../../declare/param-values.js';
import type { PipelineRequest } from './exchange.js';

/** Leaves a cookie value as it was sent (percent-encoded): a styled cookie's items are decoded after it is split. */
export const RAW_COOKIE: { readonly decode: (v: string) => string } = { decode: (v) => v };

/**
 * Reads a styled parameter's value from the request, as its style writes it: the query's pairs
 * (values as they arrived), a header's value, a cookie's value as sent, or the path segment as it
 * arrived when the adapter gives the raw path (its variable's segment, if it decodes to what the
 * router matched), else the router's decoded segment.
 * @throws {DecodeError} (constraint `style`) the text is not of the style.
 */
export function readStyled(p: RequestParamSpec, s: ResolvedParamStyle, req: PipelineRequest, template: string, pairs: () => readonly (readonly [string, string])[], rawCookies: () => Readonly<Record<string, string | undefined>> | undefined): StyledRead | undefined {
  if (s.location === 'query') return readStyledQuery(s, pairs());
  if (s.location === 'header') {
    const text = req.header(p.name.toLowerCase());
    return text === undefined ? undefined : readStyledText(s, text);
  }
  if (s.location === 'cookie') {
    const text = rawCookies()?.[p.name];
    return text === undefined ? undefined : readStyledText(s, text);
  }
  const decoded = req.pathParams[p.name];
  if (decoded === undefined) return undefined;
  const raw = req.rawPath === undefined ? undefined : rawPathSegment(template, req.rawPath, p.name);
  // The raw segment tells an escaped delimiter (`%2C`) from a delimiter; the router's decoded one cannot.
  if (raw !== undefined && percentDecode(raw) === decoded) return readStyledText(s, raw);
  return readStyledText(s, decoded, (t) => t);
}

