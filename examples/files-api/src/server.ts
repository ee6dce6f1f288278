import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { AvatarMissingError, exportAll, getAvatar, getReport, postAvatarForm, putAvatar, ReportMissingError, type ExportRow, type Report } from './api.js';

/** A stored avatar. */
interface Avatar {
  readonly image: Uint8Array;
  readonly caption?: string;
}

/** The one report the example serves. */
export const Q3_REPORT: Report = {
  id: 'q3-2026',
  title: 'Q3 2026 sales, "final" & audited',
  generatedAt: new Date('2026-10-01T09:00:00.000Z'),
  lines: [
    { product: 'Widget, large', units: 1200, revenue: 35988 },
    { product: 'Gadget', units: 310, revenue: 9269.5 },
  ],
};

/** The rows of an export, produced one at a time (as a database cursor would give them). */
async function* produceRows(count: number, signal: AbortSignal): AsyncGenerator<ExportRow, void, undefined> {
  for (let seq = 0; seq < count && !signal.aborted; seq++) yield { seq, product: `product-${seq % 97}`, units: (seq * 7) % 1000 };
}

/** The builder with every route registered; avatars live in memory. */
export function buildApi(avatars: Map<string, Avatar> = new Map()): rest.Server {
  const api = rest.newServer(
    {
      title: 'Files API',
      version: '1.0.0',
      summary: 'Avatars, reports in six formats, and a streamed export.',
      description: 'Body formats end to end: raw and multipart uploads, content negotiation and streamed responses.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    rest.withPathConstraints(validate.httpPath),
  );
  api.addTag('avatars', { description: 'PNG avatars: uploaded raw or as a multipart form, downloaded as image/png.' });
  api.addTag('reports', { description: 'A report in the format Accept asks for, and a streamed export.' });
  api.addServer('local', { url: 'http://127.0.0.1:8081' });
  const info = (userId: string, a: Avatar) => ({ userId, bytes: a.image.byteLength, ...(a.caption !== undefined && { caption: a.caption }) });
  putAvatar
    .withHandler((_ctx, req) => {
      const a: Avatar = { image: req.body };
      avatars.set(req.userId, a);
      return info(req.userId, a);
    })
    .register(api);
  postAvatarForm
    .withHandler((_ctx, req) => {
      const a: Avatar = { image: req.avatar, ...(req.caption !== undefined && { caption: req.caption }) };
      avatars.set(req.userId, a);
      return info(req.userId, a);
    })
    .register(api);
  getAvatar
    .withHandler((_ctx, req) => {
      const a = avatars.get(req.userId);
      if (a === undefined) throw new AvatarMissingError(req.userId);
      return a.image;
    })
    .register(api);
  getReport
    .withHandler((_ctx, req) => {
      if (req.id !== Q3_REPORT.id) throw new ReportMissingError(req.id);
      return Q3_REPORT;
    })
    .register(api);
  exportAll.withHandler((ctx, req) => produceRows(req.rows, ctx.signal)).register(api);
  return api;
}

/** Starts the service on `addr` (`host:port`, port 0 for a free one); resolves with its address and a promise that settles after `signal` aborts. */
export async function startServer(addr: string, signal: AbortSignal): Promise<{ address: nodeHttp.Address; done: Promise<void> }> {
  const api = buildApi();
  const transport = nodeHttp.newServerTransport({ addr });
  api.attach(transport);
  const done = api.serve({ signal });
  const address = await Promise.race([transport.listening(), done.then(() => Promise.reject(new Error('server stopped before listening')))]);
  return { address, done };
}
