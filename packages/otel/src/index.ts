/**
 * OpenTelemetry for `@lib/rest`: an {@link rest.Observer} that records each server request and
 * each client call as a span and in a duration histogram, named and attributed as the
 * OpenTelemetry HTTP semantic conventions say, and that carries W3C trace context
 * (`traceparent`, `tracestate`) from the client's request to the server's span.
 *
 * It speaks only `@opentelemetry/api`: the SDK you register (or the providers you pass) decides
 * where spans and metrics go.
 */
import {
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Histogram,
  type MeterProvider,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  type TracerProvider,
} from '@opentelemetry/api';
import type * as rest from '@lib/rest';

/** Options of {@link observer}. */
export interface OtelOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`, set by the SDK). */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider. */
  readonly meterProvider?: MeterProvider;
  /**
   * How trace context is read from requests and written to calls. Default: the global
   * propagator (`propagation.setGlobalPropagator`; the Node SDK registers W3C Trace Context and
   * Baggage).
   */
  readonly propagator?: TextMapPropagator;
}

/** The instrumentation scope name of the spans and metrics. */
export const INSTRUMENTATION_SCOPE = '@lib/otel';

/** The bucket boundaries, in seconds, the HTTP semantic conventions advise for request durations. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const getter: TextMapGetter<rest.TraceStart> = {
  get: (carrier, key) => carrier.header(key),
  keys: () => [],
};
const setter: TextMapSetter<rest.TraceStart> = {
  set: (carrier, key, value) => carrier.setHeader(key, value),
};

/** The `error.type` of an outcome, or undefined when it is not an error for this kind of span. */
function errorType(kind: rest.TraceStart['kind'], end: rest.TraceEnd): string | undefined {
  // Server: 5xx are errors (4xx are the client's); client: 4xx and 5xx (HTTP semantic conventions).
  if (end.status >= (kind === 'server' ? 500 : 400)) return String(end.status);
  if (end.status === 0 && end.error !== undefined) {
    const name = end.error instanceof Error ? end.error.constructor.name || end.error.name : '';
    return name === '' ? '_OTHER' : name;
  }
  return undefined;
}

/**
 * An observer that traces with OpenTelemetry. Give it to the server
 * (`rest.withDefaultOptions({ observer })`) and to clients (`rest.newClient({ observer })`).
 *
 * - **Server spans** (`SpanKind.SERVER`), named `GET /users/{id}` (method and route), child of
 *   the trace context the request carries (W3C `traceparent`); attributes `http.request.method`,
 *   `http.route`, `http.response.status_code`, and `error.type` (the status, for 5xx). The
 *   handler runs with the span active, so spans it starts are its children (with a context
 *   manager registered, as the Node SDK does).
 * - **Client spans** (`SpanKind.CLIENT`), named the same way, child of the active span; the
 *   call's request carries the span's context (`traceparent`, `tracestate`). Attributes
 *   `http.request.method`, `url.template`, `http.response.status_code`, and `error.type` (the
 *   status for 4xx and 5xx; the error's class when no response came).
 * - **Metrics**: histograms `http.server.request.duration` and `http.client.request.duration`,
 *   in seconds, with the span's attributes but the template (`http.route` on the server).
 *
 * Requests no route takes (404, 405) are not traced. An observer never breaks a request: if the
 * OpenTelemetry calls throw, the request runs untraced.
 */
export function observer(options: OtelOptions = {}): rest.Observer {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE);
  const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
  const durations: Record<rest.TraceStart['kind'], Histogram> = {
    server: meter.createHistogram('http.server.request.duration', { unit: 's', description: 'Duration of HTTP server requests.', advice }),
    client: meter.createHistogram('http.client.request.duration', { unit: 's', description: 'Duration of HTTP client requests.', advice }),
  };
  const propagator: Pick<TextMapPropagator, 'extract' | 'inject'> = options.propagator ?? propagation;

  return {
    async trace(start, run) {
      const server = start.kind === 'server';
      const parent = server ? propagator.extract(ROOT_CONTEXT, start, getter) : context.active();
      const attributes: Attributes = { 'http.request.method': start.method, ...(server ? { 'http.route': start.path } : { 'url.template': start.path }) };
      const span = tracer.startSpan(start.route, { kind: server ? SpanKind.SERVER : SpanKind.CLIENT, attributes }, parent);
      const active = trace.setSpan(parent, span);
      if (!server) propagator.inject(active, start, setter);
      const began = performance.now();
      const end = await context.with(active, run);
      const seconds = (performance.now() - began) / 1000;
      const type = errorType(start.kind, end);
      const outcome: Attributes = { ...(end.status > 0 && { 'http.response.status_code': end.status }), ...(type !== undefined && { 'error.type': type }) };
      span.setAttributes(outcome);
      if (type !== undefined) {
        if (end.error instanceof Error) span.recordException(end.error);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
      durations[start.kind].record(seconds, { ...attributes, ...outcome });
    },
  };
}
