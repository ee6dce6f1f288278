import { describe, expect, it } from 'vitest';
import { corsPolicy } from '../../declare/cors.js';
import { prepareFallback } from './prepare.js';

const req = (method: string, headers: Record<string, string> = {}) => ({ method, path: '/todos/1', native: undefined, header: (n: string) => headers[n] });
const header = (res: { headers: readonly (readonly [string, string])[] }, name: string) => res.headers.find(([n]) => n === name)?.[1];

describe('the answer to a request no route takes, one decision for every adapter', () => {
  const plain = prepareFallback({});

  it('is 404 when no route has the path', () => {
    expect(plain.unrouted(req('GET'), []).status).toBe(404);
  });

  it('is 405 with Allow: the routed methods once each, HEAD beside GET, sorted', () => {
    const res = plain.unrouted(req('DELETE'), ['PUT', 'GET', 'PUT']);
    expect(res.status).toBe(405);
    expect(header(res, 'allow')).toBe('GET, HEAD, PUT');
    expect(header(plain.unrouted(req('POST'), ['HEAD', 'GET']), 'allow')).toBe('GET, HEAD');
  });

  it('answers a CORS preflight with 204 when CORS is on, and 405 when it is off', () => {
    const preflight = req('OPTIONS', { origin: 'https://app.example.com', 'access-control-request-method': 'PUT' });
    expect(plain.unrouted(preflight, ['PUT']).status).toBe(405);
    const withCors = prepareFallback({}, corsPolicy({ origin: ['https://app.example.com'] }));
    const res = withCors.unrouted(preflight, ['PUT']);
    expect(res.status).toBe(204);
    expect(header(res, 'access-control-allow-methods')).toMatch(/PUT/);
  });
});
