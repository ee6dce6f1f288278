/**
 * One response contract for the formats that write a codec's whole value (JSON, CBOR, YAML,
 * TOML), over real HTTP: the same route answers the same data in each, whatever the client
 * negotiates. Undeclared fields are left out; a value breaking a constraint is a 500 when
 * responses are validated and is sent as it is when they are not; `time()` and `date()` values
 * are the RFC 3339 instants and days the codec declares; values the codec passes through
 * (`any()`) are what JSON makes of them (`toJSON`: a `Date` is its RFC 3339 text; no
 * `undefined`).
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from './suite.js';

const item = codec.object({
  name: codec.string().refine(validate.maxLength(8)),
  at: codec.time(),
  day: codec.date(),
  meta: codec.optional(codec.any()),
});
type Item = codec.Infer<typeof item>;
/** The formats under test, JSON first (the reference), each with its reader of plain data. */
const FORMATS = [format.json(item), format.cbor(item), format.yaml(item), format.toml(item)] as const;

const at = new Date('2025-01-02T03:04:05.678Z');
const day = new Date('2025-01-02T00:00:00.000Z');
/** What the handler answers, by case. */
const CASES: Readonly<Record<string, unknown>> = {
  plain: { name: 'ok', at, day },
  extra: { name: 'ok', at, day, secret: 'hunter2' },
  long: { name: 'much too long', at, day },
  opaque: { name: 'ok', at, day, meta: { when: at, gone: undefined, days: [day], map: new Map([['k', 1]]), custom: { toJSON: () => 'custom' } } },
};
/** The plain data every format must carry for `plain` and `extra` (JSON's, read back). */
const PLAIN = { name: 'ok', at: '2025-01-02T03:04:05.678Z', day: '2025-01-02' };

/** A route answering `CASES[case]`, with response validation on (`checked`) or off (`unchecked`). */
function caseRoute(mode: 'checked' | 'unchecked') {
  return rest
    .newRoute(
      'GET',
      `/fc/${mode}/{case}`,
      codec.empty<{ case: string }>(),
      item,
      rest.newPathParam('case', codec.string(), (r) => r.case, (r, v) => {
        r.case = v;
      }),
      rest.formats(...FORMATS),
    )
    .withOptions({ validateResponses: mode === 'checked' })
    .withHandler((_ctx, r) => CASES[r.case] as Item);
}

interface Reply {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: Uint8Array;
}

export function formatContract(adapter: AdapterUnderTest): void {
  describe(`format contract: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();

    beforeAll(async () => {
      const api = rest.newServer({ title: 'Format contract', version: '1.0.0' });
      caseRoute('checked').register(api);
      caseRoute('unchecked').register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
    });
    afterAll(() => stop());

    async function get(mode: string, name: string, f: (typeof FORMATS)[number]): Promise<Reply> {
      const res = await fetch(`${base}/fc/${mode}/${name}`, { headers: { accept: f.contentType } });
      return { status: res.status, contentType: res.headers.get('content-type'), body: new Uint8Array(await res.arrayBuffer()) };
    }
    /** The body as plain data, as a reader that knows nothing of the codec gets it (Dates as text). */
    const dataOf = (f: (typeof FORMATS)[number], body: Uint8Array): unknown => structuredClone(f.withCodec(codec.any()).unmarshal(body));

    for (const mode of ['checked', 'unchecked'] as const) {
      describe(`responses ${mode === 'checked' ? 'validated' : 'not validated'}`, () => {
        for (const f of FORMATS) {
          describe(f.contentType, () => {
            it('answers the declared value, time() and date() as the same instant and day', async () => {
              const r = await get(mode, 'plain', f);
              expect(r.status).toBe(200);
              expect(r.contentType).toBe(f.contentType);
              expect(f.unmarshal(r.body)).toEqual({ name: 'ok', at, day });
              expect(dataOf(f, r.body)).toStrictEqual(PLAIN);
            });

            it('leaves an undeclared field out, as JSON does', async () => {
              const r = await get(mode, 'extra', f);
              expect(r.status).toBe(200);
              expect(Buffer.from(r.body).includes('hunter2')).toBe(false);
              expect(dataOf(f, r.body)).toStrictEqual(PLAIN);
            });

            it(mode === 'checked' ? 'refuses a value breaking a constraint (500)' : 'sends a value breaking a constraint as it is', async () => {
              const r = await get(mode, 'long', f);
              if (mode === 'checked') {
                expect(r.status).toBe(500);
                expect(Buffer.from(r.body).includes('much too long')).toBe(false);
              } else {
                expect(r.status).toBe(200);
                expect(dataOf(f, r.body)).toStrictEqual({ ...PLAIN, name: 'much too long' });
                expect(() => f.unmarshal(r.body)).toThrow('name: must have at most 8 characters');
              }
            });

            it('writes values any() passes through as JSON does: a Date as its RFC 3339 text, no undefined', async () => {
              const r = await get(mode, 'opaque', f);
              expect(r.status).toBe(200);
              expect(dataOf(f, r.body)).toStrictEqual({ ...PLAIN, meta: { when: '2025-01-02T03:04:05.678Z', days: ['2025-01-02T00:00:00.000Z'], map: {}, custom: 'custom' } });
            });
          });
        }

        it('writes time() and date() in TOML as native RFC 3339 offset date-time and local date', async () => {
          const r = await get(mode, 'plain', format.toml(item));
          expect(new TextDecoder().decode(r.body)).toBe('name = "ok"\nat = 2025-01-02T03:04:05.678Z\nday = 2025-01-02\n');
        });
      });
    }
  });
}
