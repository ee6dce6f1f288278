import * as codec from '@lib/codec';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as otel from './index.js';

class Missing extends Error {}
const item = codec.object({ id: codec.string(), by: codec.string() });
const getItem = rest.route({
  method: 'GET',
  path: '/items/{id}',
  pathParams: { id: codec.string() },
  response: item,
  errors: [rest.errorPattern(Missing, 404, codec.object({ error: codec.string() }), (e) => ({ error: e.message }))],
  meta: { operationId: 'getItem' },
});

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
const observer = otel.observer({ tracerProvider, meterProvider, propagator: new W3CTraceContextPropagator() });
const contextManager = new AsyncLocalStorageContextManager();

describe('@lib/otel over real HTTP', () => {
  const stop = new AbortController();
  let done: Promise<void> = Promise.resolve();
  let baseURL = '';
  let client: rest.Client;

  beforeAll(async () => {
    context.setGlobalContextManager(contextManager.enable());
    const api = rest.newServer({ title: 'Items', version: '1' }, rest.withDefaultOptions({ observer }));
    getItem
      .withHandler((_ctx, req) => {
        if (req.id === 'missing') throw new Missing('no such item');
        if (req.id === 'boom') throw new Error('broken');
        // A span the handler starts is a child of the server span.
        tracerProvider.getTracer('handler').startActiveSpan('load item', (s) => s.end());
        return { id: req.id, by: trace.getActiveSpan()?.spanContext().traceId ?? '' };
      })
      .register(api);
    const transport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
    api.attach(transport);
    done = api.serve({ signal: stop.signal });
    const { host, port } = await transport.listening();
    baseURL = `http://${host}:${port}`;
    client = rest.newClient({ observer });
    client.attach(nodeHttp.newClientTransport({ baseURL }));
  });

  afterAll(async () => {
    stop.abort();
    await done;
    context.disable();
  });

  beforeEach(() => spans.reset());

  const finished = (): ReadableSpan[] => spans.getFinishedSpans();
  const byKind = (kind: SpanKind): ReadableSpan => {
    const found = finished().filter((s) => s.kind === kind);
    expect(found, SpanKind[kind]).toHaveLength(1);
    return found[0] as ReadableSpan;
  };

  it('makes the server span a child of the client span across the HTTP call (W3C traceparent)', async () => {
    const got = await client.call(getItem, { id: 'a1' });
    const clientSpan = byKind(SpanKind.CLIENT);
    const serverSpan = byKind(SpanKind.SERVER);
    expect(serverSpan.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
    expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
    expect(serverSpan.parentSpanContext?.isRemote).toBe(true);
    // The handler ran with the server span active.
    expect(got.by).toBe(serverSpan.spanContext().traceId);
    const handlerSpan = finished().find((s) => s.name === 'load item');
    expect(handlerSpan?.parentSpanContext?.spanId).toBe(serverSpan.spanContext().spanId);

    expect(serverSpan.name).toBe('GET /items/{id}');
    expect(serverSpan.attributes).toEqual({ 'http.request.method': 'GET', 'http.route': '/items/{id}', 'http.response.status_code': 200 });
    expect(serverSpan.status.code).toBe(SpanStatusCode.UNSET);
    expect(clientSpan.attributes).toEqual({ 'http.request.method': 'GET', 'url.template': '/items/{id}', 'http.response.status_code': 200 });
  });

  it('puts a client call under the span active where it is made', async () => {
    await tracerProvider.getTracer('test').startActiveSpan('caller', async (caller) => {
      await client.call(getItem, { id: 'b2' });
      caller.end();
    });
    const caller = finished().find((s) => s.name === 'caller');
    expect(byKind(SpanKind.CLIENT).parentSpanContext?.spanId).toBe(caller?.spanContext().spanId);
    expect(byKind(SpanKind.SERVER).spanContext().traceId).toBe(caller?.spanContext().traceId);
  });

  it('continues a trace any W3C client started', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${baseURL}/items/c3`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(res.status).toBe(200);
    const serverSpan = byKind(SpanKind.SERVER);
    expect(serverSpan.spanContext().traceId).toBe(traceId);
    expect(serverSpan.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it('marks 5xx as errors on both sides and 4xx on the client side only (error.type)', async () => {
    await expect(client.call(getItem, { id: 'boom' })).rejects.toThrow();
    expect(byKind(SpanKind.SERVER).attributes['error.type']).toBe('500');
    expect(byKind(SpanKind.SERVER).status.code).toBe(SpanStatusCode.ERROR);
    expect(byKind(SpanKind.SERVER).events.map((e) => e.name)).toEqual(['exception']);
    expect(byKind(SpanKind.CLIENT).attributes['error.type']).toBe('500');
    spans.reset();
    await expect(client.call(getItem, { id: 'missing' })).rejects.toBeInstanceOf(rest.ErrorPatternResponse);
    expect(byKind(SpanKind.SERVER).attributes).toEqual({ 'http.request.method': 'GET', 'http.route': '/items/{id}', 'http.response.status_code': 404 });
    expect(byKind(SpanKind.SERVER).status.code).toBe(SpanStatusCode.UNSET);
    expect(byKind(SpanKind.CLIENT).attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': '404' });
    expect(byKind(SpanKind.CLIENT).status.code).toBe(SpanStatusCode.ERROR);
  });

  it('names the error class when a call got no response', async () => {
    const offline = rest.newClient({ observer });
    offline.attach(nodeHttp.newClientTransport({ baseURL: 'http://127.0.0.1:1' }));
    await expect(offline.call(getItem, { id: 'x' })).rejects.toThrow();
    const clientSpan = byKind(SpanKind.CLIENT);
    expect(clientSpan.attributes['http.response.status_code']).toBeUndefined();
    expect(clientSpan.attributes['error.type']).toMatch(/Error$/);
  });

  it('records http.server.request.duration and http.client.request.duration in seconds', async () => {
    await client.call(getItem, { id: 'd4' });
    await reader.forceFlush();
    const all = metricExporter.getMetrics().flatMap((r) => r.scopeMetrics).flatMap((s) => s.metrics);
    const metric = (name: string): HistogramMetricData => {
      const m = all.filter((x) => x.descriptor.name === name).at(-1);
      expect(m, name).toBeDefined();
      return m as HistogramMetricData;
    };
    const server = metric('http.server.request.duration');
    expect(server.descriptor.unit).toBe('s');
    const ok = server.dataPoints.find((p) => p.attributes['http.response.status_code'] === 200);
    expect(ok?.attributes).toEqual({ 'http.request.method': 'GET', 'http.route': '/items/{id}', 'http.response.status_code': 200 });
    expect(ok?.value.count).toBeGreaterThanOrEqual(1);
    expect(ok?.value.sum).toBeGreaterThan(0);
    expect(ok?.value.sum).toBeLessThan(10);
    const clientMetric = metric('http.client.request.duration');
    expect(clientMetric.dataPoints.some((p) => p.attributes['error.type'] === '404')).toBe(true);
  });

  it('never breaks a request when the tracer throws', async () => {
    const broken: rest.Observer = {
      trace: () => {
        throw new Error('tracer down');
      },
    };
    const c = rest.newClient({ observer: broken });
    c.attach(nodeHttp.newClientTransport({ baseURL }));
    expect(await c.call(getItem, { id: 'e5' })).toMatchObject({ id: 'e5' });
  });
});
