import * as codec from '@lib/codec';
import { json } from '@lib/format';
import { describe, expect, it } from 'vitest';
import { NotAcceptableError } from '../../declare/errors.js';
import { negotiator } from './negotiation.js';

const item = codec.object({ id: codec.int() });
const asJson = json(item);
const asProblem = json(item).withContentType('application/problem+json');
const formats = [asJson, asProblem];

describe('negotiation (406)', () => {
  it('gives the first format for no Accept, an empty one and */*', () => {
    const negotiate = negotiator(formats, false);
    expect(negotiate(undefined)).toBe(asJson);
    expect(negotiate('')).toBe(asJson);
    expect(negotiate('*/*')).toBe(asJson);
  });

  it('picks the format an Accept names, exactly or by q-value', () => {
    const negotiate = negotiator(formats, false);
    expect(negotiate('Application/Problem+JSON')).toBe(asProblem);
    expect(negotiate('application/json;q=0.2, application/problem+json;q=0.9')).toBe(asProblem);
    expect(negotiate('text/html, application/*;q=0.5')).toBe(asJson);
  });

  it('refuses an Accept no format matches, naming the media types it has', () => {
    const negotiate = negotiator(formats, false);
    expect(() => negotiate('text/html')).toThrow(NotAcceptableError);
    expect(() => negotiate('text/html')).toThrow('available: application/json, application/problem+json');
  });

  it('disregards such an Accept with disregardAccept: the first format', () => {
    expect(negotiator(formats, true)('text/html')).toBe(asJson);
  });
});
