import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { main } from '../src/cli.js';

const fixture = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'shop.yaml');

test('openapi-import <file> -o out.ts writes the module and prints the refusals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-import-'));
  const err: string[] = [];
  expect(main([fixture, '-o', join(dir, 'api.ts')], () => undefined, (l) => err.push(l))).toBe(0);
  expect(readFileSync(join(dir, 'api.ts'), 'utf8')).toContain('export const routes = {');
  expect(err.at(-1)).toBe(`1 refusal(s): generated-name 1; wrote ${join(dir, 'api.ts')}`);
});

test('openapi-import diff exits 1 on a difference and 0 when the documents agree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-import-'));
  const changed = readFileSync(fixture, 'utf8').replace('maximum: 100', 'maximum: 50');
  writeFileSync(join(dir, 'changed.yaml'), changed);
  writeFileSync(join(dir, 'item-input.yaml'), readFileSync(fixture.replace('shop.yaml', 'item-input.yaml')));
  const out: string[] = [];
  expect(main(['diff', fixture, join(dir, 'changed.yaml')], (l) => out.push(l))).toBe(1);
  expect(out).toEqual(['schema\tpaths/GET /items/parameters/query:limit/schema/maximum\tmaximum differs\t(expected 100, actual 50)', '1 difference(s)']);
  expect(main(['diff', fixture, fixture], () => undefined)).toBe(0);
  expect(main(['diff', fixture], () => undefined, () => undefined)).toBe(2);
});
