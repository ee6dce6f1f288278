// Does the code still match the contract? Three checks against openapi.yaml:
// - the generated module is what the document generates today (regenerate with `pnpm generate`),
// - the served API's document says what openapi.yaml says (diffDocuments: no difference by meaning),
// - @lib/testing sends generated valid and invalid requests to every route of the running server
//   and checks each answer against the declarations; every route reaches a success.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffDocuments, importDocument, loadDocument } from '@lib/openapi-import';
import * as testing from '@lib/testing';
import { describe, expect, it } from 'vitest';
import { buildApi, startServer } from './server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const contract = join(root, 'openapi.yaml');
const apiKey = 'test-staff-key';

describe('the bookstore keeps its contract', () => {
  it('its generated module is what openapi.yaml generates, with nothing refused', () => {
    // As `openapi-import openapi.yaml -o src/generated/bookstore.ts` (the generate script) writes it.
    const { source, refused } = importDocument(loadDocument(contract), { sourceName: 'openapi.yaml' });
    expect(refused).toEqual([]);
    expect(readFileSync(join(root, 'src/generated/bookstore.ts'), 'utf8')).toBe(source);
  });

  it('serves the document it was generated from: no difference by meaning', () => {
    const served = buildApi(apiKey).openAPISpec().marshalJSON();
    expect(diffDocuments(readFileSync(contract, 'utf8'), served)).toEqual([]);
  });

  it('answers every generated request as declared, and every operation succeeds', async () => {
    const stop = new AbortController();
    const { api, address, done } = await startServer('127.0.0.1:0', stop.signal, apiKey);
    try {
      // Rejects on a broken contract, or on an operation that never answered a valid request with a success.
      const report = await testing.assertServer({
        api,
        baseURL: `http://${address.host}:${address.port}`,
        runs: 40,
        seed: 1,
        credentials: { headers: { authorization: `Bearer ${apiKey}` } },
      });
      console.log(`contract-first-api:\n${testing.formatReport(report)}`);
      expect(report.reach.map((r) => r.operationId).sort()).toEqual(['addReview', 'createBook', 'deleteBook', 'getBook', 'listBooks', 'listReviews', 'updateBook']);
    } finally {
      stop.abort();
      await done;
    }
  }, 60_000);
});
