/**
 * One server in its own process, forked by `http.ts` with the server's kind as argument. It says
 * `ready` with its port, answers `usage` with its memory and CPU time, and exits on `stop`.
 */
import { START } from './servers.js';
import { SERVER_KINDS, type ChildMessage, type ParentMessage, type ServerKind } from './shared.js';

const kind = process.argv[2] as ServerKind;
const send = (m: ChildMessage): void => {
  process.send?.(m);
};

if (!SERVER_KINDS.includes(kind)) {
  send({ type: 'error', message: `unknown server kind ${JSON.stringify(kind)}` });
  process.exit(2);
}

try {
  const server = await START[kind]();
  process.on('message', (m: ParentMessage) => {
    if (m.type === 'usage') {
      const u = process.memoryUsage();
      const c = process.cpuUsage();
      const usage = { type: 'usage', rss: u.rss, heapUsed: u.heapUsed, maxRss: process.resourceUsage().maxRSS * 1024, cpu: c.user + c.system } as const;
      // The parent starts this process with --expose-gc.
      const gc = (globalThis as { gc?: () => void }).gc;
      if (m.gc === true && gc !== undefined) {
        gc();
        send({ ...usage, heapAfterGc: process.memoryUsage().heapUsed });
      } else send(usage);
    } else if (m.type === 'stop') {
      void server.close().finally(() => process.exit(0));
    }
  });
  // A parent that dies takes its servers with it.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port: server.port });
} catch (err) {
  send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
}
