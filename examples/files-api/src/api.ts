/**
 * The files API, declared once: the server, the typed client and the OpenAPI document are all
 * built from these values.
 *
 * - `PUT /avatars/{userId}`: a PNG avatar as the raw body (`image/png`), at most 5 MiB, checked
 *   by its magic bytes;
 * - `POST /avatars/{userId}/form`: the same as a `multipart/form-data` upload with a caption;
 * - `GET /avatars/{userId}`: the avatar back, as `image/png`;
 * - `GET /reports/{id}`: one report as JSON, YAML, TOML, CBOR, CSV or HTML, by `Accept`;
 * - `GET /export?rows=N`: N rows as NDJSON, streamed as they are produced.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';

/** 5 MiB: the largest avatar. */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

const userId = codec.string().refine(validate.slug, validate.maxLength(64)).withDescription('The owner of the avatar.');
/**
 * A PNG image of at most 5 MiB. The limit is stated here only: the raw and the multipart upload
 * read a body up to it and answer 413 past it, and the document gives it on their 413.
 */
export const png = codec.bytes().refine(validate.png, validate.maxBytes(MAX_AVATAR_BYTES));

export const avatarInfo = codec
  .object({
    userId: codec.string(),
    bytes: codec.int().withDescription('The size of the stored image, in bytes.'),
    caption: codec.optional(codec.string()),
  })
  .withName('AvatarInfo');
export type AvatarInfo = codec.Infer<typeof avatarInfo>;

const avatarMissing = codec.object({ error: codec.string(), userId: codec.string() }).withName('AvatarMissing');
/** No avatar is stored for this user. */
export class AvatarMissingError extends Error {
  constructor(readonly userId: string) {
    super(`no avatar for ${userId}`);
    this.name = 'AvatarMissingError';
  }
}
const avatarMissingPattern = rest.errorPattern(AvatarMissingError, 404, avatarMissing, (e) => ({ error: e.message, userId: e.userId })).withDescription('No avatar is stored for this user.');

// --- raw upload: the body is the image itself ---------------------------------------------

/** `image/png` bodies and responses: the bytes are the image (no JSON, no base64); the PNG checks run. */
export const pngFormat = format.binary(png).withContentType('image/png');

/** The raw upload: the request is `{ userId, body }`, the owner from the path and the image as the body. */
export const putAvatar = rest.route({
  method: 'PUT',
  path: '/avatars/{userId}',
  pathParams: { userId },
  body: png,
  requestFormats: [pngFormat],
  response: avatarInfo,
  meta: { operationId: 'putAvatar', summary: 'Upload an avatar as a raw PNG body', tags: ['avatars'], respStatus: 200 },
});

// --- multipart upload: the image and a caption ---------------------------------------------

export const avatarForm = codec.object({
  avatar: png.withDescription('The image, a PNG of at most 5 MiB.'),
  caption: codec.optional(codec.string().refine(validate.maxLength(200))),
});
/** `multipart/form-data`: `avatar` is a file part, `caption` a text field; `userId` comes from the path. */
export const avatarMultipart = format.multipart(avatarForm, { maxParts: 4 });

export const postAvatarForm = rest.route({
  method: 'POST',
  path: '/avatars/{userId}/form',
  pathParams: { userId },
  body: avatarForm,
  requestFormats: [avatarMultipart],
  response: avatarInfo,
  meta: { operationId: 'postAvatarForm', summary: 'Upload an avatar with a caption as a multipart form', tags: ['avatars'] },
});

// --- download -------------------------------------------------------------------------------

export const getAvatar = rest.route({
  method: 'GET',
  path: '/avatars/{userId}',
  pathParams: { userId },
  response: png,
  formats: [pngFormat],
  errors: [avatarMissingPattern],
  meta: { operationId: 'getAvatar', summary: 'Download an avatar', tags: ['avatars'] },
});

// --- a report in six formats ------------------------------------------------------------------

export const reportLine = codec.object({ product: codec.string(), units: codec.int(), revenue: codec.number() }).withName('ReportLine');
export const report = codec
  .object({
    id: codec.string(),
    title: codec.string(),
    generatedAt: codec.time(),
    lines: codec.array(reportLine),
  })
  .withName('Report');
export type Report = codec.Infer<typeof report>;

const encoder = new TextEncoder();
/** A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180 §2). */
const csvField = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
/**
 * CSV (RFC 4180) through `format.newTyped`: a header row, then one row per line; the report's
 * id, title and time travel in the first columns of every row.
 */
export const csv = format
  .newTyped(
    report,
    (r) =>
      encoder.encode(
        ['id,title,generatedAt,product,units,revenue', ...r.lines.map((l) => [r.id, r.title, r.generatedAt.toISOString(), l.product, String(l.units), String(l.revenue)].map(csvField).join(','))].join('\r\n') + '\r\n',
      ),
    (bytes) => parseCsvReport(new TextDecoder('utf-8', { fatal: true }).decode(bytes)),
    'text/csv; charset=utf-8',
  )
  .withBodySchema({ type: 'string', contentMediaType: 'text/csv' });

/** Reads what `csv` writes. @throws {SyntaxError} for anything else. */
function parseCsvReport(text: string): Report {
  const rows = text.split(/\r?\n/).filter((l) => l !== '');
  if (rows[0] !== 'id,title,generatedAt,product,units,revenue') throw new SyntaxError('unexpected header row');
  const cells = rows.slice(1).map(splitCsvRow);
  const first = cells[0];
  if (first === undefined) throw new SyntaxError('no rows');
  return {
    id: first[0] ?? '',
    title: first[1] ?? '',
    generatedAt: new Date(first[2] ?? ''),
    lines: cells.map((c) => ({ product: c[3] ?? '', units: Number(c[4]), revenue: Number(c[5]) })),
  };
}

function splitCsvRow(row: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= row.length) {
    if (row[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = row.indexOf('"', i);
        if (q === -1) throw new SyntaxError('unterminated quoted field');
        v += row.slice(i, q);
        if (row[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
      i++;
    } else {
      const c = row.indexOf(',', i);
      const end = c === -1 ? row.length : c;
      out.push(row.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** The report as an HTML page (response-only). */
export const reportPage = format.html(
  report,
  (r) =>
    `<!doctype html><title>${escapeHtml(r.title)}</title><h1>${escapeHtml(r.title)}</h1><table><tr><th>product</th><th>units</th><th>revenue</th></tr>${r.lines
      .map((l) => `<tr><td>${escapeHtml(l.product)}</td><td>${l.units}</td><td>${l.revenue.toFixed(2)}</td></tr>`)
      .join('')}</table>`,
);

const reportMissing = codec.object({ error: codec.string(), id: codec.string() }).withName('ReportMissing');
/** No report has this id. */
export class ReportMissingError extends Error {
  constructor(readonly id: string) {
    super(`no report ${id}`);
    this.name = 'ReportMissingError';
  }
}

export const getReport = rest.newRoute(
  'GET',
  '/reports/{id}',
  codec.empty<{ id: string }>(),
  report,
  rest.routeMeta({ operationId: 'getReport', summary: 'One report, in the format Accept asks for', tags: ['reports'] }),
  rest.newPathParam('id', codec.string().refine(validate.slug), (r) => r.id, (r, v) => {
    r.id = v;
  }),
  rest.formats(format.json(report), format.yaml(report), format.toml(report), format.cbor(report), csv, reportPage),
  rest.errorPattern(ReportMissingError, 404, reportMissing, (e) => ({ error: e.message, id: e.id })).withDescription('No report has this id.'),
);

// --- a streamed NDJSON export ---------------------------------------------------------------

export const exportRow = codec.object({ seq: codec.int(), product: codec.string(), units: codec.int() }).withName('ExportRow');
export type ExportRow = codec.Infer<typeof exportRow>;
/** The rows of an export: an `AsyncIterable`, each row checked as it is read. */
export const exportRows = codec.stream(exportRow);

/**
 * NDJSON (one JSON value per line) through `format.newStreamed`: the server writes each row as
 * the client's connection takes it; the client reads rows as they arrive.
 */
export const ndjson = format.newStreamed(
  exportRows,
  async (rows, w) => {
    for await (const r of rows) await w.write(`${JSON.stringify(exportRow.encode(r))}\n`);
  },
  async function* (body) {
    for await (const line of format.lines(body)) if (line !== '') yield JSON.parse(line) as ExportRow;
  },
  'application/x-ndjson',
);

export const exportAll = rest.newRoute(
  'GET',
  '/export',
  codec.empty<{ rows: number }>(),
  exportRows,
  rest.routeMeta({ operationId: 'exportRows', summary: 'Every row, streamed as NDJSON', tags: ['reports'] }),
  rest.newRequiredQueryParam('rows', codec.intString().refine(validate.range(0, 1_000_000)), (r) => r.rows, (r, v) => {
    r.rows = v;
  }),
  rest.formats(ndjson),
);
