/**
 * A server in its own process, so that a test measures the server's memory alone: run by
 * `memory.ts` as `node --expose-gc --conditions=lib-source --import tsx memory-server.ts <adapter>`.
 * Prints `READY <baseURL>` once listening. Routes:
 * - `GET /m/download?mb=N`: N MiB of bytes, streamed in 64 KiB chunks (`format.newStreamed`);
 * - `POST /m/upload`: a multipart form with one large `file` (a `codec.blob()` field, kept in
 *   a temporary file) and a `note`; answers the file's size;
 * - `GET /m/events`: an endless event stream; `GET /m/settled`: RSS, and the heap and buffers in use, after collecting garbage,
 *   and how many event sources are running;
 * - `GET /m/rows?mb=N`: about N MiB of NDJSON rows (1 KiB each), produced by the handler's async
 *   generator as they are pulled; `GET /m/heap`: the heap, the memory of array buffers and the
 *   RSS after collecting garbage, in bytes, how many row sources are running and how many rows
 *   they produced in all;
 * - `POST /m/reset`: collects garbage and starts a new measurement; `GET /m/peak`: the
 *   baseline RSS and the peak RSS since, in bytes (sampled every 5 ms).
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import type { AdapterUnderTest } from './suite.js';

const adapters: Record<string, () => Promise<AdapterUnderTest>> = {
  'node-http': async () => (await import('./node-http-adapter.js')).nodeHttpAdapter,
  'router-adapter': async () => (await import('./router-adapter-adapter.js')).routerAdapter,
};

const CHUNK = new Uint8Array(64 * 1024).fill(0x61);
const bytes = format.newStreamed(
  codec.object({ mb: codec.int() }),
  async (v, w) => {
    for (let i = 0; i < v.mb * 16; i++) await w.write(CHUNK);
  },
  () => ({ mb: 0 }),
  'application/octet-stream',
);
const download = rest.newRoute(
  'GET',
  '/m/download',
  codec.empty<{ mb: number }>(),
  codec.object({ mb: codec.int() }),
  rest.newRequiredQueryParam('mb', codec.intString(), (r) => r.mb, (r, v) => {
    r.mb = v;
  }),
  rest.formats(bytes),
);
const stats = codec.object({ baseline: codec.int(), peak: codec.int() });
const reset = rest.newRoute('POST', '/m/reset', codec.empty<object>(), stats);
const peakRoute = rest.newRoute('GET', '/m/peak', codec.empty<object>(), stats);

let baseline = process.memoryUsage().rss;
let peak = baseline;
// Between a reset and the reading of the peak, each sample first runs a minor collection (a
// scavenge, about 0.2 ms): the 64 KiB buffers a large body passes through are garbage as soon
// as they are passed on, but V8 frees their memory only when it next collects, which a loaded
// machine may put off for 30 MB or more. A buffer the server still holds survives any
// collection, so the peak measures what is held, not how late the collector ran. (Outside a
// measurement, no sampling: scavenging every 5 ms promotes young objects early, which the
// event-stream churn below would read as growth.)
const collectYoung = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;
let sampler: ReturnType<typeof setInterval> | undefined;
function sampleUntilRead(): void {
  clearInterval(sampler);
  sampler = setInterval(() => {
    collectYoung?.({ type: 'minor' });
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  sampler.unref();
}

const api = rest.newServer({ title: 'memory', version: '1.0.0' }, rest.withDefaultOptions({ maxBodyBytes: 256 * 1024 * 1024 }));
download.withHandler((_ctx, r) => ({ mb: r.mb })).register(api);
reset
  .withHandler(() => {
    (globalThis as { gc?: () => void }).gc?.();
    baseline = process.memoryUsage().rss;
    peak = baseline;
    sampleUntilRead();
    return { baseline, peak };
  })
  .register(api);
peakRoute
  .withHandler(() => {
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { baseline, peak };
  })
  .register(api);
/** An endless event feed; `active` counts the sources running. */
let active = 0;
const ticks = rest.newSSERoute('GET', '/m/events', codec.empty<object>(), codec.object({ n: codec.int(), pad: codec.string() }));
ticks
  .withHandler(async function* (ctx) {
    active++;
    try {
      for (let n = 0; !ctx.signal.aborted; n++) {
        yield { data: { n, pad: 'x'.repeat(1000) }, id: String(n) };
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      active--;
    }
  })
  .register(api);
const settled = rest.newRoute('GET', '/m/settled', codec.empty<object>(), codec.object({ rss: codec.int(), held: codec.int(), active: codec.int() }));
settled
  .withHandler(() => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss, held: m.heapUsed + m.arrayBuffers, active };
  })
  .register(api);

/** Rows of about 1 KiB; `rowSources` counts the row generators running, `rowsMade` the rows made. */
const row = codec.object({ n: codec.int(), pad: codec.string() });
const ndjson = format.newStreamed(
  codec.stream(row),
  async (items, w) => {
    for await (const r of items) await w.write(`${JSON.stringify(r)}\n`);
  },
  async function* (body) {
    for await (const line of format.lines(body)) if (line !== '') yield JSON.parse(line) as { n: number; pad: string };
  },
  'application/x-ndjson',
);
const PAD = 'r'.repeat(1000);
let rowSources = 0;
let rowsMade = 0;
const rowsRoute = rest.newRoute(
  'GET',
  '/m/rows',
  codec.empty<{ mb: number }>(),
  codec.stream(row),
  rest.newRequiredQueryParam('mb', codec.intString(), (r) => r.mb, (r, v) => {
    r.mb = v;
  }),
  rest.formats(ndjson),
);
rowsRoute
  .withHandler((_ctx, r) =>
    (async function* () {
      rowSources++;
      try {
        for (let n = 0; n < r.mb * 1024; n++) {
          rowsMade++;
          yield { n, pad: PAD };
        }
      } finally {
        rowSources--;
      }
    })(),
  )
  .register(api);
const heap = rest.newRoute('GET', '/m/heap', codec.empty<object>(), codec.object({ heapUsed: codec.int(), arrayBuffers: codec.int(), rss: codec.int(), rowSources: codec.int(), rowsMade: codec.int() }));
heap
  .withHandler(() => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    return { heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers, rss: m.rss, rowSources, rowsMade };
  })
  .register(api);

const uploadForm = codec.object({ note: codec.string(), file: codec.blob() });
const upload = rest.newRoute('POST', '/m/upload', uploadForm, codec.object({ note: codec.string(), bytes: codec.int() }), rest.requestFormats(format.multipart(uploadForm)));
upload.withHandler((_ctx, u) => ({ note: u.note, bytes: u.file.size })).register(api);

const name = process.argv[2] ?? 'node-http';
const adapter = await adapters[name]?.();
if (adapter === undefined) {
  console.error(`unknown adapter ${name}`);
  process.exit(2);
}
const served = await adapter.serve(api);
console.log(`READY ${served.baseURL}`);
process.on('SIGTERM', () => {
  void served.stop().then(() => process.exit(0));
});
