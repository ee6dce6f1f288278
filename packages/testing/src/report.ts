import type { TestRequest } from './requests.js';

/** A response as the report shows it: the status, header fields and up to 2 000 characters of the body. */
export interface ReportedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One contract violation, with the smallest request fast-check found that shows it. */
export interface ServerFailure {
  /** The route's `operationId`, else `METHOD /path`. */
  readonly operationId: string;
  /** The request, shrunk by fast-check to a minimal one. */
  readonly request: TestRequest;
  /** What is wrong, in a sentence. */
  readonly problem: string;
  /** The server's answer to that request; absent when none came. */
  readonly response?: ReportedResponse;
}

/**
 * How far the run got into one route: what it sent, what came back, and whether a valid request
 * ever succeeded. A route that never succeeded was not really tested: its checks only saw
 * refusals.
 */
export interface RouteReach {
  /** The route's `operationId`, else `METHOD /path`. */
  readonly operationId: string;
  /** Requests sent to the route: valid, invalid, without and with a malformed credential, replays and shrinking included. */
  readonly requests: number;
  /** How many answers had each status (`"200"`, `"404"`; `"none"` for requests that got no response). */
  readonly statuses: Readonly<Record<string, number>>;
  /**
   * True when a valid request (with the credentials, or without them where sign-in is optional)
   * got a success: a 2xx, or the route's declared success status (a 303 redirect route's 303);
   * for a route that never succeeds (`response: codec.never()`), its first declared response.
   */
  readonly succeeded: boolean;
  /**
   * The statuses the route declares (OpenAPI `responses`, numbers only: not `4XX` or `default`)
   * that no answer had: answers the run never provoked — a 409 no request conflicted for, a 413
   * over a limit too large to probe; a 500 here is good news.
   */
  readonly unseen: readonly number[];
  /** Why a route did not succeed, when the run can tell (no credential for its scheme, every answer a 401). */
  readonly note?: string;
}

/** Where the time of a run went, in milliseconds. */
export interface ServerTiming {
  /** The whole run. */
  readonly totalMs: number;
  /** Building the routes' arbitraries and drawing their requests. */
  readonly generationMs: number;
  /** Sending the drawn requests and checking the answers (wall-clock time, requests in flight together). */
  readonly httpMs: number;
  /** Replaying a failure one request at a time, and shrinking it (0 when nothing failed). */
  readonly shrinkingMs: number;
}

/** What `checkServer` found. */
export interface ServerReport {
  /** Requests sent, shrinking included. */
  readonly requests: number;
  /** The seed of the run (give it back as `seed` to replay). */
  readonly seed: number;
  /** At most one per route and kind of request (valid, invalid, without or with a malformed credential): the first found, shrunk. */
  readonly failures: readonly ServerFailure[];
  /** One entry per route, in the order they were checked. */
  readonly reach: readonly RouteReach[];
  /**
   * What makes the run itself doubtful, in sentences: most answers were 401 or 403 (the
   * credentials are missing or wrong).
   */
  readonly warnings: readonly string[];
  /** Where the time went. */
  readonly timing: ServerTiming;
}

/** Options of {@link formatReport}. */
export interface FormatReportOptions {
  /** Routes allowed to end without a success (`assertServer`'s `allowUnreached`): shown as such, not counted as unreached. */
  readonly allowUnreached?: readonly string[];
}

/**
 * The report as text, for a person: a first line with the number of failures, of requests, the
 * seed and the routes that never reached a success; the warnings; one block per failure (its
 * route, problem, minimal request and response); then the reach table — one row per route with
 * the requests sent, whether a valid request succeeded, the statuses seen with their counts, and
 * the declared statuses never seen (with the reason under a route that did not succeed) — and
 * where the time went.
 */
export function formatReport(report: ServerReport, options: FormatReportOptions = {}): string {
  const allowed = new Set(options.allowUnreached ?? []);
  const unreached = report.reach.filter((r) => !r.succeeded && !allowed.has(r.operationId)).map((r) => r.operationId);
  const n = report.failures.length;
  let head = `the server broke its contract in ${n} place${n === 1 ? '' : 's'} (${report.requests} requests, seed ${report.seed})`;
  if (unreached.length > 0) head += `; ${unreached.length} route${unreached.length === 1 ? '' : 's'} never reached a success: ${unreached.join(', ')}`;
  const sections = [head];
  for (const w of report.warnings) sections.push(`warning: ${w}`);
  if (n > 0) {
    sections.push(
      report.failures
        .map((f, i) => {
          const r = f.request;
          const lines = [`${i + 1}. ${f.operationId}: ${f.problem}`, `   request: ${r.method} ${r.target}`];
          for (const [k, v] of Object.entries(r.headers)) lines.push(`     ${k}: ${v}`);
          if (r.body !== undefined) lines.push(`     body: ${typeof r.body === 'string' && r.body.length <= 2000 ? r.body : `(${typeof r.body === 'string' ? new TextEncoder().encode(r.body).byteLength : r.body instanceof Blob ? r.body.size : r.body.byteLength} bytes)`}`);
          if (r.breaks !== undefined) lines.push(`     (invalid on purpose: ${r.breaks.at} breaks ${r.breaks.constraint})`);
          if (f.response !== undefined) lines.push(`   response: ${f.response.status}${f.response.body === '' ? '' : ` ${f.response.body}`}`);
          return lines.join('\n');
        })
        .join('\n\n'),
    );
  }
  if (report.reach.length > 0) sections.push(reachTable(report.reach, allowed));
  const t = report.timing;
  const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  sections.push(`time: ${s(t.totalMs)} (generating requests ${s(t.generationMs)}, sending and checking ${s(t.httpMs)}, shrinking ${s(t.shrinkingMs)})`);
  return sections.join('\n\n');
}

/** The reach of every route as a table; a route without a success gets the reason on the line below. */
function reachTable(reach: readonly RouteReach[], allowed: ReadonlySet<string>): string {
  const rows = reach.map((r) => [
    r.operationId,
    String(r.requests),
    r.succeeded ? 'yes' : allowed.has(r.operationId) ? 'no (allowed)' : 'NO',
    Object.entries(r.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => `${status}×${count}`)
      .join(' '),
    r.unseen.join(' ') || '-',
  ]);
  const header = ['route', 'requests', 'success', 'statuses seen (×answers)', 'declared, never seen'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  const out = ['reach:', `  ${line(header)}`];
  reach.forEach((r, i) => {
    out.push(`  ${line(rows[i] as string[])}`);
    if (r.note !== undefined) out.push(`    └ ${r.note}`);
  });
  return out.join('\n');
}
