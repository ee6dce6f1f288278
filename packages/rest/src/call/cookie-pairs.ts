/**
 * The two pieces of cookie syntax a client needs: writing the `Cookie` request header and
 * reading the name and value of a `Set-Cookie` line. The server parses cookies with the `cookie`
 * package; the client keeps these few lines of its own so that a browser bundle does not carry a
 * whole cookie parser and serializer (and browsers send and hide cookies themselves anyway).
 * Both agree with the `cookie` package byte for byte: values are percent-encoded with
 * `encodeURIComponent` and decoded with `decodeURIComponent`, a malformed escape left as it is.
 */

/** cookie-name (RFC 6265 §4.1.1): visible US-ASCII except `;`, `=` — as the `cookie` package checks it. */
const COOKIE_NAME = /^[\u0021-\u003A\u003C\u003E-\u007E]+$/;

/**
 * The `Cookie` request header of `pairs` (RFC 6265 §4.2.1): `a=1; b=2`, in key order, each value
 * percent-encoded — but those named in `raw`, already written as their style writes them (a
 * styled cookie, `ids=3,4,5`). `undefined` when a name is not a cookie-name.
 */
export function cookieHeader(pairs: Readonly<Record<string, string>>, raw?: ReadonlySet<string>): string | undefined {
  const out: string[] = [];
  for (const name of Object.keys(pairs)) {
    if (!COOKIE_NAME.test(name)) return undefined;
    const value = pairs[name] as string;
    out.push(`${name}=${raw?.has(name) === true ? value : encodeURIComponent(value)}`);
  }
  return out.join('; ');
}

/**
 * The name and value of a `Set-Cookie` field line (RFC 6265 §5.2): the text before the first
 * `;`, split at its first `=` and trimmed of spaces and tabs; the value percent-decoded. A line
 * without `=` is a cookie with an empty name, as browsers take it.
 */
export function setCookiePair(line: string): readonly [name: string, value: string] {
  const end = line.indexOf(';');
  const pair = end === -1 ? line : line.slice(0, end);
  const eq = pair.indexOf('=');
  const name = eq === -1 ? '' : trim(pair.slice(0, eq));
  const raw = trim(eq === -1 ? pair : pair.slice(eq + 1));
  let value = raw;
  if (raw.includes('%')) {
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A malformed escape is kept as it is.
    }
  }
  return [name, value];
}

function trim(s: string): string {
  return s.replace(/^[ \t]+|[ \t]+$/g, '');
}
