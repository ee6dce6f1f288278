import type { Codec } from '@lib/codec';
import type { SecuritySchemeObject } from '@lib/openapi';
import { credentialsKey, type Context } from './context.js';
import { RequestBuildError } from './http-errors.js';

/** Where an API key travels (OpenAPI 3.1 Security Scheme Object `in`). */
export type ApiKeyLocation = 'header' | 'query' | 'cookie';

/** The OAuth 2.0 flows of an `oauth2` scheme, as OpenAPI 3.1 §4.8.29 describes them. */
export interface OAuthFlows {
  readonly implicit?: { readonly authorizationUrl: string; readonly refreshUrl?: string; readonly scopes: Readonly<Record<string, string>> };
  readonly password?: { readonly tokenUrl: string; readonly refreshUrl?: string; readonly scopes: Readonly<Record<string, string>> };
  readonly clientCredentials?: { readonly tokenUrl: string; readonly refreshUrl?: string; readonly scopes: Readonly<Record<string, string>> };
  readonly authorizationCode?: {
    readonly authorizationUrl: string;
    readonly tokenUrl: string;
    readonly refreshUrl?: string;
    readonly scopes: Readonly<Record<string, string>>;
  };
}

/** A client's source of one scheme's credential (`route.clientMW(scheme, fn)`). */
export interface CredentialProvider {
  readonly scheme: SecurityScheme<unknown>;
  /** Gives the credential for a call's request value; `undefined` sends none. */
  readonly send: (req: unknown) => unknown;
}

/** How a request is read for a credential: headers by lower-case name, query and cookies by name. */
export interface CredentialSource {
  header(name: string): string | undefined;
  query(name: string): string | undefined;
  cookie(name: string): string | undefined;
}

/** Where a client puts a credential: a header, a query entry or a cookie, with its wire value. */
export interface CredentialPlacement {
  readonly in: ApiKeyLocation;
  readonly name: string;
  readonly value: string;
}

const AUTHORIZATION = 'authorization';

/** The fields of a scheme; see the constructors. */
interface SchemeFields<C> {
  readonly object: SecuritySchemeObject;
  readonly codec: Codec<C> | undefined;
}

/**
 * A security scheme (OpenAPI 3.1 §4.8.27): where a request carries its credential and how it
 * is documented. The server reads the credential from its location, checks it with the scheme's
 * codec (`withCodec`), then calls the `securityFunc` option; the client writes it there. `C` is
 * the credential's decoded type (a string unless a codec says otherwise).
 *
 * Credentials by kind: `apiKeyScheme` — the value of the header, query parameter or cookie;
 * `bearerScheme`, `oauth2Scheme` and `openIdConnectScheme` — the token of
 * `Authorization: Bearer <token>` (RFC 6750 §2.1); `basicScheme` — the decoded
 * `user-id:password` text of `Authorization: Basic <base64>` (RFC 7617; see {@link basicCredentials}).
 */
export class SecurityScheme<C = string> {
  /** The Security Scheme Object this scheme is documented as. */
  readonly object: SecuritySchemeObject;
  /** The codec that checks (and types) the credential; `undefined` accepts any non-empty one. */
  readonly codec: Codec<C> | undefined;

  /** Use the constructors: {@link apiKeyScheme}, {@link bearerScheme}, {@link basicScheme}, {@link oauth2Scheme}, {@link openIdConnectScheme}. */
  constructor(fields: SchemeFields<C>) {
    this.object = fields.object;
    this.codec = fields.codec;
  }

  /** A copy whose credential is checked (and decoded) by `codec`: a credential it refuses is a 401. */
  withCodec<T>(codec: Codec<T>): SecurityScheme<T> {
    return new SecurityScheme<T>({ object: this.object, codec });
  }

  /** A copy with a `description` in the document. */
  withDescription(description: string): SecurityScheme<C> {
    return new SecurityScheme<C>({ object: { ...this.object, description }, codec: this.codec });
  }

  /**
   * The credential this scheme accepted for the current request, decoded by its codec: in a
   * `securityFunc`, a middleware or a handler. `undefined` when the route's security did not use
   * this scheme (another alternative matched, or the route needs no credentials). Use the same
   * scheme value you registered with `api.addSecurityScheme`.
   */
  credential(ctx: Context): C | undefined {
    return ctx.get(credentialsKey)?.get(this) as C | undefined;
  }

  /** True when the credential travels in `Authorization` (http, oauth2 and openIdConnect schemes). */
  get usesAuthorization(): boolean {
    return this.object.type !== 'apiKey';
  }

  /**
   * The raw credential of a request, or `undefined` when it carries none (or an `Authorization`
   * of another scheme, or an empty value). An `Authorization` scheme name is matched
   * case-insensitively (RFC 9110 §11.1).
   */
  read(source: CredentialSource): string | undefined {
    const o = this.object;
    if (o.type === 'apiKey') {
      const name = o.name ?? '';
      const v = o.in === 'header' ? source.header(name.toLowerCase()) : o.in === 'query' ? source.query(name) : source.cookie(name);
      return v === undefined || v === '' ? undefined : v;
    }
    const auth = source.header(AUTHORIZATION);
    if (auth === undefined) return undefined;
    const space = auth.indexOf(' ');
    if (space <= 0) return undefined;
    const scheme = auth.slice(0, space).toLowerCase();
    const param = auth.slice(space + 1).trim();
    if (param === '') return undefined;
    if (o.type === 'http' && o.scheme === 'basic') {
      if (scheme !== 'basic') return undefined;
      return decodeBase64Text(param);
    }
    return scheme === 'bearer' ? param : undefined;
  }

  /**
   * The placement of one call's credential: `send(req)` gives the value (`undefined`: no
   * credential), which is encoded and checked by the scheme's codec and placed where the scheme
   * says ({@link SecurityScheme.place}). The client calls this for each `route.clientMW(scheme, fn)`.
   * @throws {RequestBuildError} `send` threw, the codec refused the value, or it does not encode
   * to a non-empty string. Nothing is sent.
   */
  async placeFor(send: (req: unknown) => unknown, req: unknown): Promise<CredentialPlacement | undefined> {
    try {
      const value = (await send(req)) as C | undefined;
      if (value === undefined) return undefined;
      const wire = this.codec === undefined ? value : this.codec.encode(value);
      if (typeof wire !== 'string' || wire === '') throw new TypeError('a credential must encode to a non-empty string');
      this.codec?.decode(wire);
      return this.place(wire);
    } catch (err) {
      throw new RequestBuildError('the credential could not be given', err);
    }
  }

  /**
   * Where a client puts `credential` (its wire value: encoded by the codec when there is one).
   * @throws {TypeError} for a basic credential without `:` or a value that is not a valid field value.
   */
  place(credential: string): CredentialPlacement {
    const o = this.object;
    if (o.type === 'apiKey') return { in: o.in ?? 'header', name: o.name ?? '', value: credential };
    if (o.type === 'http' && o.scheme === 'basic') {
      if (!credential.includes(':')) throw new TypeError('a basic credential is "user-id:password"');
      return { in: 'header', name: 'Authorization', value: `Basic ${encodeBase64Text(credential)}` };
    }
    return { in: 'header', name: 'Authorization', value: `Bearer ${credential}` };
  }

  /**
   * The `WWW-Authenticate` challenge of this scheme for a 401 (RFC 9110 §11.6.1): `Bearer` (RFC
   * 6750 §3) or `Basic realm=…, charset="UTF-8"` (RFC 7617 §2); `undefined` for API keys, which
   * have no challenge.
   */
  challenge(realm: string): string | undefined {
    const o = this.object;
    if (o.type === 'apiKey') return undefined;
    if (o.type === 'http' && o.scheme === 'basic') return `Basic realm="${realm}", charset="UTF-8"`;
    return `Bearer realm="${realm}"`;
  }
}

function decodeBase64Text(b64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return undefined;
  try {
    const bin = atob(b64);
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function encodeBase64Text(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/**
 * The user-id and password of a basic credential (`user-id:password`, RFC 7617 §2: the user-id
 * ends at the first colon). `undefined` for text without a colon.
 */
export function basicCredentials(credential: string): { readonly userId: string; readonly password: string } | undefined {
  const colon = credential.indexOf(':');
  return colon === -1 ? undefined : { userId: credential.slice(0, colon), password: credential.slice(colon + 1) };
}

/** An API key in a header, query parameter or cookie named `name` (OpenAPI `type: apiKey`). */
export function apiKeyScheme(name: string, location: ApiKeyLocation): SecurityScheme<string> {
  return new SecurityScheme<string>({ object: { type: 'apiKey', name, in: location }, codec: undefined });
}

/** A bearer token in `Authorization: Bearer <token>` (RFC 6750; OpenAPI `type: http, scheme: bearer`). `bearerFormat` documents it (`JWT`). */
export function bearerScheme(bearerFormat?: string): SecurityScheme<string> {
  return new SecurityScheme<string>({ object: { type: 'http', scheme: 'bearer', ...(bearerFormat !== undefined && { bearerFormat }) }, codec: undefined });
}

/** HTTP Basic authentication, `Authorization: Basic <base64 of user-id:password>` (RFC 7617; OpenAPI `type: http, scheme: basic`). */
export function basicScheme(): SecurityScheme<string> {
  return new SecurityScheme<string>({ object: { type: 'http', scheme: 'basic' }, codec: undefined });
}

/** OAuth 2.0 (OpenAPI `type: oauth2` with its `flows`); requests carry the access token as a bearer token (RFC 6750). */
export function oauth2Scheme(flows: OAuthFlows): SecurityScheme<string> {
  return new SecurityScheme<string>({ object: { type: 'oauth2', flows: { ...flows } }, codec: undefined });
}

/** OpenID Connect discovery at `url` (OpenAPI `type: openIdConnect`); requests carry the ID or access token as a bearer token. */
export function openIdConnectScheme(url: string): SecurityScheme<string> {
  return new SecurityScheme<string>({ object: { type: 'openIdConnect', openIdConnectUrl: url }, codec: undefined });
}

/** A scheme from a Security Scheme Object given as data (`api.addSecurityScheme(name, { type: 'apiKey', … })`). */
export function schemeFromObject(object: SecuritySchemeObject): SecurityScheme<string> {
  return new SecurityScheme<string>({ object, codec: undefined });
}
