/**
 * Measures one group of codec cases alone in this process: forked by `codec.ts` with the
 * group's name, it checks the group (`ready` is an empty result), then measures every row on
 * each `run` message and sends the results back over IPC, until `stop`.
 */
import { Bench } from 'tinybench';
import { BATCH, GROUPS, POOL, sanityCheck, type Measured, type Row } from './cases.js';

let sink: unknown;

async function measure(rows: readonly Row[], time: number): Promise<Measured[]> {
  const bench = new Bench({ time, warmupTime: Math.min(100, time), throws: true });
  for (const row of rows) {
    const run = row.run;
    bench.add(`${row.section}: ${row.label}`, () => {
      let last: unknown;
      for (let k = 0; k < BATCH; k++) last = run(k & (POOL - 1));
      sink = last;
    });
  }
  await bench.run();
  return bench.tasks.map((t, i) => {
    const r = t.result;
    if (r.state !== 'completed') throw new Error(`${t.name}: ${r.state}`);
    const row = rows[i] as Row;
    return { section: row.section, label: row.label, variant: row.variant === true, ops: (BATCH * 1000) / r.latency.mean, rme: r.latency.rme };
  });
}

const name = process.argv[2];
const group = GROUPS.find((g) => g.name === name);
const send = (m: unknown): void => {
  process.send?.(m);
};
process.on('disconnect', () => process.exit(0));
try {
  if (group === undefined) throw new Error(`no codec group ${JSON.stringify(name)}`);
  const counts = sanityCheck(group);
  // Each `run` message measures every row once more (the parent interleaves the groups' rounds).
  process.on('message', (m: { readonly type: 'run'; readonly time: number } | { readonly type: 'stop' }) => {
    if (m.type === 'stop') process.exit(0);
    measure(group.rows, m.time).then(
      (measured) => {
        void sink;
        const results = measured.map((r) => {
          const issues = counts.get(r.label);
          return r.section === 'invalid' && issues !== undefined ? { ...r, issues } : r;
        });
        send({ ok: true, results });
      },
      (err: unknown) => send({ ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
  send({ ok: true, results: [] });
} catch (err) {
  send({ ok: false, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exitCode = 1;
}
