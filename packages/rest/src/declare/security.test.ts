import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import * as rest from '../index.js';

const source = (headers: Record<string, string>, query = '', cookies: Record<string, string> = {}): rest.CredentialSource => ({
  header: (n) => headers[n],
  query: (n) => new URLSearchParams(query).get(n) ?? undefined,
  cookie: (n) => cookies[n],
});

describe('security schemes', () => {
  it('read credentials from their location, and only from a matching Authorization scheme', () => {
    const bearer = rest.bearerScheme();
    expect(bearer.read(source({ authorization: 'Bearer abc' }))).toBe('abc');
    expect(bearer.read(source({ authorization: 'BEARER  abc ' }))).toBe('abc');
    for (const a of ['Basic abc', 'Bearer', 'Bearer ', 'abc']) expect(bearer.read(source({ authorization: a }))).toBeUndefined();
    const basic = rest.basicScheme();
    expect(basic.read(source({ authorization: `Basic ${btoa('ada:pa:ss')}` }))).toBe('ada:pa:ss');
    expect(basic.read(source({ authorization: 'Basic %%%' }))).toBeUndefined();
    expect(basic.read(source({ authorization: `Basic ${btoa('\xff\xfe')}` }))).toBeUndefined();
    expect(rest.basicCredentials('ada:pa:ss')).toEqual({ userId: 'ada', password: 'pa:ss' });
    expect(rest.basicCredentials('nocolon')).toBeUndefined();
    expect(rest.apiKeyScheme('X-Key', 'header').read(source({ 'x-key': 'k' }))).toBe('k');
    expect(rest.apiKeyScheme('key', 'query').read(source({}, 'key=q&key=r'))).toBe('q');
    expect(rest.apiKeyScheme('key', 'query').read(source({}, 'key='))).toBeUndefined();
    expect(rest.apiKeyScheme('sid', 'cookie').read(source({}, '', { sid: 'c' }))).toBe('c');
    expect(rest.oauth2Scheme({ clientCredentials: { tokenUrl: 'https://t', scopes: {} } }).read(source({ authorization: 'Bearer t' }))).toBe('t');
    expect(rest.openIdConnectScheme('https://id/.well-known/openid-configuration').read(source({ authorization: 'Bearer t' }))).toBe('t');
  });

  it('place credentials where the server reads them, and name their challenges', () => {
    expect(rest.bearerScheme().place('t')).toEqual({ in: 'header', name: 'Authorization', value: 'Bearer t' });
    expect(rest.basicScheme().place('ada:pw')).toEqual({ in: 'header', name: 'Authorization', value: `Basic ${btoa('ada:pw')}` });
    expect(() => rest.basicScheme().place('nocolon')).toThrow(TypeError);
    expect(rest.apiKeyScheme('sid', 'cookie').place('c')).toEqual({ in: 'cookie', name: 'sid', value: 'c' });
    expect(rest.bearerScheme().challenge('api')).toBe('Bearer realm="api"');
    expect(rest.basicScheme().challenge('api')).toBe('Basic realm="api", charset="UTF-8"');
    expect(rest.apiKeyScheme('k', 'header').challenge('api')).toBeUndefined();
  });

  it('document themselves as OpenAPI 3.1 Security Scheme Objects', () => {
    expect(rest.bearerScheme('JWT').withCodec(codec.string()).withDescription('d').object).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'd' });
    expect(rest.apiKeyScheme('k', 'query').object).toEqual({ type: 'apiKey', name: 'k', in: 'query' });
    expect(rest.openIdConnectScheme('https://x').object).toEqual({ type: 'openIdConnect', openIdConnectUrl: 'https://x' });
  });

  it('give a handler the credential they accepted, typed by their codec', () => {
    const num = rest.apiKeyScheme('n', 'header').withCodec(codec.intString());
    const ctx = new rest.Context(new AbortController().signal);
    expect(num.credential(ctx)).toBeUndefined();
    ctx.set(rest.credentialsKey, new Map([[num, 42]]));
    const n: number | undefined = num.credential(ctx);
    expect(n).toBe(42);
  });
});
