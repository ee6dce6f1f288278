/**
 * The README's example runs: its first TypeScript block, with `@lib/testing` read from the
 * sources, as a module of its own.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('the README example runs', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /```ts[^\n]*\n(import \* as codec[\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const source = (block as string).replace("from '@lib/testing'", `from ${JSON.stringify(fileURLToPath(new URL('./index.ts', import.meta.url)))}`);
  const dir = new URL('../.vitest/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL('example.ts', dir);
  writeFileSync(file, source);
  await import(fileURLToPath(file));
});
