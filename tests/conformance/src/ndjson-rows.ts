/** Rows `{ n }` as NDJSON through `format.newStreamed`: the streamed format several suites serve. */
import * as codec from '@lib/codec';
import * as format from '@lib/format';

/** One row. */
export const row = codec.object({ n: codec.int() });
/** A stream of rows, as a route's response codec. */
export const rows = codec.stream(row);
/** Rows as `application/x-ndjson`, one JSON line each. */
export const ndjson = format.newStreamed(
  rows,
  async (items, w) => {
    for await (const r of items) await w.write(`${JSON.stringify(r)}\n`);
  },
  async function* (body) {
    for await (const line of format.lines(body)) if (line !== '') yield JSON.parse(line) as { n: number };
  },
  'application/x-ndjson',
);
