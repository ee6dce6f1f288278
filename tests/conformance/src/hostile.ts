/**
 * Hostile input over raw sockets: generated requests (fast-check) that break every layer a
 * request goes through — request line, target, headers, framing, body, the values a route
 * copies into its response — written as exact bytes with `node:net`. Adapter-agnostic, like
 * {@link conformance}: each adapter's `*.hostile.test.ts` calls {@link hostile}.
 *
 * Every answer must have a documented status ({@link DOCUMENTED_STATUSES}), a JSON object
 * envelope as its body (with a string `error` for an error status), no stack trace, file path
 * or engine error text; the server must answer every complete request within
 * {@link REPLY_TIMEOUT_MS}, must never reject a promise unhandled, throw uncaught or exit, must
 * never touch `Object.prototype`, and must still answer `GET /health` with 200 after each batch.
 *
 * Generated batches record every violation (no shrinking: a hang costs seconds) and fail once,
 * grouped by case family and kind. The seed is random per run and printed with the failures;
 * `HOSTILE_SEED=<n>` replays a run, `HOSTILE_SCALE=<x>` multiplies the number of requests,
 * `HOSTILE_STATS=1` prints, per batch, how many requests of each family got which answer, with an example.
 */
import { Buffer } from 'node:buffer';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_SECRET, hostileServer, type HostileState } from './hostile-fixtures.js';
import type { AdapterUnderTest } from './suite.js';

/**
 * Every status a hostile request may get; anything else fails. Keep this list the single place
 * where the set is decided: each entry says which request earns it.
 */
export const DOCUMENTED_STATUSES: ReadonlyMap<number, string> = new Map([
  [200, 'OK: a valid request to a GET or HEAD route'],
  [201, 'Created: a valid POST (POST /things, /any, /tree answer 201)'],
  [204, 'No Content: a route that answers without a body'],
  [400, 'Bad Request: a parameter or body its codec refuses, or a request the HTTP parser refuses (request line, header syntax, framing, smuggling)'],
  [404, 'Not Found: no route matches the path'],
  [405, 'Method Not Allowed: a route matches the path but not the method (with Allow)'],
  [406, 'Not Acceptable: Accept matches no response format'],
  [417, 'Expectation Failed: an Expect other than 100-continue (RFC 9110 §10.1.1)'],
  [408, 'Request Timeout: headers or body not received in time'],
  [413, 'Content Too Large: a body over maxBodyBytes, or chunk extensions over the parser limit'],
  [414, 'URI Too Long: a request target over the server limit'],
  [415, 'Unsupported Media Type: a body whose Content-Type the route does not accept'],
  [431, 'Request Header Fields Too Large: headers (or the request line) over the parser limit'],
  [500, 'Internal Server Error: a handler error or a response its contract refuses, never with the error text'],
  [501, 'Not Implemented: a method or Transfer-Encoding the server does not implement'],
  [505, 'HTTP Version Not Supported: a request line with an HTTP version other than 1.x'],
]);

/** Milliseconds a complete request has to be answered; more is a hang (a failure). */
export const REPLY_TIMEOUT_MS = 5000;

// ---------------------------------------------------------------------------------------------
// The raw client
// ---------------------------------------------------------------------------------------------

/** One response read off the socket. */
export interface HttpReply {
  readonly statusLine: string;
  readonly status: number;
  /** `[lower-cased name, value]` in the order received; values are latin1 byte strings. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/** How an exchange ended. */
export type ExchangeEnd =
  /** The expected number of replies arrived (the client then closed). */
  | 'complete'
  /** The server closed the connection (FIN). */
  | 'closed'
  /** The connection was reset (ECONNRESET, EPIPE). */
  | 'reset'
  /** Nothing more arrived within the timeout. */
  | 'timeout'
  /** The client aborted the connection on purpose (truncated requests). */
  | 'aborted'
  /** The server could not be reached. */
  | 'refused';

export interface Exchange {
  readonly replies: readonly HttpReply[];
  readonly end: ExchangeEnd;
  /** Bytes received after the last complete reply. */
  readonly rest: Buffer;
  /** Why the bytes received are not a sequence of HTTP/1.x responses. */
  readonly malformed: string | undefined;
  readonly ms: number;
}

/** One write of a conversation; `afterReplies` holds it back until that many replies arrived. */
export interface Step {
  readonly bytes: Buffer;
  readonly afterReplies?: number;
}

export interface ExchangeOptions {
  /** Request methods in order: a reply to HEAD has no body. */
  readonly methods: readonly string[];
  /** Stop once this many replies arrived (default 1); `Infinity` reads until the server closes. */
  readonly replies?: number;
  readonly timeoutMs?: number;
  /** After the last write: keep the connection (default), half-close it, or abort it after `abortAfterMs`. */
  readonly finish?: 'keep' | 'half-close' | 'abort';
  readonly abortAfterMs?: number;
}

const EMPTY = Buffer.alloc(0);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface Parsed {
  readonly replies: HttpReply[];
  readonly rest: Buffer;
  readonly malformed: string | undefined;
}

/** Parses the responses in `data`; with `closed`, the server closed after the last byte. */
export function parseReplies(data: Buffer, methods: readonly string[], closed: boolean): Parsed {
  const replies: HttpReply[] = [];
  let off = 0;
  const stop = (malformed: string | undefined): Parsed => ({ replies, rest: data.subarray(off), malformed });
  const incomplete = (what: string): Parsed => stop(closed ? `connection closed inside ${what}` : undefined);
  while (off < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', off);
    if (headEnd === -1) return incomplete('a response head');
    const lines = data.subarray(off, headEnd).toString('latin1').split('\r\n');
    const statusLine = lines[0] ?? '';
    const m = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/.exec(statusLine);
    if (m === null) return stop(`not a status line: ${JSON.stringify(statusLine.slice(0, 100))}`);
    const status = Number(m[1]);
    const headers: (readonly [string, string])[] = [];
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':');
      const name = line.slice(0, i).toLowerCase();
      if (i <= 0 || !TOKEN.test(name)) return stop(`not a header line: ${JSON.stringify(line.slice(0, 100))}`);
      headers.push([name, line.slice(i + 1).replace(/^[ \t]+|[ \t]+$/g, '')]);
    }
    let p = headEnd + 4;
    if (status >= 100 && status < 200 && status !== 101) {
      off = p; // an interim response (100 Continue)
      continue;
    }
    const method = methods[replies.length] ?? 'GET';
    const values = (name: string): string[] => headers.filter(([k]) => k === name).map(([, v]) => v);
    const te = values('transfer-encoding').join(', ');
    const lengths = new Set(values('content-length').flatMap((v) => v.split(',').map((x) => x.trim())));
    let body: Buffer;
    if (method === 'HEAD' || status === 204 || status === 304 || status === 101) body = EMPTY;
    else if (te !== '' && /(?:^|,)\s*chunked\s*$/i.test(te)) {
      const parts: Buffer[] = [];
      for (;;) {
        const nl = data.indexOf('\r\n', p);
        if (nl === -1) return incomplete('a chunked body');
        const sizeText = data.subarray(p, nl).toString('latin1').split(';')[0] ?? '';
        if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return stop(`bad chunk size ${JSON.stringify(sizeText.slice(0, 40))}`);
        const size = parseInt(sizeText, 16);
        p = nl + 2;
        if (size === 0) {
          // Trailers, up to the empty line.
          for (;;) {
            const tl = data.indexOf('\r\n', p);
            if (tl === -1) return incomplete('chunked trailers');
            const empty = tl === p;
            p = tl + 2;
            if (empty) break;
          }
          break;
        }
        if (data.length < p + size + 2) return incomplete('a chunk');
        parts.push(data.subarray(p, p + size));
        if (data[p + size] !== 0x0d || data[p + size + 1] !== 0x0a) return stop('chunk data not followed by CRLF');
        p += size + 2;
      }
      body = Buffer.concat(parts);
    } else if (te === '' && lengths.size > 0) {
      const [only] = lengths;
      if (lengths.size > 1 || only === undefined || !/^\d{1,15}$/.test(only)) return stop(`bad Content-Length ${JSON.stringify(values('content-length'))}`);
      const n = Number(only);
      if (data.length < p + n) return incomplete('a response body');
      body = data.subarray(p, p + n);
      p += n;
    } else {
      // Delimited by the end of the connection.
      if (!closed) return stop(undefined);
      body = data.subarray(p);
      p = data.length;
    }
    replies.push({ statusLine, status, headers, body });
    off = p;
  }
  return stop(undefined);
}

/**
 * Opens a connection to `host:port`, writes `steps` in order and reads the replies, until
 * `options.replies` arrived, the connection closes, or `timeoutMs` passes. Never rejects, never
 * outlives its timeout, always destroys the socket.
 */
export function exchange(addr: { readonly host: string; readonly port: number }, steps: readonly Step[], options: ExchangeOptions): Promise<Exchange> {
  const { methods, replies: wanted = 1, timeoutMs = REPLY_TIMEOUT_MS, finish: after = 'keep', abortAfterMs = 100 } = options;
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let settled = false;
    let errorCode: string | undefined;
    let connected = false;
    let next = 0;
    let writing = false;
    let doneWriting = false;
    let replyCount = 0;
    let abortTimer: NodeJS.Timeout | undefined;
    const socket = connect({ host: addr.host, port: addr.port });
    const settle = (end: ExchangeEnd): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(abortTimer);
      socket.destroy();
      const data = Buffer.concat(chunks);
      const closed = end === 'closed' || end === 'reset';
      const parsed = parseReplies(data, methods, closed);
      resolve({ replies: parsed.replies, end, rest: parsed.rest, malformed: parsed.malformed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => settle('timeout'), timeoutMs);
    const writeNext = (): void => {
      if (settled || writing || !connected) return;
      const step = steps[next];
      if (step !== undefined) {
        if ((step.afterReplies ?? 0) > replyCount) return;
        next++;
        writing = true;
        socket.write(step.bytes, () => {
          writing = false;
          writeNext();
        });
        return;
      }
      if (doneWriting) return;
      doneWriting = true;
      if (after === 'half-close') socket.end();
      else if (after === 'abort') abortTimer = setTimeout(() => settle('aborted'), abortAfterMs);
    };
    socket.setNoDelay(true);
    socket.on('connect', () => {
      connected = true;
      writeNext();
    });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      const parsed = parseReplies(Buffer.concat(chunks), methods, false);
      replyCount = parsed.replies.length;
      if (replyCount >= wanted) settle('complete');
      else writeNext();
    });
    socket.on('error', (e: Error & { code?: string }) => {
      errorCode = e.code ?? 'error';
    });
    socket.on('end', () => settle('closed'));
    socket.on('close', () => settle(errorCode === undefined ? 'closed' : !connected ? 'refused' : 'reset'));
  });
}

// ---------------------------------------------------------------------------------------------
// Cases and how an answer is judged
// ---------------------------------------------------------------------------------------------

/** A request (or a conversation) the suite sends, and what it knows about its answer. */
export interface Case {
  /** The generator family, for grouping failures: `paths/percent`, `framing/cl-te`, … */
  readonly label: string;
  readonly steps: readonly Step[];
  readonly methods: readonly string[];
  /** Replies to wait for (default 1); `Infinity` reads until the server closes. */
  readonly replies?: number;
  /** Statuses allowed for each reply, when the case knows better than the documented set. */
  readonly expect?: readonly (readonly number[] | undefined)[];
  /** Truncated requests: the client half-closes or aborts; no reply is then required. */
  readonly finish?: 'keep' | 'half-close' | 'abort';
  /** With `finish: 'abort'`: milliseconds to wait for an answer before aborting (default 100). */
  readonly abortAfterMs?: number;
  readonly timeoutMs?: number;
}

/** One broken promise of the server. */
export interface Violation {
  readonly label: string;
  readonly kind: string;
  readonly detail: string;
  /** The request, abridged. */
  readonly request: string;
  /** The reply, abridged. */
  readonly reply: string;
}

const LEAKS: readonly (readonly [string, RegExp])[] = [
  ['a stack frame', /(?:^|\n)\s*at (?:async )?(?:new )?[^\s()]+ \(|\bat (?:async )?(?:file:\/\/)?\/?[\w.\-/]+:\d+:\d+/],
  ['a source file position', /[\w-]\.(?:[cm]?[jt]sx?):\d*/],
  ['a workspace path', /\/work\//],
  ['node_modules', /node_modules/],
  ['node internals', /node:internal|\binternal\/[\w/]+\.js/],
  ['a JavaScript error class', /\b(?:TypeError|RangeError|ReferenceError|SyntaxError|URIError|EvalError|AggregateError|InternalError)\b/],
  [
    'an engine error message',
    /Maximum call stack|Cannot read propert|Cannot set propert|Cannot convert|is not a function|is not iterable|is not defined|is not a constructor|Invalid character in header|Invalid value .{0,120}for header|ERR_[A-Z][A-Z_]{3,}|\[object Object\]|out of memory|Unexpected error/,
  ],
  ['the handler error text', new RegExp(HOSTILE_SECRET)],
];

const fatalUTF8 = new TextDecoder('utf-8', { fatal: true });

/** `%XX` decoded, as latin1 and as UTF-8, for what a reply may legitimately echo. */
function requestTexts(c: Case): string[] {
  const raw = Buffer.concat(c.steps.map((s) => s.bytes));
  const latin1 = raw.toString('latin1');
  const decoded = Buffer.from(latin1.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
  return [latin1, raw.toString('utf8'), decoded.toString('latin1'), decoded.toString('utf8')];
}

function abridge(s: string, max = 200): string {
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s) + (s.length > max ? ` (${s.length} bytes)` : '');
}

function describeRequest(c: Case): string {
  return abridge(Buffer.concat(c.steps.map((s) => s.bytes)).toString('latin1'));
}

function describeReplies(ex: Exchange): string {
  const replies = ex.replies.map((r) => `${r.status} ${abridge(r.body.toString('utf8'), 160)}`);
  return `[${replies.join(' | ')}] ${ex.end} after ${Math.round(ex.ms)} ms${ex.rest.length > 0 ? `, ${ex.rest.length} more bytes ${abridge(ex.rest.toString('latin1'), 80)}` : ''}`;
}

const header = (r: HttpReply, name: string): string | undefined => r.headers.find(([k]) => k === name)?.[1];

/** Checks one exchange against every promise; returns what broke. */
export function judge(c: Case, ex: Exchange): Violation[] {
  const out: Violation[] = [];
  const add = (kind: string, detail: string): void => {
    out.push({ label: c.label, kind, detail, request: describeRequest(c), reply: describeReplies(ex) });
  };
  const truncated = c.finish === 'half-close' || c.finish === 'abort';
  const wanted = c.replies ?? 1;
  if (ex.end === 'refused') add('server down', 'connection refused: the server is gone');
  if (ex.malformed !== undefined) add('malformed response', ex.malformed);
  if (ex.end === 'timeout') {
    if (ex.replies.length < Math.min(wanted, c.methods.length) && !truncated) add('hang', 'no complete answer within the timeout');
    else if (wanted === Infinity || c.finish === 'half-close') add('hang', 'the connection stayed open after the last answer (Connection: close, or the client closed)');
  }
  if (!truncated && ex.end !== 'refused' && ex.end !== 'timeout' && ex.malformed === undefined) {
    if (ex.replies.length === 0) add('no response', `the connection ended (${ex.end}) without any answer`);
    else if (ex.replies.length < c.methods.length && wanted > 1) {
      const last = ex.replies[ex.replies.length - 1];
      if (last !== undefined && !/\bclose\b/i.test(header(last, 'connection') ?? '')) {
        add('dropped request', `${ex.replies.length} answers to ${c.methods.length} requests, the last without Connection: close`);
      }
    }
  }
  if (ex.replies.length > c.methods.length) add('extra response', `${ex.replies.length} answers to ${c.methods.length} request(s): a smuggled or desynchronised request`);
  const texts = requestTexts(c);
  ex.replies.forEach((r, i) => {
    const method = c.methods[i] ?? 'GET';
    if (!DOCUMENTED_STATUSES.has(r.status)) add('undocumented status', `${r.statusLine}`);
    const allowed = c.expect?.[i];
    if (allowed !== undefined && !allowed.includes(r.status)) add('unexpected status', `${r.status}, expected ${allowed.join(' or ')} for request ${i + 1}`);
    // The envelope.
    const bodyless = method === 'HEAD' || r.status === 204 || r.status === 304;
    if (r.body.length === 0) {
      if (r.status >= 400 && !bodyless) add('no envelope', `${r.status} without a body`);
    } else {
      const type = header(r, 'content-type') ?? '';
      if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) add('no envelope', `a ${r.status} body with Content-Type ${JSON.stringify(type)}`);
      let text: string | undefined;
      try {
        text = fatalUTF8.decode(r.body);
      } catch {
        add('no envelope', `a ${r.status} body that is not UTF-8`);
      }
      if (text !== undefined) {
        let value: unknown;
        let parsed = true;
        try {
          value = JSON.parse(text);
        } catch {
          parsed = false;
          add('no envelope', `a ${r.status} body that is not JSON`);
        }
        if (parsed) {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) add('no envelope', `a ${r.status} body that is not a JSON object`);
          else if (r.status >= 400 && typeof (value as { error?: unknown }).error !== 'string') add('no envelope', `a ${r.status} body without a string "error"`);
        }
      }
    }
    // Headers: no control characters, nothing injected.
    for (const [name, value] of r.headers) {
      if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) add('bad response header', `${name} carries a control character`);
      if (name === 'x-injected' || name === 'injected') add('header injection', `a response header ${name} made of input`);
      if (name === 'set-cookie' && /^\s*injected\s*=/i.test(value)) add('header injection', 'a Set-Cookie made of input');
    }
    // No stack trace, path, or error text the request did not bring itself.
    const replyText = `${r.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${r.body.toString('utf8')}`;
    for (const [what, re] of LEAKS) {
      const m = re.exec(replyText);
      if (m !== null && !texts.some((t) => re.test(t))) add('leak', `${what}: ${abridge(m[0], 60)}`);
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Building requests
// ---------------------------------------------------------------------------------------------

/** A string whose characters are bytes (latin1): how the suite writes raw bytes into heads. */
type ByteString = string;
/** UTF-8 bytes of `s` as a byte string. */
const u8 = (s: string): ByteString => Buffer.from(s, 'utf8').toString('latin1');
/** Every byte of `s`'s UTF-8 percent-encoded except unreserved characters. */
const pct = (s: string): string =>
  [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

type Headers = readonly (readonly [ByteString, ByteString])[];
const HOST: readonly [string, string] = ['Host', 'hostile.test'];
const CLOSE: readonly [string, string] = ['Connection', 'close'];
/** `Host` and `Connection: close`, then `extra`, as a list to push onto. */
const base = (...extra: (readonly [string, string])[]): [string, string][] => [HOST, CLOSE, ...extra].map(([k, v]): [string, string] => [k, v]);

/** The bytes of one request: request line, headers as given, blank line, body. */
function rawRequest(method: ByteString, target: ByteString, headers: Headers, body: Buffer = EMPTY, version: ByteString = 'HTTP/1.1'): Buffer {
  const head = `${method} ${target} ${version}\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** `body` in chunked encoding, cut at `cuts` (fractions of its length). */
function chunked(body: Buffer, cuts: readonly number[] = []): Buffer {
  const points = [...new Set(cuts.map((f) => Math.floor(f * body.length)))].filter((x) => x > 0 && x < body.length).sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let prev = 0;
  for (const p of [...points, body.length]) {
    if (p > prev) parts.push(Buffer.from(`${(p - prev).toString(16)}\r\n`, 'latin1'), body.subarray(prev, p), Buffer.from('\r\n', 'latin1'));
    prev = p;
  }
  parts.push(Buffer.from('0\r\n\r\n', 'latin1'));
  return Buffer.concat(parts);
}

/** `bytes` written in several writes, cut at `cuts` (fractions of its length). */
function fragments(bytes: Buffer, cuts: readonly number[]): Step[] {
  const points = [...new Set(cuts.map((f) => Math.floor(f * bytes.length)))].filter((x) => x > 0 && x < bytes.length).sort((a, b) => a - b);
  const steps: Step[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    steps.push({ bytes: bytes.subarray(prev, p) });
    prev = p;
  }
  return steps;
}

/** A one-request case, maybe written in fragments. */
function single(label: string, method: string, bytes: Buffer, more: Partial<Case> & { readonly cuts?: readonly number[] } = {}): Case {
  const { cuts = [], ...rest } = more;
  return { label, methods: [method], steps: fragments(bytes, cuts), ...rest };
}

const cutsArb = fc.oneof({ arbitrary: fc.constant([] as number[]), weight: 3 }, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }));

const KB100 = 100 * 1024;
const deepArray = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number, key = 'a'): string => `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;

/** Percent tricks, for path segments and query values. */
const PERCENT_TRICKS = [
  '%', '%z', '%zz', '%2', '%%', '%00', '%2e%2e', '%2E%2E', '..', '.', '%2e', '%2f', '%2F', '%5c', '%5C', '\\', '//', '%C0%AE', '%c0%ae%c0%ae', '%C0%AF',
  '%E0%80%AE', '%E2%98%83', '%FF', '%fe%ff', '%ED%A0%80', '%F4%90%80%80', '%F0%9F%92%A9', '%EF%BB%BF', '%25', '%252e', '%u002e', '%0D%0A', '%0a', '%0d',
  '%01', '%7F', '%09', '%20', '+', ';', ';a=b', '%3B', '@', ':', '~', '*', "'", '"', '%22', '%27', '<x>', '%3C', '{id}', ':id', '&', '=', '%26', '%3D',
  '#', '?', '%3F', '%23', '$', ',', '!', '(', ')', '[', ']', '|', '^', '`',
] as const;
/** Raw bytes no client should put in a request target. */
const RAW_TARGET_TRICKS = [' ', '\t', '\x00', '\x01', '\x7f', u8('é'), u8('☃'), '\xff', '\r', '\n'] as const;

const plainWord = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const anyText = fc.string({ unit: 'binary', maxLength: 12 });
const pathSegment = fc.oneof(
  { arbitrary: fc.constantFrom(...PERCENT_TRICKS), weight: 6 },
  { arbitrary: plainWord, weight: 3 },
  { arbitrary: anyText.map(pct), weight: 2 },
  { arbitrary: fc.array(fc.constantFrom(...PERCENT_TRICKS), { minLength: 2, maxLength: 4 }).map((a) => a.join('')), weight: 2 },
  { arbitrary: fc.constantFrom(...RAW_TARGET_TRICKS), weight: 1 },
  { arbitrary: fc.constant('a'.repeat(600)), weight: 1 },
);
const queryValue = fc.oneof(
  { arbitrary: fc.constantFrom(...PERCENT_TRICKS), weight: 5 },
  { arbitrary: plainWord, weight: 3 },
  { arbitrary: anyText.map(pct), weight: 2 },
  { arbitrary: fc.array(fc.constantFrom(...PERCENT_TRICKS), { minLength: 2, maxLength: 5 }).map((a) => a.join('')), weight: 2 },
  { arbitrary: fc.constantFrom('', '1', '-1', '1.5', '1e3', '0x10', '99999999999999999999', 'true'), weight: 2 },
);
const queryKey = fc.oneof(
  { arbitrary: fc.constantFrom('ref', 'n', 'x'), weight: 5 },
  { arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '__proto__[polluted]', 'constructor[prototype][polluted]', '__proto__.polluted', 'hasOwnProperty', 'toString'), weight: 2 },
  { arbitrary: fc.constantFrom('', '%', '%zz', '%00', 'ref%00', 'r%65f', 'REF', 'ref[]', 'ref[0]', '=', '&'), weight: 2 },
);
const queryString = fc
  .tuple(fc.array(fc.tuple(queryKey, fc.option(queryValue, { nil: undefined })), { maxLength: 6 }), fc.constantFrom('&', '&', '&', ';', '&&'))
  .map(([pairs, sep]) => pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join(sep));

// ---------------------------------------------------------------------------------------------
// Batches
// ---------------------------------------------------------------------------------------------

const STANDARD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'] as const;
const KNOWN_TARGETS = ['/health', '/items/1', '/any', '/things', '/echo-header?ref=x', '/nope', '/health?x=1', '//health', '/health/', '/HEALTH'] as const;

/** Request lines: methods (standard, lower-case, unknown, invalid), targets and versions. */
const requestLineCases = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constantFrom(...STANDARD_METHODS), weight: 4 },
      { arbitrary: fc.constantFrom(...STANDARD_METHODS).map((m) => m.toLowerCase()), weight: 2 },
      { arbitrary: fc.constantFrom(...STANDARD_METHODS).map((m) => `${m[0]}${m.slice(1).toLowerCase()}`), weight: 1 },
      { arbitrary: fc.constantFrom('FOO', 'PROPFIND', 'M-SEARCH', 'PURGE', 'QUERY', 'LINK', 'BREW', 'X', 'ACL', 'SEARCH', 'MKCOL', 'SOURCE', 'PRI', 'GETS', 'POSTX'), weight: 3 },
      { arbitrary: fc.stringMatching(/^[A-Z!#$%&'*+.^_`|~-]{1,12}$/), weight: 2 },
      { arbitrary: fc.constantFrom('', 'G ET', 'GET\x00', 'GE\tT', u8('GÉT'), '(GET)', 'GET:', '"GET"', 'G/ET', 'A'.repeat(1024), '\x7f', 'GET\x80', 'G\rET', '\r\nGET'), weight: 2 },
    ),
    fc.oneof(
      { arbitrary: fc.constantFrom(...KNOWN_TARGETS), weight: 5 },
      { arbitrary: fc.constantFrom('*', 'http://hostile.test/health', 'https://evil.test/health', 'hostile.test:80', 'health', '', '/health#frag', '\\health', '/%', u8('/é')), weight: 2 },
    ),
    fc.oneof(
      { arbitrary: fc.constant('HTTP/1.1'), weight: 8 },
      { arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/2', 'HTTP/3', 'HTTP/0.9', 'HTTP/1.2', 'HTTP/9.9', 'http/1.1', 'HTTP/1.01', 'HTTP/11', 'HTTP/-1.1', 'HTTP/1.1 ', 'HTTPS/1.1', 'HTTP/1.1\x00', 'ICE/1.0', 'RTSP/1.0'), weight: 2 },
    ),
    fc.option(fc.constantFrom('{}', '{"a":1}'), { nil: undefined, freq: 3 }),
    fc.oneof({ arbitrary: fc.constant(true), weight: 6 }, { arbitrary: fc.constant(false), weight: 1 }),
    cutsArb,
  )
  .map(([method, target, version, body, withHost, cuts]) => {
    const headers = withHost ? base() : [[...CLOSE] as [string, string]];
    if (body !== undefined) headers.push(['Content-Type', 'application/json'], ['Content-Length', String(body.length)]);
    return single('request-line', method, rawRequest(method, target, headers, Buffer.from(body ?? '', 'latin1'), version), { cuts });
  });

/** Targets: percent tricks in paths and queries, repeated keys, 100 KB URLs. */
const targetCases = fc
  .tuple(
    fc.oneof(
      // A route's own path: the query reaches its parameters.
      { arbitrary: fc.constantFrom('/health', '/echo-header', '/echo-cookie', '/items/abc').map((p) => [p, []] as const), weight: 5 },
      // `/items/{id}` with one tricky segment: it reaches the path parameter.
      { arbitrary: pathSegment.map((seg) => ['/items/', [seg]] as const), weight: 3 },
      // Anything below any prefix.
      {
        arbitrary: fc.tuple(fc.constantFrom('/health', '/items', '/items/', '/echo-header', '/things', '/any', '/', '//', '/nope'), fc.array(pathSegment, { maxLength: 5 })),
        weight: 3,
      },
    ),
    fc.option(queryString, { nil: undefined, freq: 4 }),
    fc.oneof({ arbitrary: fc.constant(0), weight: 12 }, { arbitrary: fc.constantFrom(KB100, 20 * 1024, 8 * 1024), weight: 1 }),
    fc.constantFrom('path', 'query'),
    fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'DELETE'),
    cutsArb,
  )
  .map(([[prefix, segments], query, pad, padWhere, method, cuts]) => {
    let path = segments.length === 0 ? prefix : `${prefix}${prefix.endsWith('/') ? '' : '/'}${segments.join('/')}`;
    let q = query;
    if (pad > 0 && padWhere === 'path') path += 'a'.repeat(pad);
    if (pad > 0 && padWhere === 'query') q = `${q ?? 'ref=x'}&pad=${'a'.repeat(pad)}`;
    const target = q === undefined ? path : `${path}?${q}`;
    const label = pad > 0 ? `target/long-${padWhere}` : /[\s\x00-\x1f\x7f-\xff]/.test(target) ? 'target/raw-bytes' : 'target/percent';
    return single(label, method, rawRequest(method, target, [HOST, CLOSE, ['X-Tenant', 'acme'], ['Cookie', 'session=s1']]), { cuts });
  });

const headerName = fc.oneof(
  { arbitrary: fc.constantFrom('X-Tenant', 'Cookie', 'Accept', 'Content-Type', 'X-Custom', 'Host', 'Accept-Encoding', 'Authorization', 'X-Forwarded-For', 'Range', 'If-None-Match'), weight: 4 },
  { arbitrary: fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/), weight: 3 },
  { arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'), weight: 1 },
  { arbitrary: fc.constantFrom('', ' X', 'X ', 'X\tY', 'X\rY', 'X\nY', 'X\x00Y', u8('Ünï'), '\x80', '\xff', '(x)', '"x"', 'x y', '@', 'X\x7f', 'X/Y', '{x}', 'X\x01'), weight: 2 },
);
const headerValue = fc.oneof(
  { arbitrary: fc.stringMatching(/^[\x21-\x7e]{0,30}$/), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 10 }).map(u8), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      'a\rb', 'a\nb', 'a\r\nX-Injected: 1', 'a\x00b', '\x01', u8('☃'), '\xff\xfe', '\xe9', ' lead', 'trail ', '\t', '', '"quoted"', 'a;b=c', 'a,b', 'a\r\n b', 'a\r\n\tb',
      '\r\n', 'x'.repeat(8000), '%E2%98%83', '%0D%0A', 'application/json', '*/*', 'text/html;q=0.1', 'session=s1', '__proto__=1', '=====',
      `a\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: hostile.test\r\n\r\n`,
    ),
    weight: 3,
  },
  { arbitrary: fc.constant('v'.repeat(KB100)), weight: 1 },
);
/** 1000 headers of one kind. */
const headerFlood = fc.constantFrom('distinct', 'x-tenant', 'cookie', 'accept', 'empty').map((kind): [string, string][] =>
  Array.from({ length: 1000 }, (_, i): [string, string] =>
    kind === 'distinct' ? [`X-H${i}`, String(i)]
    : kind === 'x-tenant' ? ['X-Tenant', `t${i}`]
    : kind === 'cookie' ? ['Cookie', `c${i}=${i}`]
    : kind === 'accept' ? ['Accept', 'application/json']
    : [`X-E${i}`, ''],
  ),
);

/** Headers: invalid names and values, CR/LF/NUL/8-bit bytes, 100 KB values, 1000 headers. */
const headerCases = fc
  .tuple(
    fc.oneof({ arbitrary: fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 }), weight: 14 }, { arbitrary: headerFlood, weight: 1 }),
    fc.constantFrom('/health', '/items/abc', '/echo-header?ref=x', '/any', '/nope'),
    cutsArb,
  )
  .map(([extra, target, cuts]) => {
    const post = target === '/any';
    const body = Buffer.from('{"a":1}', 'latin1');
    const first = base();
    if (post) first.push(['Content-Type', 'application/json'], ['Content-Length', String(body.length)]);
    const headers = [...first, ...extra];
    const label = extra.length >= 1000 ? 'headers/1000' : extra.some(([k, v]) => k.length + v.length > 50_000) ? 'headers/100KB' : 'headers/fuzz';
    const method = post ? 'POST' : 'GET';
    return single(label, method, rawRequest(method, target, headers, post ? body : EMPTY), { cuts });
  });

const SMUGGLED = 'GET /smuggled HTTP/1.1\r\nHost: hostile.test\r\n\r\n';
const jsonBody = fc.constantFrom('{}', '{"a":1}', '{"name":"x","count":1,"tags":[],"owner":{"id":"o","level":1}}', '[1,2,3]');

/**
 * Framing: duplicate Content-Length, Content-Length with Transfer-Encoding, Transfer-Encoding
 * variants, invalid chunked bodies, obsolete line folding, each maybe followed by a smuggled
 * request. Every request here is complete or invalid (never a valid prefix the server must wait
 * on), and says `Connection: close`: the server must answer once and close. Two exceptions rely
 * on a documented promise: a declared Content-Length over `maxBodyBytes` (2 000 000,
 * 9 007 199 254 740 993) is answered at once (413, or the answer of a route that reads no body).
 */
const framingCases = fc
  .tuple(
    fc.constantFrom('dup-cl', 'cl-te', 'te', 'bad-chunks', 'cl-syntax', 'obs-fold'),
    jsonBody,
    fc.nat({ max: 1000 }),
    fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
    fc.boolean(),
    fc.constantFrom('/any', '/any', '/things', '/health', '/nope'),
    fc.nat(),
  )
  .map(([family, json, r, chunkCuts, smuggle, target, pick]) => {
    const body = Buffer.from(json, 'latin1');
    const n = body.length;
    const method = target === '/health' || target === '/nope' ? (pick % 2 === 0 ? 'GET' : 'POST') : 'POST';
    const headers = base(['Content-Type', 'application/json']);
    let payload: Buffer = body;
    const choose = <T>(xs: readonly T[]): T => xs[pick % xs.length] as T;
    switch (family) {
      case 'dup-cl': {
        const second = choose([String(n), String(n + 1), String(Math.max(0, n - 1)), `${n}, ${n}`, `${n},${n + 1}`, '0']);
        headers.push(['Content-Length', String(n)], ['Content-Length', second]);
        if (r % 2 === 0) headers.reverse();
        break;
      }
      case 'cl-te': {
        payload = chunked(body, chunkCuts);
        const cl = choose([0, 4, n, payload.length, Math.max(0, payload.length - 5)]);
        const pair: [string, string][] = [['Content-Length', String(Math.min(cl, payload.length))], ['Transfer-Encoding', choose(['chunked', 'chunked', ' chunked', 'Chunked'])]];
        headers.push(...(r % 2 === 0 ? pair : pair.reverse()));
        break;
      }
      case 'te': {
        payload = chunked(body, chunkCuts);
        const value = choose([
          'chunked', 'chunked, identity', 'identity, chunked', 'identity', 'gzip', 'gzip, chunked', 'chunked, gzip', 'xchunked', 'chunked ', 'CHUNKED', 'chunked;q=1',
          'chunked\x00', 'chunk', 'chunked, chunked', u8('chünked'), '', ',chunked', 'chunked,', '"chunked"', 'deflate',
        ]);
        const name = choose(['Transfer-Encoding', 'transfer-encoding', 'Transfer-Encoding', 'Transfer-Encoding ', 'Transfer_Encoding', ' Transfer-Encoding', 'Transfer-Encoding\t', 'TRANSFER-ENCODING']);
        headers.push([name, value]);
        if (r % 3 === 0) headers.push(['Transfer-Encoding', choose(['chunked', 'identity', 'gzip'])]);
        break;
      }
      case 'bad-chunks': {
        const chunks = choose([
          'zz\r\nab\r\n0\r\n\r\n', '0x2\r\nab\r\n0\r\n\r\n', '-1\r\nab\r\n0\r\n\r\n', ' 2\r\nab\r\n0\r\n\r\n', '2 \r\nab\r\n0\r\n\r\n', '2\r\nabc\r\n0\r\n\r\n',
          'ffffffffffffffffffff\r\nab\r\n0\r\n\r\n', '2;ext=1\r\n{}\r\n0\r\n\r\n', `2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`, '2\n{}\n0\n\n', '2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n',
          '2\r\n{}\r\n0\r\nX-Bad\r\n\r\n', '2\r\n{}0\r\n\r\n', '\r\n\r\n', '2\r\n{}\r\n0\r\nContent-Length: 5\r\n\r\n', '2\r\n{}\r\n0;x\r\n\r\n', '2\r{}\r0\r\r',
          '2\r\n{}\r\n00000000000000000000000000000000000000000\r\n\r\n', `2\r\n{}\r\n0\r\nX-T: ${'t'.repeat(20_000)}\r\n\r\n`,
        ]);
        payload = Buffer.from(chunks, 'latin1');
        headers.push(['Transfer-Encoding', 'chunked']);
        break;
      }
      case 'cl-syntax': {
        const value = choose(['-1', '+2', ' 2', '2 ', '0x2', '2.0', '2e0', '1_0', '', 'abc', '99999999999999999999999', '2, 2', '2,3', u8('٢'), '0002', '2\x00', '18446744073709551617', '9007199254740993', '2000000']);
        headers.push(['Content-Length', value]);
        payload = Buffer.from('{}', 'latin1');
        break;
      }
      case 'obs-fold': {
        const folded = choose<[string, string]>([
          ['X-Folded', 'a\r\n b'],
          ['Content-Type', 'application/\r\n json'],
          ['Transfer-Encoding', '\r\n chunked'],
          ['Content-Length', `\r\n ${n}`],
          ['Host', 'a\r\n\tb'],
          ['X-Tenant', 'acme\r\n  corp'],
        ]);
        headers.push(folded);
        if (folded[0] === 'Transfer-Encoding') payload = chunked(body, chunkCuts);
        else if (folded[0] !== 'Content-Length') headers.push(['Content-Length', String(n)]);
        break;
      }
    }
    const bytes = Buffer.concat([rawRequest(method, target, headers, payload), Buffer.from(smuggle ? SMUGGLED : '', 'latin1')]);
    return single(`framing/${family}${smuggle ? '+smuggled' : ''}`, method, bytes, { replies: Infinity });
  });

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json; charset=latin1', 'application/json; charset="utf-8"', 'application/json;;;',
  'text/plain', '', 'application/json\x00', 'application/json, text/plain', 'application/*', '*/*', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded',
  'application/jsonx', 'application/json-patch+json', 'application/problem+json', ' application/json', 'application/json ; charset=utf-8', u8('application/jsön'),
] as const;

/** Raw numbers and words spliced into JSON where a value goes. */
const NUMERIC_LITERALS = [
  '1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0', '1.0', '1.5', '9007199254740993', '-9007199254740993', '0x10', 'NaN', 'Infinity', '-Infinity', '01',
  '1e309', '4.9e-324', '.5', '5.', '+1', '1_000', 'true', 'null', '"1"', '[]', '{}', '[1]',
] as const;

/** A `POST /things` body: the right shape with one field replaced, or none. */
const thingJSON = fc
  .tuple(
    fc.record({
      name: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('boom', '', '__proto__', 'constructor')),
      count: fc.integer(),
      tags: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
      owner: fc.record({ id: fc.string({ maxLength: 6 }), level: fc.integer({ min: -5, max: 5 }) }),
    }),
    fc.option(fc.tuple(fc.constantFrom('name', 'count', 'tags', 'owner', 'owner.level', 'owner.id', 'note', 'tags.0'), fc.oneof(fc.constantFrom(...NUMERIC_LITERALS), fc.json({ maxDepth: 2 }))), {
      nil: undefined,
      freq: 2,
    }),
  )
  .map(([t, swap]) => {
    if (swap === undefined) return JSON.stringify(t);
    const [field, literal] = swap;
    const marker = '"\u0000SWAP\u0000"';
    const v: Record<string, unknown> = { ...t, owner: { ...t.owner }, tags: [...t.tags] };
    const [a, b] = field.split('.') as [string, string | undefined];
    if (b === undefined) v[a] = marker;
    else if (a === 'owner') (v.owner as Record<string, unknown>)[b] = marker;
    else (v.tags as unknown[])[0] = marker;
    return JSON.stringify(v).replace(JSON.stringify(marker), literal);
  });

const PROTO_BODIES = [
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"prototype":{"polluted":1}}',
  '{"__proto__":{"toString":"x","valueOf":1,"hasOwnProperty":2}}',
  '{"__proto__":[]}',
  '{"__proto__":null}',
  '[{"__proto__":{"polluted":1}}]',
  '{"a":{"__proto__":{"polluted":1}}}',
  '{"a":{"a":{"constructor":{"prototype":{"polluted":1}}}}}',
  '{"name":"x","count":1,"tags":[],"owner":{"id":"o","level":1,"__proto__":{"polluted":1}}}',
  '{"name":"x","count":1,"tags":{"__proto__":{"length":1}},"owner":{"id":"o","level":1}}',
  '{"name":"x","count":1,"tags":[],"owner":{"constructor":{"prototype":{"polluted":1}},"id":"o","level":1}}',
  '{"__proto__":{"polluted":1},"name":"x","count":1,"tags":[],"owner":{"id":"o","level":1}}',
  '{"constructor":{"prototype":{"polluted":1}},"name":"x","count":1,"tags":[],"owner":{"id":"o","level":1},"note":"n"}',
  '{"__proto__":{"__proto__":{"polluted":1}}}',
] as const;

const INVALID_JSON = [
  '{', '}', '{"a":}', '{"a":1,}', "{'a':1}", '{a:1}', '{"a":1}{"b":2}', '{"a":1} x', '/* c */{}', '{"a":1 // c\n}', 'nul', 'tru', '"abc', '"\\x41"', '"\\u12"', '[1,]',
  '{"a" 1}', '\x00', '{"a":"\x01"}', '{"a":"\n"}', 'undefined', '{"a":NaN}', '{"a":Infinity}', '0x1', '[', ']', '{"__proto__":', '"\\ud800"', '{"a":1}\x00',
] as const;

/** Byte-level corruptions of a JSON text: invalid UTF-8 inside a string, BOMs. */
const INVALID_BYTES: readonly (readonly [string, (json: string) => Buffer])[] = [
  ['ff', (j) => Buffer.concat([Buffer.from('{"name":"', 'latin1'), Buffer.from([0xff]), Buffer.from(j.slice(1) === '' ? '"}' : `",${j.slice(1)}`, 'latin1')])],
  ['overlong', () => Buffer.from('{"name":"\xc0\xae","count":1,"tags":[],"owner":{"id":"o","level":1}}', 'latin1')],
  ['surrogate', () => Buffer.from('{"name":"\xed\xa0\x80","count":1,"tags":[],"owner":{"id":"o","level":1}}', 'latin1')],
  ['cut', () => Buffer.from('{"name":"\xe2\x98","count":1,"tags":[],"owner":{"id":"o","level":1}}', 'latin1')],
  ['continuation', () => Buffer.from('{"name":"\x80\x80","count":1,"tags":[],"owner":{"id":"o","level":1}}', 'latin1')],
  ['bom', (j) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(j, 'utf8')])],
  ['double-bom', (j) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from(j, 'utf8')])],
  ['utf16le-bom', (j) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(j, 'utf16le')])],
  ['utf16le', (j) => Buffer.from(j, 'utf16le')],
  ['latin1', () => Buffer.from('{"name":"caf\xe9","count":1,"tags":[],"owner":{"id":"o","level":1}}', 'latin1')],
];

/** Bodies: shapes, wrong types, huge numbers, prototype keys, invalid JSON and UTF-8, deep nesting. */
const bodyText = fc.oneof(
  { arbitrary: thingJSON.map((j) => ['body/thing', Buffer.from(j, 'utf8')] as const), weight: 6 },
  { arbitrary: fc.json({ maxDepth: 4 }).map((j) => ['body/json', Buffer.from(j, 'utf8')] as const), weight: 3 },
  { arbitrary: fc.constantFrom(...PROTO_BODIES).map((j) => ['body/proto', Buffer.from(j, 'utf8')] as const), weight: 3 },
  { arbitrary: fc.constantFrom(...INVALID_JSON).map((j) => ['body/invalid-json', Buffer.from(j, 'latin1')] as const), weight: 2 },
  { arbitrary: fc.tuple(thingJSON, fc.nat()).map(([j, k]) => ['body/truncated-json', Buffer.from(j.slice(0, k % Math.max(1, j.length)), 'utf8')] as const), weight: 2 },
  {
    arbitrary: fc.tuple(fc.constantFrom(...INVALID_BYTES), thingJSON).map(([[name, make], j]) => [name.includes('bom') || name.startsWith('utf16') ? 'body/bom' : 'body/invalid-utf8', make(j)] as const),
    weight: 2,
  },
  {
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('array', 'object', 'mixed')).map(([depth, kind]) => {
      const text = kind === 'array' ? deepArray(depth) : kind === 'object' ? deepObject(depth) : `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`;
      return ['body/deep', Buffer.from(text, 'latin1')] as const;
    }),
    weight: 1,
  },
  { arbitrary: fc.constantFrom('', ' ', '\r\n', 'null', 'true', '[]', '""', '0', '{}', '"__proto__"').map((j) => ['body/scalar', Buffer.from(j, 'latin1')] as const), weight: 1 },
);

/** `POST /things`, `/any` and `/tree` with the bodies above, a Content-Type, maybe chunked. */
const bodyCases = fc
  .tuple(
    bodyText,
    fc.constantFrom('/things', '/things', '/any', '/tree'),
    fc.oneof({ arbitrary: fc.constant('application/json'), weight: 8 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 }, { arbitrary: fc.constant(undefined), weight: 1 }),
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: fc.constantFrom('application/xml', '*/*', 'application/json;q=0', 'text/*', '', '\x00', 'application/json, */*;q=0.1'), weight: 1 }),
    fc.oneof({ arbitrary: fc.constant('length'), weight: 3 }, { arbitrary: fc.constant('chunked'), weight: 1 }),
    fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
    fc.oneof({ arbitrary: fc.constant('POST'), weight: 10 }, { arbitrary: fc.constantFrom('PUT', 'PATCH'), weight: 1 }),
    cutsArb,
  )
  .map(([[label, body], target, type, accept, framing, chunkCuts, method, cuts]) => {
    const headers = base();
    if (type !== undefined) headers.push(['Content-Type', type]);
    if (accept !== undefined) headers.push(['Accept', accept]);
    headers.push(framing === 'length' ? ['Content-Length', String(body.length)] : ['Transfer-Encoding', 'chunked']);
    return single(label, method, rawRequest(method, target, headers, framing === 'length' ? body : chunked(body, chunkCuts)), { cuts });
  });

/** Values copied into a response header or cookie: CR, LF, controls, characters above U+00FF, quotes, semicolons. */
const ECHO_TRICKS = [
  '%E2%98%83', '%0D%0A', '%0D%0AX-Injected:%201', '%0d%0aSet-Cookie:%20injected=1', '%0AX-Injected:%201', '%0D', '%0A', '%01', '%00', '%7F', '%1F', '%FF', '%C3%A9', '%E9',
  '%C0%AE', '%F0%9F%92%A9', '%ED%A0%80', '%EF%BB%BF', '%22', '%3B', ';', '%3Binjected=1', '"', '%20lead', 'trail%20', '%20', '%09', '%', '%zz', '+', '%2B', ',', '=',
  '%3D', '\\', "'", 'a'.repeat(9000), u8('é'), '%2C%20Path=/', '; Domain=evil.test', '%3B%20Domain%3Devil.test',
] as const;
const echoValue = fc.oneof(
  { arbitrary: fc.constantFrom(...ECHO_TRICKS), weight: 4 },
  { arbitrary: fc.array(fc.oneof(fc.constantFrom(...ECHO_TRICKS), plainWord), { minLength: 2, maxLength: 5 }).map((a) => a.join('')), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 16 }).map(pct), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 16 }).map(pct), weight: 2 },
  { arbitrary: plainWord, weight: 1 },
);
const echoCases = fc
  .tuple(fc.constantFrom('/echo-header', '/echo-cookie'), fc.array(echoValue, { minLength: 1, maxLength: 2 }), fc.constantFrom('GET', 'GET', 'GET', 'HEAD'), cutsArb)
  .map(([path, values, method, cuts]) => {
    const target = `${path}?${values.map((v) => `ref=${v}`).join('&')}`;
    return single(`echo/${path.slice(6)}`, method, rawRequest(method, target, [HOST, CLOSE]), { cuts });
  });

const COOKIE_HEADERS = [
  'session=abc', 'session=', 'session', '=abc', 'session=a; session=b', 'session="quoted"', 'session=%E2%98%83', 'session=%ZZ', `session=${u8('☃')}`, ';;;', 'a=1;session=x',
  '__proto__=x; session=y', 'constructor=1; session=y', 'session=a\x01', `session=${'x'.repeat(8000)}`, 'session=a;', ' session = a ', 'SESSION=a', 'session=a=b', 'session=a,b',
  'session=\x7f', 'session=a\tb', 'session=\xff', 'toString=1; session=x', 'session=%00', 'session=%0D%0A',
  Array.from({ length: 1000 }, (_, i) => `c${i}=${i}`).join('; ') + '; session=last',
] as const;
const tenantValue = fc.oneof(
  { arbitrary: fc.constant('acme'), weight: 3 },
  { arbitrary: fc.constantFrom('', ' ', u8('☃'), '\xe9', '\xff', 'a\x01', '%E2%98%83', '"x"', 'a, b', 'x'.repeat(8000), '__proto__'), weight: 3 },
  { arbitrary: fc.stringMatching(/^[\x21-\x7e]{0,20}$/), weight: 2 },
);

/** `GET /items/{id}`: path, header, cookie and query parameters. */
const paramCases = fc
  .tuple(
    fc.oneof({ arbitrary: pathSegment, weight: 3 }, { arbitrary: plainWord, weight: 1 }),
    fc.option(fc.constantFrom('1', '-1', '1.5', '1e3', '0x10', '99999999999999999999', '', 'abc', '%E2%98%83', '%201', '+1', '-0', '9007199254740993', '1&n=2', '%00', '１'), {
      nil: undefined,
    }),
    fc.option(tenantValue, { nil: undefined, freq: 6 }),
    fc.array(fc.constantFrom(...COOKIE_HEADERS), { maxLength: 2 }),
    fc.array(fc.tuple(fc.constantFrom('X-Tenant', 'x-tenant', 'X-TENANT'), tenantValue), { maxLength: 2 }),
    fc.constantFrom('GET', 'GET', 'HEAD'),
    cutsArb,
  )
  .map(([id, n, tenant, cookies, moreTenants, method, cuts]) => {
    const headers = base();
    if (tenant !== undefined) headers.push(['X-Tenant', tenant]);
    headers.push(...moreTenants, ...cookies.map((c): [string, string] => ['Cookie', c]));
    const target = `/items/${id}${n === undefined ? '' : `?n=${n}`}`;
    return single('params', method, rawRequest(method, target, headers), { cuts });
  });

/** Requests whose answer is known, for conversations on one connection. */
const KNOWN: readonly { readonly method: string; readonly bytes: (close: boolean) => Buffer; readonly status: number }[] = [
  { method: 'GET', status: 200, bytes: (c) => rawRequest('GET', '/health', c ? [HOST, CLOSE] : [HOST]) },
  { method: 'HEAD', status: 200, bytes: (c) => rawRequest('HEAD', '/health', c ? [HOST, CLOSE] : [HOST]) },
  { method: 'GET', status: 404, bytes: (c) => rawRequest('GET', '/nope', c ? [HOST, CLOSE] : [HOST]) },
  { method: 'DELETE', status: 405, bytes: (c) => rawRequest('DELETE', '/health', c ? [HOST, CLOSE] : [HOST]) },
  { method: 'GET', status: 400, bytes: (c) => rawRequest('GET', '/items/x', c ? [HOST, CLOSE] : [HOST]) },
  { method: 'GET', status: 200, bytes: (c) => rawRequest('GET', '/items/x?n=2', [HOST, ...(c ? [CLOSE] : []), ['X-Tenant', 'acme'], ['Cookie', 'session=s1']]) },
  { method: 'POST', status: 201, bytes: (c) => rawRequest('POST', '/any', [HOST, ...(c ? [CLOSE] : []), ['Content-Type', 'application/json'], ['Content-Length', '7']], Buffer.from('{"a":1}')) },
  {
    method: 'POST',
    status: 201,
    bytes: (c) => rawRequest('POST', '/any', [HOST, ...(c ? [CLOSE] : []), ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], chunked(Buffer.from('{"a":[1,2]}'), [0.5])),
  },
  { method: 'POST', status: 400, bytes: (c) => rawRequest('POST', '/things', [HOST, ...(c ? [CLOSE] : []), ['Content-Type', 'application/json'], ['Content-Length', '2']], Buffer.from('{]')) },
  { method: 'POST', status: 415, bytes: (c) => rawRequest('POST', '/any', [HOST, ...(c ? [CLOSE] : []), ['Content-Type', 'text/plain'], ['Content-Length', '2']], Buffer.from('{}')) },
  { method: 'GET', status: 500, bytes: (c) => rawRequest('GET', '/echo-header?ref=%E2%98%83', c ? [HOST, CLOSE] : [HOST]) },
  { method: 'GET', status: 200, bytes: (c) => rawRequest('GET', '/echo-header?ref=ok', c ? [HOST, CLOSE] : [HOST]) },
];
const MALFORMED_LAST = ['HELLO\r\n\r\n', 'GET /health HTTP/1.1\r\nHost: hostile.test\r\nX-A: a\x00b\r\n\r\n', 'GET /health HTTP/9.9\r\n\r\n', 'GET /health HTTP/1.1\r\nBad Header\r\n\r\n'] as const;

/**
 * Keep-alive conversations: known requests on one connection, pipelined in one write or sent
 * one after the other's answer, ending with `Connection: close` or with a malformed request.
 * The answers must come in order, one per request, each with its known status, until one
 * carries `Connection: close`.
 */
const keepAliveCases = fc
  .tuple(
    fc.array(fc.nat({ max: KNOWN.length - 1 }), { minLength: 1, maxLength: 4 }),
    fc.option(fc.constantFrom(...MALFORMED_LAST), { nil: undefined, freq: 3 }),
    fc.constantFrom('pipelined', 'sequential'),
  )
  .map(([picks, malformed, mode]): Case => {
    const reqs = picks.map((i, k) => {
      const known = KNOWN[i] as (typeof KNOWN)[number];
      const last = k === picks.length - 1 && malformed === undefined;
      return { method: known.method, status: known.status, bytes: known.bytes(last) };
    });
    const all = malformed === undefined ? reqs : [...reqs, { method: 'GET', status: 400, bytes: Buffer.from(malformed, 'latin1') }];
    const steps: Step[] = mode === 'pipelined' ? [{ bytes: Buffer.concat(all.map((r) => r.bytes)) }] : all.map((r, i) => ({ bytes: r.bytes, afterReplies: i }));
    return {
      label: `keep-alive/${mode}${malformed === undefined ? '' : '+malformed'}`,
      methods: all.map((r) => r.method),
      expect: all.map((r) => [r.status]),
      steps,
      replies: Infinity,
    };
  });

/**
 * Truncated requests: a declared Content-Length larger than what is sent, a chunked body
 * without its last chunk, unfinished headers. The client then aborts, or half-closes and
 * waits for the server to close. No answer is required; any answer must be a valid one.
 */
const truncatedCases = fc
  .tuple(
    fc.constantFrom('content-length', 'chunked', 'headers', 'big-chunk'),
    fc.integer({ min: 10, max: 100_000 }),
    fc.double({ min: 0, max: 0.99, noNaN: true }),
    fc.constantFrom('half-close', 'abort') as fc.Arbitrary<'half-close' | 'abort'>,
    fc.constantFrom('/things', '/any', '/tree', '/health'),
  )
  .map(([family, declared, sentFraction, finish, target]): Case => {
    const method = target === '/health' ? 'GET' : 'POST';
    const json = Buffer.from(`{"name":"${'x'.repeat(Math.max(0, declared - 12))}"}`, 'latin1');
    let bytes: Buffer;
    if (family === 'content-length') {
      bytes = rawRequest(method, target, [HOST, CLOSE, ['Content-Type', 'application/json'], ['Content-Length', String(json.length)]], json.subarray(0, Math.floor(sentFraction * json.length)));
    } else if (family === 'chunked') {
      const full = chunked(json, [0.25, 0.5, 0.75]);
      bytes = rawRequest(method, target, [HOST, CLOSE, ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], full.subarray(0, Math.min(full.length - 5, Math.floor(sentFraction * full.length))));
    } else if (family === 'big-chunk') {
      bytes = rawRequest(method, target, [HOST, CLOSE, ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], Buffer.from('7fffffff\r\n{"a":', 'latin1'));
    } else {
      const full = rawRequest(method, target, [HOST, CLOSE, ['Content-Type', 'application/json'], ['Content-Length', '2']]);
      bytes = full.subarray(0, Math.max(1, Math.min(full.length - 3, Math.floor(sentFraction * full.length))));
    }
    return { label: `truncated/${family}/${finish}`, methods: [method], steps: [{ bytes }], finish, abortAfterMs: 50 };
  });

// ---------------------------------------------------------------------------------------------
// The suite
// ---------------------------------------------------------------------------------------------

/** Hangs after which a batch stops sending (each costs {@link REPLY_TIMEOUT_MS}). */
const MAX_HANGS = 2;
const SCALE = Number(process.env.HOSTILE_SCALE ?? '1') > 0 ? Number(process.env.HOSTILE_SCALE ?? '1') : 1;
const SEED = process.env.HOSTILE_SEED !== undefined ? Number(process.env.HOSTILE_SEED) : Math.floor(Math.random() * 2 ** 31);

interface Batch {
  readonly name: string;
  readonly cases: fc.Arbitrary<Case>;
  readonly runs: number;
  /** Milliseconds the batch may take; once past it (hangs), the rest is skipped and reported. */
  readonly budgetMs: number;
}

const BATCHES: readonly Batch[] = [
  { name: 'request lines: methods (standard, lower-case, unknown, invalid), targets, versions', cases: requestLineCases, runs: 300, budgetMs: 10_000 },
  { name: 'targets: percent tricks in paths and queries, repeated keys, 100 KB URLs', cases: targetCases, runs: 500, budgetMs: 10_000 },
  { name: 'headers: invalid names and values, CR/LF/NUL/8-bit, 100 KB values, 1000 headers', cases: headerCases, runs: 400, budgetMs: 10_000 },
  { name: 'framing: duplicate Content-Length, CL+TE, TE variants, bad chunks, obs-fold, smuggling', cases: framingCases, runs: 350, budgetMs: 10_000 },
  { name: 'bodies: shapes, wrong types, huge numbers, prototype keys, invalid JSON and UTF-8, BOMs, deep nesting', cases: bodyCases, runs: 700, budgetMs: 10_000 },
  { name: 'echo routes: input copied into a response header and a cookie', cases: echoCases, runs: 450, budgetMs: 10_000 },
  { name: 'parameters: path, header, cookie, query', cases: paramCases, runs: 350, budgetMs: 10_000 },
  { name: 'keep-alive: pipelined and sequential conversations', cases: keepAliveCases, runs: 120, budgetMs: 10_000 },
  { name: 'truncated requests: the client aborts or half-closes', cases: truncatedCases, runs: 40, budgetMs: 10_000 },
];

/** Own properties of the prototypes an attack would pollute, with their values. */
function prototypeSnapshot(): Map<string, unknown> {
  const snap = new Map<string, unknown>();
  for (const [name, proto] of [['Object', Object.prototype], ['Array', Array.prototype], ['Function', Function.prototype]] as const) {
    for (const key of Reflect.ownKeys(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      snap.set(`${name}.prototype.${String(key)}`, d === undefined ? undefined : 'value' in d ? d.value : [d.get, d.set]);
    }
  }
  return snap;
}

function prototypeChanges(before: Map<string, unknown>): string[] {
  const after = prototypeSnapshot();
  const changes: string[] = [];
  for (const [k, v] of after) {
    if (!before.has(k)) changes.push(`${k} added`);
    else {
      const old = before.get(k);
      const same = Array.isArray(old) && Array.isArray(v) ? old[0] === v[0] && old[1] === v[1] : Object.is(old, v);
      if (!same) changes.push(`${k} changed`);
    }
  }
  for (const k of before.keys()) if (!after.has(k)) changes.push(`${k} removed`);
  if (({} as { polluted?: unknown }).polluted !== undefined && !before.has('Object.prototype.polluted')) changes.push('({}).polluted is defined');
  return changes;
}

/** Violations grouped by family and kind, with one example each. */
function summarize(violations: readonly Violation[], title: string): string {
  const groups = new Map<string, { count: number; first: Violation }>();
  for (const v of violations) {
    const key = `${v.label} › ${v.kind}: ${v.detail}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { count: 1, first: v });
    else g.count++;
  }
  const lines = [`${title}: ${violations.length} violation(s) in ${groups.size} group(s); replay with HOSTILE_SEED=${SEED}`];
  for (const [key, { count, first }] of [...groups].sort((a, b) => b[1].count - a[1].count)) {
    lines.push(`  [${count}×] ${key}`, `        request: ${first.request}`, `        answer:  ${first.reply}`);
  }
  return lines.join('\n');
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function hostile(adapter: AdapterUnderTest): void {
  describe(`hostile input: ${adapter.name}`, () => {
    let addr = { host: '127.0.0.1', port: 0 };
    let stop: () => Promise<void> = () => Promise.resolve();
    let state: HostileState = { smuggled: 0, handled: 0 };
    /** What happened that must not: unhandled rejections, uncaught exceptions, exit calls. */
    const incidents: string[] = [];
    let current = '(between requests)';
    const onRejection = (reason: unknown): void => {
      incidents.push(`unhandled rejection during ${current}: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
    };
    const onException = (err: Error): void => {
      incidents.push(`uncaught exception during ${current}: ${err.stack ?? err.message}`);
    };
    const realExit = process.exit;
    let before = new Map<string, unknown>();

    beforeAll(async () => {
      process.on('unhandledRejection', onRejection);
      process.on('uncaughtException', onException);
      process.exit = ((code?: number | string | null) => {
        incidents.push(`process.exit(${String(code)}) during ${current}`);
        throw new Error(`process.exit(${String(code)}) called`);
      }) as typeof process.exit;
      before = prototypeSnapshot();
      const served = hostileServer();
      state = served.state;
      const { baseURL, stop: s } = await adapter.serve(served.api);
      stop = s;
      const u = new URL(baseURL);
      addr = { host: u.hostname, port: Number(u.port) };
    });

    afterAll(async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        // A server broken by the batches may never finish stopping: do not hang the run on it.
        await Promise.race([stop(), new Promise<void>((r) => (timer = setTimeout(r, 10_000)))]);
      } finally {
        clearTimeout(timer);
        process.off('unhandledRejection', onRejection);
        process.off('uncaughtException', onException);
        process.exit = realExit;
      }
    });

    /** Sends one case and judges the exchange. */
    const run = async (c: Case): Promise<{ ex: Exchange; violations: Violation[] }> => {
      current = `${c.label} ${describeRequest(c)}`;
      const ex = await exchange(addr, c.steps, {
        methods: c.methods,
        replies: c.replies ?? 1,
        timeoutMs: c.timeoutMs ?? REPLY_TIMEOUT_MS,
        finish: c.finish ?? 'keep',
        abortAfterMs: c.abortAfterMs ?? 100,
      });
      current = '(between requests)';
      return { ex, violations: judge(c, ex) };
    };

    /** Where a batch starts: what {@link afterBatch} compares with, so each batch reports only its own harm. */
    interface Mark {
      readonly incidents: number;
      readonly prototypes: Map<string, unknown>;
      readonly smuggled: number;
    }
    const mark = (): Mark => ({ incidents: incidents.length, prototypes: prototypeSnapshot(), smuggled: state.smuggled });

    /** What must hold after every batch: the server answers, nothing leaked out of it. */
    const afterBatch = async (title: string, since: Mark): Promise<void> => {
      await sleep(50); // let late errors of the batch surface
      const health = await run(single('health', 'GET', rawRequest('GET', '/health', [HOST, CLOSE]), { expect: [[200]] }));
      expect.soft(health.violations.length === 0 ? [] : [summarize(health.violations, `${title}: GET /health afterwards`)]).toEqual([]);
      expect.soft(health.ex.replies[0]?.status, `${title}: GET /health answers 200 afterwards`).toBe(200);
      expect.soft(prototypeChanges(since.prototypes), `${title}: prototypes untouched`).toEqual([]);
      expect.soft(incidents.slice(since.incidents), `${title}: no unhandled rejection, uncaught exception or exit`).toEqual([]);
      expect.soft(state.smuggled - since.smuggled, `${title}: no smuggled request reached a handler`).toBe(0);
    };

    BATCHES.forEach((batch, index) => {
      const runs = Math.max(1, Math.round(batch.runs * SCALE));
      it(
        `${batch.name} (${runs} generated)`,
        async () => {
          const since = mark();
          const cases = fc.sample(batch.cases, { numRuns: runs, seed: SEED + index });
          const violations: Violation[] = [];
          const started = performance.now();
          let skipped = 0;
          let hangs = 0;
          const stats = new Map<string, { count: number; example: string }>();
          for (const c of cases) {
            if (performance.now() - started > batch.budgetMs * SCALE || hangs >= MAX_HANGS || violations.some((v) => v.kind === 'server down')) {
              skipped++;
              continue;
            }
            const { ex, violations: v } = await run(c);
            if (v.some((x) => x.kind === 'hang')) hangs++;
            violations.push(...v);
            const key = `${c.label} → ${ex.replies.map((r) => r.status).join(',') || ex.end}`;
            const seen = stats.get(key);
            if (seen === undefined) stats.set(key, { count: 1, example: describeRequest(c) });
            else seen.count++;
          }
          if (process.env.HOSTILE_STATS !== undefined) {
            console.log(`${batch.name}:\n${[...stats].sort().map(([k, { count, example }]) => `  ${String(count).padStart(5)}  ${k}  e.g. ${example}`).join('\n')}`);
          }
          if (skipped > 0) {
            violations.push({
              label: 'batch',
              kind: 'incomplete',
              detail: `${skipped} of ${cases.length} requests not sent (time budget spent, ${MAX_HANGS} hangs, or the server is down)`,
              request: '',
              reply: '',
            });
          }
          expect.soft(violations.length === 0 ? [] : [summarize(violations, batch.name)]).toEqual([]);
          await afterBatch(batch.name, since);
        },
        batch.budgetMs * SCALE + 30_000,
      );
    });

    /** A named case: the generic judgement, then the case's own checks. */
    const named = (title: string, c: Case, check?: (ex: Exchange) => void, timeout = 20_000): void => {
      it(
        title,
        async () => {
          const since = mark();
          const { ex, violations } = await run(c);
          expect.soft(violations.length === 0 ? [] : [summarize(violations, title)]).toEqual([]);
          check?.(ex);
          await afterBatch(title, since);
        },
        timeout,
      );
    };
    const get = (target: string, headers: Headers = [HOST, CLOSE]): Buffer => rawRequest('GET', target, headers);
    const postJSON = (target: string, body: string | Buffer, extra: Headers = []): Buffer => {
      const b = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      return rawRequest('POST', target, [HOST, CLOSE, ['Content-Type', 'application/json'], ['Content-Length', String(b.length)], ...extra], b);
    };
    const envelope = (ex: Exchange): unknown => JSON.parse(ex.replies[0]?.body.toString('utf8') ?? 'null');

    describe('response header values copied from the query (the crash known today)', () => {
      for (const [ref, what] of [
        ['%E2%98%83', 'a character above U+00FF'],
        ['%0D%0A', 'CR LF'],
        ['%01', 'a control character'],
        ['a%0D%0AX-Injected:%201', 'CR LF with a header after it'],
        ['%00', 'a NUL'],
      ] as const) {
        named(`GET /echo-header?ref=${ref} (${what}) answers the 500 envelope and the server stays up`, single('named/echo-header', 'GET', get(`/echo-header?ref=${ref}`), { expect: [[500]] }), (ex) => {
          expect(ex.replies[0]?.status).toBe(500);
          expect(envelope(ex)).toEqual({ error: 'internal server error' });
          expect(ex.replies[0]?.headers.map(([k]) => k)).not.toContain('x-ref');
        });
      }
      for (const ref of ['%E2%98%83', '%0D%0A', '%01', 'a%0D%0ASet-Cookie:%20injected=1', '%22%3B%20Domain%3Devil.test']) {
        named(`GET /echo-cookie?ref=${ref} answers 200 (encoded cookie) or the 500 envelope, one Set-Cookie at most`, single('named/echo-cookie', 'GET', get(`/echo-cookie?ref=${ref}`), { expect: [[200, 500]] }), (ex) => {
          const cookies = ex.replies[0]?.headers.filter(([k]) => k === 'set-cookie') ?? [];
          expect(cookies.length).toBeLessThanOrEqual(1);
          for (const [, v] of cookies) expect(v).toMatch(/^ref=[^;\s",\\]*(?:;|$)/);
        });
      }
    });

    describe('bodies', () => {
      for (const [target, body] of [
        ['/any', '{"__proto__":{"polluted":1}}'],
        ['/any', '{"constructor":{"prototype":{"polluted":1}}}'],
        ['/tree', '{"a":{"__proto__":{"polluted":1}}}'],
        ['/things', '{"__proto__":{"polluted":1},"name":"x","count":1,"tags":[],"owner":{"id":"o","level":1,"__proto__":{"polluted":1}}}'],
        ['/things', '{"constructor":{"prototype":{"polluted":1}},"name":"x","count":1,"tags":[],"owner":{"id":"o","level":1}}'],
      ] as const) {
        named(`POST ${target} ${body} leaves Object.prototype alone`, single('named/proto', 'POST', postJSON(target, body)), (ex) => {
          expect([201, 400]).toContain(ex.replies[0]?.status);
          expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
        });
      }
      for (const [target, what, text] of [
        ['/any', '[[[…]]] nested 100 000 deep', deepArray(100_000)],
        ['/any', '{"a":{"a":…}} nested 100 000 deep', deepObject(100_000)],
        ['/tree', '{"a":{"a":…}} nested 100 000 deep (recursive codec)', deepObject(100_000)],
        ['/things', '[[[…]]] nested 100 000 deep', deepArray(100_000)],
        ['/things', 'an owner nested 100 000 deep', `{"name":"x","count":1,"tags":[],"owner":${deepObject(100_000)}}`],
      ] as const) {
        named(`POST ${target} with ${what} answers without a stack overflow leaking`, single('named/deep', 'POST', postJSON(target, text), { expect: [[200, 201, 400, 413, 500]] }));
      }
      named('POST /things with invalid UTF-8 answers 400', single('named/utf8', 'POST', postJSON('/things', Buffer.from('{"name":"\xff","count":1,"tags":[],"owner":{"id":"o","level":1}}', 'latin1')), { expect: [[400]] }));
      named('POST /things with a BOM answers 201 or 400', single('named/bom', 'POST', postJSON('/things', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"x","count":1,"tags":[],"owner":{"id":"o","level":1}}')])), { expect: [[201, 400]] }));
      named('POST /things with count 1e400 answers 400', single('named/number', 'POST', postJSON('/things', '{"name":"x","count":1e400,"tags":[],"owner":{"id":"o","level":1}}'), { expect: [[400]] }));
      named('POST /things whose handler throws answers the 500 envelope without the error text', single('named/throw', 'POST', postJSON('/things', '{"name":"boom","count":1,"tags":[],"owner":{"id":"o","level":1}}'), { expect: [[500]] }), (ex) => {
        expect(envelope(ex)).toEqual({ error: 'internal server error' });
      });
    });

    describe('framing and smuggling', () => {
      const smuggle = (headers: Headers, body: string): Case =>
        single('named/smuggling', 'POST', Buffer.concat([rawRequest('POST', '/any', [HOST, CLOSE, ['Content-Type', 'application/json'], ...headers], Buffer.from(body, 'latin1')), Buffer.from(SMUGGLED, 'latin1')]), { replies: Infinity, expect: [[400]] });
      named('Content-Length then Transfer-Encoding, with a smuggled request, answers 400 once', smuggle([['Content-Length', '6'], ['Transfer-Encoding', 'chunked']], '0\r\n\r\n'));
      named('Transfer-Encoding then Content-Length, with a smuggled request, answers 400 once', smuggle([['Transfer-Encoding', 'chunked'], ['Content-Length', '3']], '0\r\n\r\n'));
      named('two different Content-Length answer 400', smuggle([['Content-Length', '2'], ['Content-Length', '7']], '{}'));
      named('Transfer-Encoding: chunked, identity answers 400 or 501', single('named/te', 'POST', rawRequest('POST', '/any', [HOST, CLOSE, ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked, identity']], chunked(Buffer.from('{}'))), { replies: Infinity, expect: [[400, 501]] }));
      named('an invalid chunk size answers 400', single('named/chunks', 'POST', rawRequest('POST', '/any', [HOST, CLOSE, ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], Buffer.from('zz\r\n{}\r\n0\r\n\r\n')), { replies: Infinity, expect: [[400]] }));
      named('obsolete line folding answers 400', single('named/obs-fold', 'GET', rawRequest('GET', '/health', [HOST, CLOSE, ['X-Folded', 'a\r\n b']]), { replies: Infinity, expect: [[400]] }));
      named(
        'a keep-alive GET /health followed by garbage is answered 200 first, then 400',
        { label: 'named/pipelined-garbage', methods: ['GET', 'GET'], steps: [{ bytes: Buffer.concat([get('/health', [HOST]), Buffer.from('HELLO\r\n\r\n', 'latin1')]) }], replies: Infinity, expect: [[200], [400]] },
        (ex) => expect(ex.replies.map((r) => r.status)).toEqual([200, 400]),
      );
    });

    describe('request lines and headers', () => {
      named('1000 headers are answered', single('named/1000-headers', 'GET', rawRequest('GET', '/health', [HOST, CLOSE, ...Array.from({ length: 1000 }, (_, i): [string, string] => [`X-H${i}`, String(i)])]), { expect: [[200, 400, 431]] }));
      named('a 100 KB header value answers 431', single('named/100KB-header', 'GET', rawRequest('GET', '/health', [HOST, CLOSE, ['X-Big', 'v'.repeat(KB100)]]), { expect: [[431]] }));
      named('a 100 KB URL answers 414 or 431', single('named/100KB-url', 'GET', get(`/echo-header?ref=${'a'.repeat(KB100)}`), { expect: [[414, 431]] }));
      named('an HTTP/1.1 request without Host answers 400 with the envelope', single('named/no-host', 'GET', rawRequest('GET', '/health', [CLOSE]), { expect: [[400]] }));
      named('an HTTP/1.0 request without Host is served', single('named/http10', 'GET', rawRequest('GET', '/health', [], EMPTY, 'HTTP/1.0'), { expect: [[200]] }));
      named('HTTP/2.0 in the request line answers 400 or 505', single('named/version', 'GET', rawRequest('GET', '/health', [HOST, CLOSE], EMPTY, 'HTTP/2.0'), { expect: [[400, 505]] }));
      named('a lower-case method answers 400, 405 or 501', single('named/lower-method', 'get', rawRequest('get', '/health', [HOST, CLOSE]), { expect: [[400, 405, 501]] }));
      named('an unknown method answers 400, 405 or 501', single('named/unknown-method', 'FOO', rawRequest('FOO', '/health', [HOST, CLOSE]), { expect: [[400, 405, 501]] }));
      named('CONNECT is answered, not dropped', single('named/connect', 'CONNECT', rawRequest('CONNECT', 'hostile.test:443', [HOST, CLOSE])));
      named('an Upgrade request is answered, not dropped', single('named/upgrade', 'GET', rawRequest('GET', '/health', [HOST, ['Connection', 'Upgrade'], ['Upgrade', 'websocket']])));
      named('Expect: 100-continue gets 100, then the answer', single('named/expect-continue', 'POST', postJSON('/any', '{"a":1}', [['Expect', '100-continue']]), { expect: [[201]] }));
      named('an unknown Expect is answered with a documented status and the envelope', single('named/expect-unknown', 'GET', rawRequest('GET', '/health', [HOST, CLOSE, ['Expect', 'bogus']])));
    });

    describe('truncated requests', () => {
      const declared = rawRequest('POST', '/things', [HOST, CLOSE, ['Content-Type', 'application/json'], ['Content-Length', '1000']], Buffer.from('{"name":"x"'));
      named('a body shorter than its Content-Length, then the client aborts: the server stays up', { label: 'named/truncated-abort', methods: ['POST'], steps: [{ bytes: declared }], finish: 'abort' });
      named('a body shorter than its Content-Length, then the client half-closes: the server closes the connection', { label: 'named/truncated-half-close', methods: ['POST'], steps: [{ bytes: declared }], finish: 'half-close' });
    });

    it('saw no unhandled rejection, uncaught exception or exit, and left the prototypes alone', () => {
      expect(incidents).toEqual([]);
      expect(prototypeChanges(before)).toEqual([]);
      // The suite's own check: hostile requests must also get past the parser into handlers.
      expect(state.handled, 'requests that reached a handler').toBeGreaterThan(100 * SCALE);
    });
  });
}
