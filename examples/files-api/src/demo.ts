/**
 * Body formats end to end over real HTTP: uploads a PNG avatar raw and as a multipart form,
 * downloads it, reads one report in six formats by `Accept`, streams a 100 000-row NDJSON
 * export, provokes 406, 413 and 415, and checks that a download that is not a PNG fails
 * client-side validation. Writes openapi.yaml and validates it. Exits 1 when anything differs
 * from what the API declares.
 */
import { writeFileSync } from 'node:fs';
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import { csv, exportAll, getAvatar, getReport, MAX_AVATAR_BYTES, postAvatarForm, putAvatar, report, reportPage } from './api.js';
import { openapiPath, renderOpenAPI, validateOpenAPI } from './openapi.js';
import { Q3_REPORT, startServer } from './server.js';

const stop = new AbortController();
const { address, done } = await startServer('127.0.0.1:0', stop.signal);
const base = `http://${address.host}:${address.port}`;
console.log(`files-api listening on ${base}\n`);

let failures = 0;
function check(label: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label.padEnd(62)} ${detail}`);
}
const client = rest.newClient();
client.attach(nodeHttp.newClientTransport({ baseURL: base }));

/** A small valid PNG (1×1, RGBA), and the same bytes padded to `size`. */
const PNG_1X1 = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
const paddedPng = (size: number): Uint8Array => {
  const b = new Uint8Array(size);
  b.set(PNG_1X1);
  return b;
};

console.log('avatars: raw image/png and multipart/form-data');
const raw = await client.call(putAvatar, { userId: 'ada', body: PNG_1X1 });
check('PUT /avatars/ada (image/png, 70 bytes)', raw.bytes === PNG_1X1.byteLength, JSON.stringify(raw));
const back = await client.call(getAvatar, { userId: 'ada' });
check('GET /avatars/ada -> the same bytes, validated as a PNG', back.length === PNG_1X1.length && back.every((b, i) => b === PNG_1X1[i]), `${back.byteLength} bytes`);
const form = await client.call(postAvatarForm, { userId: 'grace', avatar: paddedPng(200_000), caption: 'At the beach' });
check('POST /avatars/grace/form (multipart, 200 kB + caption)', form.bytes === 200_000 && form.caption === 'At the beach', JSON.stringify(form));
const fromBrowser = new FormData();
fromBrowser.set('avatar', new Blob([PNG_1X1], { type: 'image/png' }), 'me.png');
fromBrowser.set('caption', 'sent as a browser would');
const browser = await fetch(`${base}/avatars/linus/form`, { method: 'POST', body: fromBrowser });
check('POST /avatars/linus/form from FormData (as a browser sends it)', browser.status === 201, `${browser.status} ${await browser.text()}`);
const notPng = await fetch(`${base}/avatars/eve`, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: 'GIF89a' });
check('PUT a GIF as image/png -> 400 (magic bytes)', notPng.status === 400, `${notPng.status} ${await notPng.text()}`);
// The 5 MiB limit is written once, in the PNG codec: both uploads read up to it, and no further.
const largest = await client.call(putAvatar, { userId: 'eve', body: paddedPng(MAX_AVATAR_BYTES) });
check('PUT a 5 MiB PNG (the limit, stated once in the codec)', largest.bytes === MAX_AVATAR_BYTES, JSON.stringify(largest));
const tooBig = await fetch(`${base}/avatars/eve`, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: paddedPng(MAX_AVATAR_BYTES + 1) });
check('PUT a 5 MiB + 1 byte PNG -> 413', tooBig.status === 413, `${tooBig.status} ${await tooBig.text()}`);
const largestPart = await client.call(postAvatarForm, { userId: 'eve', avatar: paddedPng(MAX_AVATAR_BYTES), caption: 'the largest' });
check('POST a 5 MiB file part', largestPart.bytes === MAX_AVATAR_BYTES, JSON.stringify(largestPart));
// A client that is refused and then sends a valid upload is never lost: 20 times in a row, on
// the same connections (the global fetch, which the client's transport also uses).
let recovered = 0;
for (let i = 0; i < 20; i++) {
  const refused = await fetch(`${base}/avatars/eve`, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: paddedPng(MAX_AVATAR_BYTES + 1) });
  await refused.arrayBuffer();
  const valid = i % 2 === 0 ? await client.safeCall(putAvatar, { userId: 'eve', body: paddedPng(MAX_AVATAR_BYTES) }) : await client.safeCall(postAvatarForm, { userId: 'eve', avatar: paddedPng(MAX_AVATAR_BYTES), caption: `try ${i}` });
  if (refused.status === 413 && valid.ok && valid.value.bytes === MAX_AVATAR_BYTES) recovered++;
  else console.log(`     #${i}: ${refused.status}, ${valid.ok ? JSON.stringify(valid.value) : String(valid.error)}`);
}
check('20 × (5 MiB + 1 byte → 413, then a valid 5 MiB upload)', recovered === 20, `${recovered} of 20 valid uploads after a 413 succeeded`);
const bigPart = new FormData();
bigPart.set('avatar', new Blob([paddedPng(MAX_AVATAR_BYTES + 1)], { type: 'image/png' }), 'big.png');
const tooBigPart = await fetch(`${base}/avatars/eve/form`, { method: 'POST', body: bigPart });
check('POST a 5 MiB + 1 byte file part -> 413', tooBigPart.status === 413, `${tooBigPart.status} ${await tooBigPart.text()}`);
const wrongType = await fetch(`${base}/avatars/eve`, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: PNG_1X1 });
check('PUT with Content-Type image/jpeg -> 415', wrongType.status === 415, `${wrongType.status} ${await wrongType.text()}`);
const missing = await client.call(getAvatar, { userId: 'nobody' }).catch((e: unknown) => e);
check('GET /avatars/nobody -> 404 AvatarMissing', missing instanceof rest.ErrorPatternResponse && missing.statusCode === 404, String(missing));
// A client whose route says "PNG" refuses a download that is not one, even when the server sends it.
const lax = rest.newRoute('GET', '/avatars/{userId}', codec.empty<{ userId: string }>(), codec.bytes(), rest.newPathParam('userId', codec.string(), (r) => r.userId, (r, v) => {
  r.userId = v;
}), rest.formats(format.binary(codec.bytes()).withContentType('image/png')));
const sneaky = rest.newServer({ title: 'not a PNG', version: '0' });
lax.withHandler(() => new TextEncoder().encode('GIF89a')).register(sneaky);
const sneakyTransport = nodeHttp.newServerTransport({ addr: '127.0.0.1:0' });
sneaky.attach(sneakyTransport);
const stopSneaky = new AbortController();
const sneakyDone = sneaky.serve({ signal: stopSneaky.signal });
const sneakyAddr = await sneakyTransport.listening();
const strict = rest.newClient();
strict.attach(nodeHttp.newClientTransport({ baseURL: `http://${sneakyAddr.host}:${sneakyAddr.port}` }));
const refused = await strict.call(getAvatar, { userId: 'x' }).catch((e: unknown) => e);
check('a GIF answered to a PNG route fails client-side validation', refused instanceof rest.ResponseBodyError, String(refused));
stopSneaky.abort();
await sneakyDone;

console.log('\nreports: one route, six formats, chosen by Accept');
for (const f of [format.json(report), format.yaml(report), format.toml(report), format.cbor(report), csv] as format.Format<typeof Q3_REPORT>[]) {
  const r = await client.call(getReport, { id: 'q3-2026' }, { responseFormats: [f as format.AnyFormat] });
  check(`GET /reports/q3-2026 as ${f.contentType}`, JSON.stringify(r) === JSON.stringify(Q3_REPORT), `${r.lines.length} lines, "${r.title}"`);
}
const page = await fetch(`${base}/reports/q3-2026`, { headers: { accept: 'text/html;q=0.9, application/json;q=0.5' } });
const html = await page.text();
check('GET /reports/q3-2026 with Accept: text/html;q=0.9, ... -> HTML', page.headers.get('content-type') === reportPage.contentType && html.includes('&#34;final&#34; &#38; audited'), `${html.length} characters, Vary: ${page.headers.get('vary') ?? ''}`);
const yamlText = await (await fetch(`${base}/reports/q3-2026`, { headers: { accept: 'application/yaml' } })).text();
console.log(`     the YAML variant:\n${yamlText.trimEnd().replace(/^/gm, '       ')}`);
const none = await fetch(`${base}/reports/q3-2026`, { headers: { accept: 'application/xml' } });
check('GET /reports/q3-2026 with Accept: application/xml -> 406', none.status === 406, `${none.status} ${await none.text()}`);
const missingYaml = await fetch(`${base}/reports/q9`, { headers: { accept: 'application/yaml' } });
check('GET /reports/q9 with Accept: application/yaml -> 404 in YAML', missingYaml.status === 404 && missingYaml.headers.get('content-type') === 'application/yaml', JSON.stringify(await missingYaml.text()));

console.log('\nexport: 100 000 rows streamed as NDJSON');
const started = performance.now();
let rows = 0;
let units = 0;
for await (const row of await client.call(exportAll, { rows: 100_000 })) {
  rows++;
  units += row.units;
}
check('GET /export?rows=100000, read as the rows arrive', rows === 100_000, `${rows} rows, ${units} units, ${(performance.now() - started).toFixed(0)} ms`);
const head = await fetch(`${base}/export?rows=3`);
check('the export is chunked, one JSON value per line', head.headers.get('transfer-encoding') === 'chunked', JSON.stringify(await head.text()));

console.log('\nOpenAPI 3.1');
writeFileSync(openapiPath, renderOpenAPI());
const errors = await validateOpenAPI(openapiPath);
check(`wrote and validated ${openapiPath.split('/').slice(-2).join('/')}`, errors.length === 0, errors.length === 0 ? 'valid against the OpenAPI 3.1 schema' : errors.join('; '));

stop.abort();
await done;
console.log(failures === 0 ? '\ndemo passed: every call answered as declared' : `\ndemo FAILED: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
