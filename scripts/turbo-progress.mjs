// Runs `turbo run …` and shows its progress in a few lines: one line as each package's task
// ends (built, types, lint, the tests of each file and the package's count and time), a line
// when nothing else was said for ~10 s naming what still runs, and the whole output of a task
// that failed. Everything a task printed goes to its log as turbo keeps it; here only progress.
//
//   node scripts/turbo-progress.mjs run build typecheck lint test --concurrency=2
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const started = Date.now();
/** Seconds since `t`, as `12.3s` or `1m04s`. */
function since(t) {
  const s = (Date.now() - t) / 1000;
  return s < 60 ? `${s.toFixed(1)}s` : `${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
}
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

let lastSaid = Date.now();
function say(line) {
  process.stdout.write(`${line}\n`);
  lastSaid = Date.now();
}

/** Per task (`pkg:task`): when it started, what it printed, whether it ended. */
const tasks = new Map();
function task(id) {
  let t = tasks.get(id);
  if (t === undefined) tasks.set(id, (t = { started: Date.now(), lines: [], done: false, tests: undefined }));
  return t;
}

const TURBO_LINE = /^(\S+?):([\w-]+): ?(.*)$/;
/** A vitest file result: `✓ src/x.test.ts (12 tests) 695ms`, `× …`, `↓ … (skipped)`. */
const VITEST_FILE = /^\s*([✓×❯↓])\s+(\S+)\s+\((\d+) tests?(?:[^)]*)\)/;
/** A task's own closing line (the package scripts end with it). */
const DONE = /^(build|types|lint|test): ok$/;

const child = spawn(process.execPath, [new URL('../node_modules/turbo/bin/turbo', import.meta.url).pathname, ...process.argv.slice(2), '--output-logs=new-only', '--log-prefix=task'], {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
});

function line(raw) {
  const text = stripAnsi(raw);
  const m = TURBO_LINE.exec(text);
  if (m === null) {
    // turbo's own lines: the run's header and closing summary.
    if (/^\s*(Tasks|Cached|Time|Failed):/.test(text) || /ERROR/.test(text)) say(text);
    return;
  }
  const id = `${m[1]}:${m[2]}`;
  const body = m[3] ?? '';
  const t = task(id);
  t.lines.push(body);
  if (/cache hit, (?:replaying|suppressing) logs/.test(body)) {
    t.done = true;
    say(`✓ ${id} (cached)`);
    return;
  }
  const file = VITEST_FILE.exec(body);
  if (file !== null) {
    say(`  ${m[1]} ${file[1]} ${file[2]} (${file[3]} tests)`);
    return;
  }
  if (/^\s*Tests\s+/.test(body)) t.tests = body.trim().replace(/\s+/g, ' ');
  else if (/^\s*Duration\s+/.test(body) && t.tests !== undefined) {
    say(`✓ ${id}: ${t.tests} in ${since(t.started)}`);
    t.tests = undefined;
  } else if (DONE.test(body.trim())) {
    t.done = true;
    // A test task has said its counts already, run by run.
    if (m[2] !== 'test') say(`✓ ${id} (${since(t.started)})`);
  } else if (/skip(ping|ped)\b.*(because|:|—)/i.test(body)) say(`  ${id}: ${body.trim()}`);
}

createInterface({ input: child.stdout }).on('line', line);
createInterface({ input: child.stderr }).on('line', line);

// Never silent for long: what still runs, every ~10 s of quiet.
const heartbeat = setInterval(() => {
  if (Date.now() - lastSaid < 10_000) return;
  const running = [...tasks].filter(([, t]) => !t.done).map(([id, t]) => `${id} (${since(t.started)})`);
  say(`… ${since(started)}: ${running.length === 0 ? 'starting the next tasks' : `running ${running.join(', ')}`}`);
}, 2_000);

child.on('close', (code) => {
  clearInterval(heartbeat);
  if (code !== 0) {
    // The whole output of each task that did not end well.
    for (const [id, t] of tasks) {
      if (t.done) continue;
      const failed = t.lines.some((l) => /ERR!|ELIFECYCLE|error|FAIL|×/i.test(l));
      if (!failed) continue;
      say(`\n── ${id} ──`);
      for (const l of t.lines) say(l);
    }
  }
  say(`${code === 0 ? 'done' : 'FAILED'} in ${since(started)}`);
  process.exit(code ?? 1);
});
