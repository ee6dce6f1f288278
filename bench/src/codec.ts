/**
 * Codec benchmark: decode (validate + parse) and encode of one realistic user object with
 * @lib/codec and its peers — zod 4, valibot 1, arktype 2, TypeBox compiled (TypeCompiler) —
 * reported as ops/s and as the ratio @lib ÷ peer, all in one run.
 *
 * Each library is measured alone in its own child process, so that one library's garbage and
 * JIT feedback do not weigh on another's. The machine's speed drifts (it is shared), so the
 * groups are measured in interleaved rounds — every group once, then every group again — and
 * each row reports its best round and how much slower its worst one was. The cases are in
 * `codec/cases.ts`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BATCH, GROUPS, POOL, SCHEMA_DIFFERENCES, type Measured, type Section } from './codec/cases.js';
import { atLeast, int, mdTable, ratio, type Target } from './util.js';

const childPath = fileURLToPath(new URL('./codec/child.ts', import.meta.url));

type ChildReply = { readonly ok: true; readonly results: readonly Measured[] } | { readonly ok: false; readonly message: string };

class GroupProcess {
  readonly name: string;
  readonly #proc: ChildProcess;
  /** Replies not yet asked for, and askers not yet answered. */
  readonly #replies: ChildReply[] = [];
  readonly #waiting: ((r: ChildReply) => void)[] = [];

  constructor(name: string) {
    this.name = name;
    // The child inherits this process's exec arguments (tsx's loader, and `--conditions=lib-source` unless `--dist`).
    this.#proc = fork(childPath, [name], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const deliver = (r: ChildReply): void => {
      const w = this.#waiting.shift();
      if (w === undefined) this.#replies.push(r);
      else w(r);
    };
    this.#proc.on('message', deliver);
    this.#proc.on('exit', (code) => deliver({ ok: false, message: `exited with ${code}` }));
  }

  async #next(): Promise<readonly Measured[]> {
    const r = this.#replies.shift() ?? (await new Promise<ChildReply>((resolve) => this.#waiting.push(resolve)));
    if (!r.ok) throw new Error(`codec benchmark ${this.name}: ${r.message}`);
    return r.results;
  }

  /** Resolves once the child has checked its cases. */
  ready(): Promise<readonly Measured[]> {
    return this.#next();
  }

  run(time: number): Promise<readonly Measured[]> {
    this.#proc.send({ type: 'run', time });
    return this.#next();
  }

  stop(): void {
    if (this.#proc.connected) this.#proc.send({ type: 'stop' });
  }
}

export interface CodecOptions {
  /** Measured milliseconds per case and round (after a 100 ms warm-up). Default 200. */
  readonly time?: number;
  /** Interleaved rounds. Default 5. */
  readonly rounds?: number;
}

export interface CodecReport {
  readonly markdown: string;
  /** The codec targets, as ratios of this run. */
  readonly targets: readonly Target[];
}

interface Row {
  readonly section: Section;
  readonly label: string;
  readonly variant: boolean;
  readonly issues: number | undefined;
  /** ops/s, one per round. */
  readonly rounds: number[];
}

const TITLES: Record<Section, string> = {
  valid: 'decode, valid input',
  invalid: 'decode, invalid input (8 problems, every issue collected)',
  encode: 'encode (decoded value → JSON text)',
  list: 'decode, a list of 200 valid users',
  strings: 'decode, an array of 200 strings (@lib returns it as it is)',
  compile: 'declare the schema, then decode one valid input (compile time)',
};

/** The best round: on a shared machine, interference only ever slows a round down. */
function best(xs: readonly number[]): number {
  return Math.max(...xs);
}

/** Runs the codec benchmark; `log` receives progress lines. */
export async function runCodecBench(options: CodecOptions = {}, log: (s: string) => void = () => undefined): Promise<CodecReport> {
  const time = options.time ?? 200;
  const rounds = options.rounds ?? 5;
  const procs = GROUPS.map((g) => new GroupProcess(g.name));
  const rows = new Map<string, Row>();
  try {
    for (const p of procs) await p.ready();
    for (let round = 1; round <= rounds; round++) {
      for (const p of procs) {
        for (const m of await p.run(time)) {
          const key = `${m.section}\u0000${m.label}`;
          const row = rows.get(key) ?? { section: m.section, label: m.label, variant: m.variant, issues: m.issues, rounds: [] };
          row.rounds.push(m.ops);
          rows.set(key, row);
        }
      }
      log(`  codec round ${round}/${rounds} done`);
      if (process.env.BENCH_VERBOSE === '1') for (const r of rows.values()) log(`    ${r.section} ${r.label}: ${r.rounds.map((x) => int(x)).join(' ')}`);
    }
  } finally {
    for (const p of procs) p.stop();
  }

  const sections = (Object.keys(TITLES) as Section[]).map((section) => {
    const list = [...rows.values()].filter((r) => r.section === section).sort((a, b) => Number(a.variant) - Number(b.variant));
    const ours = list.find((r) => r.label === '@lib/codec') as Row;
    const withIssues = section === 'invalid';
    const table = list.map((r) => {
      const m = best(r.rounds);
      const spread = (100 * (m - Math.min(...r.rounds))) / m;
      return [
        r.variant ? `(variant) ${r.label}` : r.label,
        int(m),
        spread.toFixed(0),
        r === ours || r.variant ? '' : ratio(best(ours.rounds), m),
        ...(withIssues ? [String(r.issues ?? '')] : []),
      ];
    });
    const headers = ['library', `ops/s (best of ${rounds})`, 'spread %', '@lib ÷ peer', ...(withIssues ? ['issues'] : [])];
    return `#### ${TITLES[section]}\n\n${mdTable(headers, table)}`;
  });

  const ops = (section: Section, label: string): number => {
    const r = rows.get(`${section}\u0000${label}`);
    return r === undefined ? NaN : best(r.rounds);
  };
  const targets = [
    atLeast('codec decode, valid input: @lib ÷ arktype (ops/s)', ops('valid', '@lib/codec') / ops('valid', 'arktype 2'), 1),
    atLeast('codec decode, valid input: @lib ÷ zod (ops/s)', ops('valid', '@lib/codec') / ops('valid', 'zod 4'), 2),
    atLeast('codec decode, invalid input: @lib ÷ valibot (ops/s)', ops('invalid', '@lib/codec') / ops('invalid', 'valibot 1'), 1),
  ];
  const notes = SCHEMA_DIFFERENCES.map((d) => `- ${d}`).join('\n');
  const method = [
    '`@lib ÷ peer` above 1 means @lib/codec is faster.',
    `Each library is measured alone in its own process; ${rounds} interleaved rounds of ${time} ms per case (each after a 100 ms warm-up), ${BATCH} operations per sample over ${POOL} inputs.`,
    '`ops/s` is the best round (interference on a shared machine only slows rounds down), `spread` how much slower the worst round was, in percent.',
  ].join(' ');
  return { markdown: `${sections.join('\n\n')}\n\n${method}\n\nWhere the schemas differ:\n\n${notes}`, targets };
}

// `tsx --conditions=lib-source src/codec.ts` runs this part alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await runCodecBench({}, (s) => console.error(s))).markdown);
}
