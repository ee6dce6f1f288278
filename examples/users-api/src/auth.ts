/**
 * Bearer tokens for the users API: compact JWTs (RFC 7519) signed with HMAC-SHA256 (RFC 7518
 * §3.2), as an identity provider would issue them. The service only verifies them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as codec from '@lib/codec';
import * as validate from '@lib/validate';

/** A JWT-shaped credential: three base64url parts (header, claims, signature). */
export const jwt = codec
  .string()
  .refine(validate.maxLength(4096), validate.pattern(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/))
  .withDescription('A JWT signed with HS256.');

/** The claims the service reads. */
export interface Claims {
  /** The subject: who the token speaks for. */
  readonly sub: string;
  /** Expiry, in seconds since the epoch. */
  readonly exp: number;
}

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** Signs `claims` with `secret` (HS256). */
export function signToken(claims: Claims, secret: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(claims));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** Thrown when a token's signature, algorithm or expiry is wrong. */
export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(`invalid token: ${reason}`);
    this.name = 'InvalidTokenError';
  }
}

/**
 * Verifies a token's HS256 signature (in constant time) and expiry, and returns its claims.
 * @throws {InvalidTokenError}
 */
export function verifyToken(token: string, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): Claims {
  const [head = '', body = '', sig = ''] = token.split('.');
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new InvalidTokenError('bad signature');
  let header: unknown;
  let claims: unknown;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidTokenError('malformed');
  }
  if ((header as { alg?: unknown }).alg !== 'HS256') throw new InvalidTokenError('unexpected algorithm');
  const { sub, exp } = claims as { sub?: unknown; exp?: unknown };
  if (typeof sub !== 'string' || typeof exp !== 'number') throw new InvalidTokenError('missing claims');
  if (exp <= nowSeconds) throw new InvalidTokenError('expired');
  return { sub, exp };
}
