import type { Codec } from '@lib/codec';
import { mediaTypeOf, type Format } from '@lib/format';
import type { MediaTypeDescriptor, ResponseDescriptor, RouteDescriptor } from '@lib/openapi';
import { describeRoute, type RouteHandle, type Server } from '@lib/rest';
import { pipelineStage } from '@lib/rest/pipeline';
import { parseSetCookie } from 'cookie';
import fc from 'fast-check';
import { isJsonMediaType } from './internal/http.js';
import { credentialsFor, LearnedCredentials, malformedFor, routeSecurity, withoutCredentials, type RouteSecurity } from './internal/security.js';
import { linkRecords } from './internal/links.js';
import { protocolProbes } from './internal/protocol-probes.js';
import { StateRecords } from './internal/state.js';
import { formatReport, type ReportedResponse, type RouteReach, type ServerFailure, type ServerReport, type ServerTiming } from './report.js';
import { requestBodyWire, requestValues, routeRequests, type RequestCredentials, type TestRequest } from './requests.js';

export { formatReport } from './report.js';

/** Options of {@link checkServer} and {@link assertServer}. */
export interface CheckServerOptions {
  /** The builder whose routes are checked (`rest.newServer(...)`, routes registered); hidden routes are left out. */
  readonly api: Server;
  /**
   * Where the server listens: `http://127.0.0.1:3000` (a path prefix is kept). The builder's base
   * path (`rest.withBasePath('/api')`) is added unless the URL already ends with it, so the
   * server's address and the API's base URL (`http://127.0.0.1:3000/api`) both do.
   */
  readonly baseURL: string;
  /**
   * Generated requests per route, valid and invalid each. Default 50. A route behind security
   * also gets `ceil(runs / 5)` valid requests without credentials (unless it already had no
   * credential for its schemes) and as many with a malformed one.
   */
  readonly runs?: number;
  /** The fast-check seed, to replay a run. Default: a random one (reported). */
  readonly seed?: number;
  /**
   * Credentials sent with every request, for routes behind a security scheme; or a function that
   * gives them, called once before the first request (sign in, then return the session cookie).
   * Schemes they leave out are filled with what the API's own answers give (see
   * {@link checkServer}).
   */
  readonly credentials?: RequestCredentials | (() => RequestCredentials | Promise<RequestCredentials>);
  /** Milliseconds to wait for each response. Default 10 000. */
  readonly timeout?: number;
  /**
   * Requests of one route in flight at once. Default 16. The requests and their order of drawing
   * are the same whatever it is; a failure is replayed one request at a time to shrink it. `1`
   * sends one after the other.
   */
  readonly concurrency?: number;
  /**
   * `false` leaves security out: no requests without or with a malformed credential, and valid
   * requests without a credential for their route are not expected to be refused. For a server
   * that accepts any credentials on purpose, such as `testing.mockServer`. Default `true`.
   */
  readonly checkSecurity?: boolean;
  /**
   * Records the run starts from, as if earlier exchanges had given them: what the server holds
   * before the first request — a fixture, a seeded row (`[{ id: 'q3-2026' }]`, `[{ email, password }]`
   * of an account that exists). Requests take them as they take what the API answers (see
   * {@link checkServer}).
   */
  readonly records?: readonly Readonly<Record<string, string | number | boolean>>[];
}

/** Options of {@link assertServer}: those of {@link checkServer}, and the routes it may leave unreached. */
export interface AssertServerOptions extends CheckServerOptions {
  /**
   * The `operationId`s of routes that may end the run without a success (say why next to the
   * list: a route no generated request can satisfy, a flow the checker cannot follow). Any other
   * route that never answered a valid request with a success fails the assertion. A name that is
   * no route's fails it too (a renamed route leaves no stale allowance behind).
   */
  readonly allowUnreached?: readonly string[];
}


/** Thrown inside a property: a violation and the response that shows it. */
class Violation extends Error {
  constructor(
    readonly problem: string,
    readonly response: ReportedResponse | undefined,
  ) {
    super(problem);
  }
}

/**
 * Checks a running server against its routes' declarations. For every route of `api` — routes
 * that create (POST) first, then those that read and update (GET, PUT, PATCH…), DELETE last, in
 * the order they were registered within each group — it sends `runs` valid requests and `runs`
 * invalid ones (`testing.requests`), and checks each answer:
 * - no status of 500 or above;
 * - the status is one the route declares (OpenAPI `responses`, as `api.openAPISpec()` documents it);
 * - a valid request is not refused with 400 (another declared 4xx, such as a 404 for an id
 *   nobody created, is an answer);
 * - an invalid request gets a 4xx, never a 2xx;
 * - the body decodes with the codec declared for that status and `Content-Type` (any of them,
 *   where several sources answer one status), and a status declared without content has none;
 * - declared response headers and cookies are present when required, and decode.
 *
 * The statuses HTTP itself gives are provoked where the route documents them, each with one
 * valid request changed in one way: 406 for an `Accept` no response format writes (RFC 9110
 * §15.5.7), 415 for a `Content-Type` no request format reads (§15.5.16), 413 for a body one
 * byte over the limit the document states (`x-max-body-bytes`; limits above 8 MiB are not
 * probed, §15.5.14). Any other answer is a failure: the document promises what the server does not do.
 *
 * Credentials: a route is secured by its own security requirements, else the API's global ones
 * (alternatives; `{}` among them makes sign-in optional). A secured route is also sent valid
 * requests without credentials and with a malformed one (a character of the credential changed):
 * each must be refused with 401 or 403, and a 2xx is a failure. Where sign-in is optional, a
 * request without credentials must not be refused for it (no 401 or 403), and a malformed
 * credential must get a 401.
 *
 * State follows the API's own flows: each successful exchange is remembered (its parameters,
 * body fields, answer fields and cookies by name), and about half of the later requests take
 * one of these records and fill every parameter and body field of the same name from it — so a
 * sign-in sends the e-mail and password a registration sent, and a read the id a create answered.
 * Credentials the caller leaves out come from answers too: a cookie set under the name of a
 * cookie API key scheme, a token answered as `access_token`, `accessToken` or `token` for a
 * bearer scheme.
 *
 * The requests of one route are drawn first, then sent `concurrency` at a time. A violation is
 * replayed one request at a time and shrunk by fast-check to a minimal request. Streamed bodies
 * (`text/event-stream`, a declared item codec) are checked for status and `Content-Type` only,
 * and closed. Bodies in formats other than JSON are decoded by the route's own format.
 *
 * The report also says how far the run got into each route (`reach`), and warns when most answers
 * were 401 or 403.
 * @throws {TypeError} (rejects) for a route whose codecs cannot be generated.
 */
export async function checkServer(options: CheckServerOptions): Promise<ServerReport> {
  const started = performance.now();
  const runs = options.runs ?? 50;
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  const given = typeof options.credentials === 'function' ? await options.credentials() : options.credentials;
  const origin = options.baseURL.replace(/\/+$/, '');
  const basePath = options.api.basePath;
  const run: Run = {
    base: basePath === '' || origin.endsWith(basePath) ? origin : origin + basePath,
    timeout: options.timeout ?? 10_000,
    concurrency: Math.max(1, Math.floor(options.concurrency ?? 16)),
    seed,
    records: new StateRecords(),
    learned: new LearnedCredentials(options.api.securitySchemes()),
    failures: [],
    sent: 0,
    time: { generationMs: 0, httpMs: 0, shrinkingMs: 0 },
    main: { answers: 0, refused: 0 },
  };
  run.records.add(options.records ?? []);
  const probeRuns = Math.max(1, Math.ceil(runs / 5));
  const checkSecurity = options.checkSecurity ?? true;
  const handles = options.api
    .handles()
    .filter((h) => h.route.meta.hidden !== true)
    .sort((a, b) => FLOW_ORDER(a.route.method) - FLOW_ORDER(b.route.method));
  const reach: RouteReach[] = [];
  for (const handle of handles) {
    const d = describeRoute(handle, options.api.servingSettings());
    const sec = routeSecurity(d, options.api.securitySchemes(), options.api.globalSecurity());
    const route: RouteRun = { handle, d, sec, operationId: d.operationId ?? `${d.method} ${d.path}`, requests: 0, statuses: new Map(), succeeded: false, validStatuses: new Map() };
    const { credentials, covered } = credentialsFor(sec, given, run.learned);
    // Without a credential for any alternative, the valid requests are anonymous ones.
    const mode: Mode = sec.guard === 'public' ? 'plain' : covered || sec.paramAtCredential || !checkSecurity ? 'signed-in' : 'anonymous';
    // Built when a kind's requests are drawn (runKind counts it as generation), with the records learned until then.
    const arbitraries = (c: RequestCredentials | undefined) => routeRequests(handle, d, { records: run.records.snapshot(), ...(c !== undefined && { credentials: c }) });
    await runKind(run, route, { mode, valid: true, main: true }, () => arbitraries(credentials).valid(), runs);
    if (mode !== 'anonymous' || sec.guard === 'optional') await runProbes(run, route, () => arbitraries(credentials).valid());
    if (checkSecurity && sec.guard !== 'public' && !sec.paramAtCredential) {
      const schemes = sec.alternatives.flat().map(([, s]) => s);
      if (mode === 'signed-in') await runKind(run, route, { mode: 'anonymous', valid: true, main: false }, () => arbitraries(withoutCredentials(given, schemes)).valid(), probeRuns);
      const malformed = malformedFor(sec, given, credentials);
      if (malformed !== undefined) await runKind(run, route, { mode: 'malformed', valid: true, main: false }, () => arbitraries(malformed).valid(), probeRuns);
    }
    await runKind(run, route, { mode, valid: false, main: true }, () => arbitraries(credentials).invalid(), runs);
    reach.push(reachOf(route, mode, given !== undefined));
  }
  const warnings: string[] = [];
  if (run.main.answers > 0 && run.main.refused * 2 > run.main.answers) {
    warnings.push(
      `most answers were 401 or 403 (${run.main.refused} of ${run.main.answers}): the credentials are missing or wrong — ${
        given === undefined ? 'none were given (option credentials), and no answer of the API gave any' : 'those given are refused, or lack a scheme the routes need'
      }`,
    );
  }
  const totalMs = performance.now() - started;
  return { requests: run.sent, seed, failures: run.failures, reach, warnings, timing: { totalMs, ...run.time } };
}

/**
 * {@link checkServer}, for a test: resolves with the report when the server keeps its contract
 * and every route reached a success (or is listed in `allowUnreached`), and otherwise rejects
 * with an `Error` whose message is the report (`formatReport`: each failure's route, problem,
 * minimal request and response, the reach of every route, and the seed to replay the run).
 * Works in vitest, jest and `node:test`.
 * @throws {Error} (rejects) listing every failure and every route left unreached.
 */
export async function assertServer(options: AssertServerOptions): Promise<ServerReport> {
  const report = await checkServer(options);
  const allowed = options.allowUnreached ?? [];
  const unknown = allowed.filter((id) => !report.reach.some((r) => r.operationId === id));
  const unreached = report.reach.filter((r) => !r.succeeded && !allowed.includes(r.operationId));
  if (report.failures.length === 0 && unreached.length === 0 && unknown.length === 0) return report;
  const text = formatReport(report, { allowUnreached: allowed });
  throw new Error(unknown.length === 0 ? text : `allowUnreached names no route: ${unknown.join(', ')}\n\n${text}`);
}

// ---------------------------------------------------------------------------------------------

/** Routes that create come first, so that routes that read, update and delete find something; DELETE last. */
function FLOW_ORDER(method: string): number {
  return method === 'POST' ? 0 : method === 'DELETE' ? 2 : 1;
}

/**
 * How a request treats credentials: `plain` (a public route), `signed-in` (with credentials for
 * one of the route's alternatives), `anonymous` (with none of them), `malformed` (with a
 * tampered one).
 */
type Mode = 'plain' | 'signed-in' | 'anonymous' | 'malformed';

/** One kind of request to one route: its credentials, whether it is valid, and whether it counts for the 401 warning. */
interface Kind {
  readonly mode: Mode;
  readonly valid: boolean;
  readonly main: boolean;
}

/** The state of a run. */
interface Run {
  readonly base: string;
  readonly timeout: number;
  readonly concurrency: number;
  readonly seed: number;
  readonly records: StateRecords;
  readonly learned: LearnedCredentials;
  readonly failures: ServerFailure[];
  sent: number;
  readonly time: { generationMs: number; httpMs: number; shrinkingMs: number };
  /** Answers to the valid and invalid requests (the probes left out), and how many were 401 or 403. */
  readonly main: { answers: number; refused: number };
}

/** What a run keeps of one route. */
interface RouteRun {
  readonly handle: RouteHandle<unknown, unknown>;
  readonly d: RouteDescriptor;
  readonly sec: RouteSecurity;
  readonly operationId: string;
  requests: number;
  readonly statuses: Map<string, number>;
  succeeded: boolean;
  /** Statuses of the answers to valid requests with the route's credentials. */
  readonly validStatuses: Map<string, number>;
}

/**
 * Sends `numRuns` requests of one kind: drawn first (the values `fc.check` would try, in its
 * order), then sent `concurrency` at a time, stopping at the first violation; the successes
 * are learned from in the order they were drawn. A violation is then replayed one request at a
 * time with `fc.check`, which shrinks it.
 */
async function runKind(run: Run, route: RouteRun, kind: Kind, arbitrary: () => fc.Arbitrary<TestRequest> | undefined, numRuns: number): Promise<void> {
  const t0 = performance.now();
  const arb = arbitrary();
  if (arb === undefined) return;
  const property = fc.asyncProperty(arb, async (req) => {
    const answer = await exchange(run, route, req, kind);
    check(route, req, answer, kind);
  });
  const drawn = fc.sample(property, { numRuns, seed: run.seed }).map(([req]) => req);
  const t1 = performance.now();
  run.time.generationMs += t1 - t0;
  const answers: (Answer | undefined)[] = new Array(drawn.length);
  const errors: unknown[] = new Array(drawn.length);
  let next = 0;
  let stop = false;
  const worker = async (): Promise<void> => {
    while (!stop && next < drawn.length) {
      const i = next++;
      const req = drawn[i] as TestRequest;
      try {
        const answer = await exchange(run, route, req, kind);
        answers[i] = answer;
        check(route, req, answer, kind);
      } catch (err) {
        errors[i] = err ?? new Error('undefined thrown');
        stop = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.concurrency, drawn.length) }, worker));
  const t2 = performance.now();
  run.time.httpMs += t2 - t1;
  const learns = kind.valid && (kind.mode === 'plain' || kind.mode === 'signed-in' || (kind.mode === 'anonymous' && route.sec.guard === 'optional'));
  drawn.forEach((req, i) => {
    const a = answers[i];
    if (a === undefined || errors[i] !== undefined || !learns || !isSuccess(route, a.status)) return;
    const cookies = Object.fromEntries(a.headers.getSetCookie().map((line) => parseSetCookie(line)).filter((c) => c.value !== undefined).map((c) => [c.name, c.value as string]));
    const params = requestValues(route.d, req);
    const body = requestBodyWire(req);
    run.records.learn({ params, body }, { json: a.json, cookies });
    // The links the route declares (OpenAPI 3.1 §4.8.20) say which values its answer gives to which operation.
    run.records.add(linkRecords(route.handle.route.meta.links, { status: a.status, params, body, json: a.json, headers: a.headers }));
    run.learned.learn(a.json, cookies);
  });
  const first = errors.findIndex((e) => e !== undefined);
  if (first === -1) return;
  const result = await fc.check(property, { numRuns, seed: run.seed, endOnFailure: false });
  run.time.shrinkingMs += performance.now() - t2;
  const [request, err] = result.failed && result.counterexample !== null ? [result.counterexample[0], result.errorInstance] : [drawn[first] as TestRequest, errors[first]];
  const again = result.failed ? '' : ' (seen with requests in flight together; not seen again one at a time, so not shrunk)';
  run.failures.push({
    operationId: route.operationId,
    request,
    problem: (err instanceof Violation ? err.problem : `the check failed: ${err instanceof Error ? err.message : String(err)}`) + again,
    ...(err instanceof Violation && err.response !== undefined && { response: err.response }),
  });
}

/**
 * Sends the route's protocol probes (`protocolProbes`: 406, 415, 413 where its document lists
 * them), each made from one valid request, and fails the run where the answer is another status.
 */
async function runProbes(run: Run, route: RouteRun, arbitrary: () => fc.Arbitrary<TestRequest> | undefined): Promise<void> {
  const t0 = performance.now();
  const arb = arbitrary();
  const [valid] = arb === undefined ? [] : fc.sample(arb, { numRuns: 1, seed: run.seed });
  run.time.generationMs += performance.now() - t0;
  if (valid === undefined) return;
  const kind: Kind = { mode: 'plain', valid: false, main: false };
  for (const probe of protocolProbes(route.d, valid)) {
    const t1 = performance.now();
    try {
      const answer = await exchange(run, route, probe.request, kind);
      if (answer.status !== probe.status) {
        throw new Violation(`answered ${answer.status} to ${probe.what}, where the route documents ${probe.status}`, answer.reported);
      }
      check(route, probe.request, answer, kind);
    } catch (err) {
      run.failures.push({
        operationId: route.operationId,
        request: probe.request,
        problem: err instanceof Violation ? err.problem : `the check failed: ${err instanceof Error ? err.message : String(err)}`,
        ...(err instanceof Violation && err.response !== undefined && { response: err.response }),
      });
    } finally {
      run.time.httpMs += performance.now() - t1;
    }
  }
}

/** Sends one request and counts its answer for the route's reach. */
async function exchange(run: Run, route: RouteRun, req: TestRequest, kind: Kind): Promise<Answer> {
  run.sent++;
  route.requests++;
  let answer: Answer;
  try {
    answer = await send(run.base, req, run.timeout);
  } catch (err) {
    count(route.statuses, 'none');
    throw err;
  }
  const status = String(answer.status);
  count(route.statuses, status);
  if (kind.main) {
    run.main.answers++;
    if (answer.status === 401 || answer.status === 403) run.main.refused++;
  }
  if (kind.valid && kind.mode !== 'malformed' && (kind.mode !== 'anonymous' || route.sec.guard === 'optional')) {
    if (kind.main) count(route.validStatuses, status);
    if (isSuccess(route, answer.status)) route.succeeded = true;
  }
  return answer;
}

function count(m: Map<string, number>, key: string): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

/** A success: a 2xx, or a status the route declares as one of its successes (a redirect route's 303). */
function isSuccess(route: RouteRun, status: number): boolean {
  if (status >= 200 && status < 300) return true;
  const primary = route.d.responses[0]?.status;
  return String(status) === primary || route.handle.route.successes.some((s) => s.status === status);
}

/** The reach entry of a route once its requests are sent. */
function reachOf(route: RouteRun, mode: Mode, credentialsGiven: boolean): RouteReach {
  const seen = new Set(route.statuses.keys());
  const unseen = route.d.responses.filter((r) => /^\d{3}$/.test(r.status) && !seen.has(r.status)).map((r) => Number(r.status));
  let note: string | undefined;
  if (!route.succeeded) {
    const valid = [...route.validStatuses.entries()].sort((a, b) => b[1] - a[1]);
    const total = valid.reduce((n, [, c]) => n + c, 0);
    const refused = valid.filter(([s]) => s === '401' || s === '403').reduce((n, [, c]) => n + c, 0);
    if (mode === 'anonymous' && route.sec.guard === 'secured') {
      const needs = route.sec.alternatives.map((alt) => alt.map(([name, s]) => `${name} (${where(s.object)})`).join(' and ')).join(', or ');
      note = `no credential for ${needs} was ${credentialsGiven ? 'among those given' : 'given'}, nor answered by an earlier route`;
    } else if (total > 0 && refused === total && route.sec.guard !== 'public') {
      note = `every valid request was refused with 401 or 403: the credentials are wrong, expired, or lack a scope`;
    } else if (total > 0) {
      note = `valid requests got ${valid.map(([s, c]) => `${s} ×${c}`).join(', ')}`;
    } else {
      note = 'no valid request got an answer';
    }
  }
  return { operationId: route.operationId, requests: route.requests, statuses: Object.fromEntries(route.statuses), succeeded: route.succeeded, unseen, ...(note !== undefined && { note }) };
}

/** Where a scheme's credential travels, in words. */
function where(o: { readonly type: string; readonly in?: string; readonly name?: string; readonly scheme?: string }): string {
  if (o.type === 'apiKey') return `${o.in ?? 'header'} ${o.name ?? ''}`;
  if (o.type === 'http') return `Authorization: ${o.scheme === 'basic' ? 'Basic' : 'Bearer'}`;
  return 'Authorization: Bearer';
}

/** An answer as the checks read it. */
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  /** The body parsed as JSON, when it is. */
  readonly json: unknown;
  /** True when the body was a stream, closed unread. */
  readonly streamed: boolean;
  readonly reported: ReportedResponse;
}

const decoder = new TextDecoder();

async function send(base: string, req: TestRequest, timeout: number): Promise<Answer> {
  const signal = AbortSignal.timeout(timeout);
  let res: Response;
  try {
    res = await fetch(base + req.target, { method: req.method, headers: req.headers, redirect: 'manual', signal, ...(req.body !== undefined && { body: req.body as NonNullable<RequestInit['body']> }) });
  } catch (err) {
    throw new Violation(`no response: ${err instanceof Error ? err.message : String(err)}`, undefined);
  }
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  const type = mediaTypeOf(res.headers.get('content-type') ?? '');
  if (type === 'text/event-stream' || type === 'application/x-ndjson') {
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(), json: undefined, streamed: true, reported: { status: res.status, headers, body: '(a stream, not read)' } };
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    throw new Violation(`the body could not be read: ${err instanceof Error ? err.message : String(err)}`, { status: res.status, headers, body: '' });
  }
  const text = decoder.decode(bytes);
  let json: unknown;
  if (isJsonMediaType(type)) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, bytes, json, streamed: false, reported: { status: res.status, headers, body: text.length > 2000 ? `${text.slice(0, 2000)}…` : text } };
}

/** The declared response of `status`: exact, then its class (`4XX`), then `default`. */
function declaredResponse(d: RouteDescriptor, status: number): ResponseDescriptor | undefined {
  const exact = d.responses.find((r) => r.status === String(status));
  return exact ?? d.responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`) ?? d.responses.find((r) => r.status === 'default');
}

/** The statuses the pipeline refuses an invalid request with (its parameters and body stages): never the answer to a valid one. */
const INVALID_REQUEST: ReadonlySet<number> = new Set((['parameters', 'body'] as const).flatMap((name) => pipelineStage(name).refuses.map((r) => r.status)));

function check(route: RouteRun, req: TestRequest, a: Answer, kind: Kind): void {
  const { handle, d } = route;
  const fail = (problem: string): never => {
    throw new Violation(problem, a.reported);
  };
  if (a.status >= 500) fail(`answered ${a.status}`);
  const refused = a.status === 401 || a.status === 403;
  const secured = route.sec.guard === 'secured';
  // An invalid request without credentials may be refused for either (the order is the server's).
  if (kind.valid && kind.mode === 'anonymous' && secured && !refused) {
    fail(a.status < 300 ? `secured route answered without credentials (${a.status})` : `answered ${a.status} without credentials, where a secured route answers 401 or 403`);
  }
  if (kind.valid && kind.mode === 'anonymous' && route.sec.guard === 'optional' && refused) {
    fail(`refused a request without credentials (${a.status}), though sign-in is optional ({} among its security requirements)`);
  }
  if (kind.mode === 'malformed' && (secured ? !refused : a.status !== 401)) {
    fail(a.status < 300 ? `accepted a malformed credential (${a.status})` : `answered ${a.status} to a malformed credential, where ${secured ? '401 or 403 is' : '401 is'} due`);
  }
  const declared = declaredResponse(d, a.status);
  if (declared === undefined) fail(`answered ${a.status}, a status the route does not declare (it declares ${d.responses.map((r) => r.status).join(', ')})`);
  const r = declared as ResponseDescriptor;
  const valid = kind.valid;
  if (valid && INVALID_REQUEST.has(a.status)) fail(`refused a request its declaration accepts (${a.status})`);
  if (!valid && a.status < 400) fail(`accepted a request it must refuse (${req.breaks?.at ?? 'a value'} breaks ${req.breaks?.constraint ?? 'its codec'}) with ${a.status}`);
  checkBody(handle, r, a, fail);
  for (const h of r.headers) {
    const value = a.headers.get(h.name);
    if (value === null) {
      if (h.required) fail(`the declared response header ${h.name} is missing`);
      continue;
    }
    if (h.codec !== undefined && !decodes(h.codec, value)) fail(`the response header ${h.name} does not decode: ${JSON.stringify(value)}`);
  }
  if (r.cookies.length > 0) {
    const set = new Map(a.headers.getSetCookie().map((line) => parseSetCookie(line)).map((c) => [c.name, c.value] as const));
    for (const c of r.cookies) {
      const value = set.get(c.name);
      if (value === undefined) {
        if (c.required) fail(`the declared response cookie ${c.name} is missing`);
        continue;
      }
      if (c.codec !== undefined && !decodes(c.codec, value)) fail(`the response cookie ${c.name} does not decode: ${JSON.stringify(value)}`);
    }
  }
}

function decodes(codec: Codec<unknown>, wire: unknown): boolean {
  try {
    codec.decode(wire);
    return true;
  } catch {
    return false;
  }
}

/** The body: empty where no content is declared, else decoded by a codec declared for its media type. */
function checkBody(handle: RouteHandle<unknown, unknown>, r: ResponseDescriptor, a: Answer, fail: (problem: string) => never): void {
  if (a.status === 204 || a.status === 304) return;
  if (r.content.length === 0) {
    if (a.bytes.byteLength > 0) fail(`answered ${a.status} with a body, where the route declares none`);
    return;
  }
  const type = mediaTypeOf(a.headers.get('content-type') ?? '');
  const media = r.content.filter((m) => mediaTypeOf(m.mediaType) === type);
  if (media.length === 0) fail(`answered ${a.status} as ${JSON.stringify(type)}, a media type the route does not declare for it (${r.content.map((m) => m.mediaType).join(', ')})`);
  if (a.streamed) return;
  const codecs = media.flatMap((m) => [m.codec, ...(m.alternatives ?? [])]) as Codec<unknown>[];
  if (isJsonMediaType(type)) {
    if (a.json === undefined) fail(`answered ${a.status} with a body that is not JSON`);
    if (!codecs.some((c) => decodes(c, a.json))) fail(`the ${a.status} body does not decode with the declared codec: ${firstIssue(codecs[0] as Codec<unknown>, a.json)}`);
    return;
  }
  const format = readerFor(handle, media[0] as MediaTypeDescriptor, codecs);
  if (format === undefined) return;
  try {
    format.unmarshal(a.bytes);
  } catch (err) {
    fail(`the ${a.status} body does not decode as ${type}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The first issue of decoding `wire`, as text. */
function firstIssue(codec: Codec<unknown>, wire: unknown): string {
  try {
    codec.decode(wire);
    return 'it decodes';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** A format of the route that reads `media` with one of `codecs` (its own, or `withCodec`). */
function readerFor(handle: RouteHandle<unknown, unknown>, media: MediaTypeDescriptor, codecs: readonly Codec<unknown>[]): Format<unknown> | undefined {
  const type = mediaTypeOf(media.mediaType);
  const formats = [...handle.responseFormats, ...handle.route.successes.flatMap((s) => handle.successFormats(s))] as Format<unknown>[];
  for (const f of formats) {
    if (mediaTypeOf(f.contentType) !== type) continue;
    if (codecs.includes(f.codec)) return f;
    if (f.withCodec !== undefined) return f.withCodec(codecs[0] as Codec<unknown>) as Format<unknown>;
  }
  return undefined;
}
