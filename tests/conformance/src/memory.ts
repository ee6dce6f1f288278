/**
 * Memory under large bodies, measured on a server in its own process (`memory-server.ts`), so
 * that the figure is the server's alone: a 100 MB streamed response and a 100 MB multipart
 * upload must each keep the server's RSS growth under 30 MB.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const MiB = 2 ** 20;
const LIMIT_MIB = 30;

/** Starts `memory-server.ts` for `adapter` and resolves with its base URL. */
function start(adapter: string): Promise<{ child: ChildProcess; baseURL: string }> {
  const script = fileURLToPath(new URL('./memory-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', '--conditions=source', '--import', 'tsx', script, adapter], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m !== null) resolve({ child, baseURL: m[1] as string });
    });
    child.once('exit', (code) => reject(new Error(`memory server exited with ${String(code)}: ${out}`)));
  });
}

export function memorySuite(adapter: string): void {
  describe(`memory: ${adapter}`, () => {
    let child: ChildProcess | undefined;
    let base = '';

    beforeAll(async () => {
      const started = await start(adapter);
      child = started.child;
      base = started.baseURL;
    }, 60_000);

    afterAll(() => {
      child?.kill('SIGTERM');
    });

    /** Runs `load` between a reset (after GC) and a reading of the server's peak RSS; the growth in MiB. */
    async function growth(load: () => Promise<void>): Promise<number> {
      await (await fetch(`${base}/m/reset`, { method: 'POST' })).arrayBuffer();
      await load();
      const { baseline, peak } = (await (await fetch(`${base}/m/peak`)).json()) as { baseline: number; peak: number };
      return (peak - baseline) / MiB;
    }

    it('streams a 100 MB response with server RSS growth under 30 MB', async () => {
      let received = 0;
      const mib = await growth(async () => {
        const res = await fetch(`${base}/m/download?mb=100`, { headers: { accept: 'application/octet-stream' } });
        expect(res.status).toBe(200);
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
      });
      expect(received).toBe(100 * MiB);
      console.log(`memory (${adapter}): 100 MB streamed response, server RSS growth ${mib.toFixed(1)} MiB`);
      expect(mib).toBeLessThan(LIMIT_MIB);
    }, 60_000);
  });
}
