import { parseCookie, parseSetCookie, stringifyCookie } from 'cookie';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cookieHeader, setCookiePair } from './cookie-pairs.js';

// The client's cookie syntax must agree with the `cookie` package the server parses with.
const name = fc.stringMatching(/^[\u0021-\u003A\u003C\u003E-\u007E]{1,12}$/);

describe('cookieHeader', () => {
  it('writes what the cookie package writes, and the server reads the values back', () => {
    fc.assert(
      fc.property(fc.dictionary(name, fc.string({ unit: 'binary' })), (pairs) => {
        const mine = cookieHeader(pairs);
        let theirs: string | undefined;
        try {
          theirs = stringifyCookie(pairs);
        } catch {
          theirs = undefined; // a lone surrogate: encodeURIComponent throws in both
        }
        if (theirs === undefined) return;
        expect(mine).toBe(theirs);
        expect({ ...parseCookie(mine as string) }).toEqual({ ...pairs });
      }),
    );
  });

  it('refuses a name that is not a cookie-name', () => {
    expect(cookieHeader({ 'a b': '1' })).toBeUndefined();
    expect(cookieHeader({ 'a=b': '1' })).toBeUndefined();
    expect(cookieHeader({ '': '1' })).toBeUndefined();
    expect(cookieHeader({ ok: 'a;b c' })).toBe('ok=a%3Bb%20c');
  });
});

describe('setCookiePair', () => {
  it('reads the name and value the cookie package reads', () => {
    const line = fc.tuple(fc.string(), fc.oneof(fc.constant(''), fc.string().map((a) => `;${a}`))).map(([p, attrs]) => p + attrs);
    fc.assert(
      fc.property(line, (l) => {
        const c = parseSetCookie(l);
        expect(setCookiePair(l)).toEqual([c.name, c.value]);
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes escapes and keeps malformed ones', () => {
    expect(setCookiePair(' sid = a%20b ; Path=/; HttpOnly')).toEqual(['sid', 'a b']);
    expect(setCookiePair('sid=%E0%A4%A; Secure')).toEqual(['sid', '%E0%A4%A']);
    expect(setCookiePair('novalue')).toEqual(['', 'novalue']);
  });
});
