/**
 * Parameter styles (OpenAPI 3.1 §4.8.12.4) over real HTTP: lists and objects in the path
 * (`simple`, `label`, `matrix`), the query (`form`, `spaceDelimited`, `pipeDelimited`,
 * `deepObject`), headers (`simple`) and cookies (`form`), read by the server from the wire forms
 * of OpenAPI's table of examples, written so by the typed client and `buildPath`, refused with a
 * 400 naming the parameter when malformed, safe against hostile input, and documented with
 * `style` and `explode` where they differ from the defaults.
 */
import * as codec from '@lib/codec';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

const ids = codec.array(codec.intString());
const rgb = codec.object({ R: codec.intString(), G: codec.intString(), B: codec.intString() });
const words = codec.array(codec.string());
const range = codec.object({ min: codec.optional(codec.intString()), max: codec.optional(codec.intString()) });

const psPathA = rest.route({
  method: 'GET',
  path: '/ps/a/{simple}/{label}/{matrix}',
  pathParams: {
    simple: rest.styled(ids), // 3,4,5: a list in a path is `simple` by default
    label: rest.styled(ids, { style: 'label', explode: true }), // .3.4.5
    matrix: rest.styled(rgb, { style: 'matrix', explode: true }), // ;R=100;G=200;B=150
  },
  response: codec.any(),
  meta: { operationId: 'psPathA' },
});

const psPathB = rest.route({
  method: 'GET',
  path: '/ps/b/{simple}/{label}/{matrix}/{words}',
  pathParams: {
    simple: rest.styled(rgb, { explode: true }), // R=100,G=200,B=150
    label: rest.styled(rgb, { style: 'label' }), // .R,100,G,200,B,150
    matrix: rest.styled(ids, { style: 'matrix' }), // ;matrix=3,4,5
    words: rest.styled(words), // a%2Cb,c: an escaped comma is part of its item
  },
  response: codec.any(),
  meta: { operationId: 'psPathB' },
});

const psQuery = rest.route({
  method: 'GET',
  path: '/ps/query',
  query: {
    ids: rest.styled(ids, { explode: false }), // ids=3,4,5
    color: rest.styled(codec.optional(rgb)), // R=100&G=200&B=150: an exploded form object, by default
    shade: rest.styled(codec.optional(rgb), { explode: false }), // shade=R,1,G,2,B,3
    sp: rest.styled(codec.optional(ids), { style: 'spaceDelimited' }), // sp=3%204%205
    pipe: rest.styled(codec.optional(words), { style: 'pipeDelimited' }), // pipe=a|b
    filter: rest.named('f', rest.styled(codec.optional(range), { style: 'deepObject' })), // f[min]=1&f[max]=9
    tag: codec.optional(words), // tag=a&tag=b, as always
  },
  response: codec.any(),
  meta: { operationId: 'psQuery' },
});

const psFields = rest.route({
  method: 'GET',
  path: '/ps/fields',
  headers: {
    hIds: rest.named('X-Ids', rest.styled(ids)), // X-Ids: 3,4,5
    hColor: rest.named('X-Color', rest.styled(codec.optional(rgb), { explode: true })), // X-Color: R=1,G=2,B=3
  },
  cookies: {
    cIds: rest.named('c-ids', rest.styled(codec.optional(words), { explode: false })), // c-ids=3,4,5
    cColor: rest.named('c-color', rest.styled(codec.optional(rgb), { explode: false })), // c-color=R,1,G,2,B,3
  },
  response: codec.any(),
  meta: { operationId: 'psFields' },
});

const psZod = rest.route({
  method: 'GET',
  path: '/ps/zod/{at}',
  pathParams: { at: rest.styled(z.array(z.number()).min(1), { style: 'label' }) },
  query: { zc: rest.styled(z.object({ R: z.number().int(), G: z.number().int().optional() }), { style: 'deepObject' }) },
  headers: { zl: rest.named('X-Z', rest.styled(z.array(z.boolean()).optional())) },
  response: codec.any(),
  meta: { operationId: 'psZod' },
});

export function paramStyles(adapter: AdapterUnderTest): void {
  describe(`parameter styles: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();
    const refused: string[] = [];

    beforeAll(async () => {
      api = rest.newServer({ title: 'Styles', version: '1' });
      for (const r of [psPathA, psPathB, psQuery, psFields, psZod] as rest.Route<unknown, unknown>[]) {
        r.withHandler((_ctx, req) => req)
          .withOptions({ observer: { onValidationError: (i) => void refused.push(`${i.location} ${i.name} ${(i.error as Error).constructor.name}`) } })
          .register(api);
      }
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    const get = (target: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${base}${target}`, { headers });
    const json = async (target: string, headers: Record<string, string> = {}): Promise<unknown> => {
      const res = await get(target, headers);
      expect(res.status, `${target}: ${await res.clone().text()}`).toBe(200);
      return res.json();
    };
    const refusal = async (target: string, headers: Record<string, string> = {}): Promise<string> => {
      const res = await get(target, headers);
      expect(res.status, target).toBe(400);
      return ((await res.json()) as { error: string }).error;
    };

    it('reads path lists and objects in simple, label and matrix style, exploded or not', async () => {
      expect(await json('/ps/a/3,4,5/.3.4.5/;R=100;G=200;B=150')).toEqual({ simple: [3, 4, 5], label: [3, 4, 5], matrix: { R: 100, G: 200, B: 150 } });
      expect(await json('/ps/b/R=100,G=200,B=150/.R,100,G,200,B,150/;matrix=3,4,5/a%2Cb,c%20d')).toEqual({
        simple: { R: 100, G: 200, B: 150 },
        label: { R: 100, G: 200, B: 150 },
        matrix: [3, 4, 5],
        words: ['a,b', 'c d'],
      });
    });

    it('reads query lists and objects in form, spaceDelimited, pipeDelimited and deepObject style', async () => {
      expect(await json('/ps/query?ids=3,4,5&R=100&G=200&B=150&shade=R,1,G,2,B,3&sp=3%204+5&pipe=a%7Cb|c&f[min]=1&f%5Bmax%5D=9&tag=x&tag=y')).toEqual({
        ids: [3, 4, 5],
        color: { R: 100, G: 200, B: 150 },
        shade: { R: 1, G: 2, B: 3 },
        sp: [3, 4, 5],
        pipe: ['a|b', 'c'],
        filter: { min: 1, max: 9 },
        tag: ['x', 'y'],
      });
      expect(await json('/ps/query?ids=7')).toEqual({ ids: [7] });
    });

    it('reads header and cookie lists and objects in simple and form style', async () => {
      expect(await json('/ps/fields', { 'x-ids': '3, 4,5', 'x-color': 'R=1,G=2,B=3', cookie: 'c-ids=a%2Cb,c; c-color=R,1,G,2,B,3' })).toEqual({
        hIds: [3, 4, 5],
        hColor: { R: 1, G: 2, B: 3 },
        cIds: ['a,b', 'c'],
        cColor: { R: 1, G: 2, B: 3 },
      });
    });

    it('reads Standard Schemas in a style, their texts read by their JSON Schema', async () => {
      expect(await json('/ps/zod/.1.5,2?zc[R]=7', { 'x-z': 'true,false' })).toEqual({ at: [1.5, 2], zc: { R: 7 }, zl: [true, false] });
      expect(await refusal('/ps/zod/.1?zc[R]=x')).toMatch(/query parameter "zc"/);
    });

    it('answers 400 naming each parameter whose value is not of its style or fails its codec, as other parameter failures', async () => {
      refused.length = 0;
      expect(await refusal('/ps/a/3,x,5/.3/;R=1;G=2;B=3')).toMatch(/path parameter "simple"/);
      expect(await refusal('/ps/a/3/3/;R=1;G=2;B=3')).toMatch(/path parameter "label": malformed label exploded value: expected a text starting with "."/);
      expect(await refusal('/ps/b/R=1,G=2,B=3/.R,1,G/;matrix=3/w')).toMatch(/path parameter "label": malformed label value: expected name,value pairs/);
      expect(await refusal('/ps/b/R=1,G=2,B=3/.R,1,G,2,B,3/;other=3/w')).toMatch(/path parameter "matrix"/);
      expect(await refusal('/ps/query?ids=1,x')).toMatch(/query parameter "ids": \[1\]: expected an integer/);
      expect(await refusal('/ps/query?ids=1&f[=2')).toMatch(/query parameter "f": malformed deepObject/);
      expect(await refusal('/ps/query?ids=1&R=1&G=2')).toMatch(/query parameter "color": B: /);
      expect(await refusal('/ps/fields', { 'x-ids': '1,a' })).toMatch(/header "X-Ids"/);
      expect(await refusal('/ps/fields', { 'x-ids': '1', cookie: 'c-color=R,1,G' })).toMatch(/cookie "c-color": malformed form value/);
      // Several at once: one 400, each failure named, each one's own error type.
      const both = await refusal('/ps/query?ids=x&sp=1%20y', { 'x-ids': '1' });
      expect(both).toMatch(/query parameter "ids".*query parameter "sp"/);
      expect(refused).toContain('query ids QueryParamError');
      expect(refused).toContain('header X-Ids HeaderParamError');
      expect(refused).toContain('cookie c-color CookieParamError');
      expect(refused).toContain('path label PathParamError');
    });

    it('survives hostile input: huge lists, __proto__ keys, malformed and empty values', async () => {
      // As many as a request line of node's default 16 KiB of header fields carries.
      const many = Array.from({ length: 1200 }, (_, i) => String(i));
      const huge = (await json(`/ps/query?ids=${many.join(',')}&pipe=${many.join('|')}`)) as { ids: number[]; pipe: string[] };
      expect(huge.ids).toHaveLength(1200);
      expect(huge.pipe).toHaveLength(1200);
      const proto = (await json('/ps/query?ids=1&f[__proto__]=1&f[constructor]=2&f[min]=3&__proto__=4&R=1&G=2&B=3')) as Record<string, unknown>;
      expect(proto['filter']).toEqual({ min: 3 });
      expect(await json('/ps/b/__proto__=1,R=1,G=2,B=3/.constructor,1,R,1,G,2,B,3/;matrix=3/w')).toMatchObject({ simple: { R: 1, G: 2, B: 3 }, label: { R: 1, G: 2, B: 3 } });
      expect(await json('/ps/fields', { 'x-ids': '1', 'x-color': '__proto__=1,R=1,G=2,B=3' })).toMatchObject({ hColor: { R: 1, G: 2, B: 3 } });
      expect(({} as Record<string, unknown>)['min']).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('R');
      for (const bad of ['/ps/query?ids=1&f[', '/ps/query?ids=1&f[a][b]=1', '/ps/query?ids=1&f]=1&f[min=1', '/ps/query?ids=1,,2', '/ps/query?ids=%zz']) {
        const res = await get(bad);
        expect(res.status, bad).toBe(400);
      }
      expect(await refusal('/ps/query?ids=')).toMatch(/query parameter "ids": is required/);
      expect(await refusal('/ps/b/R=1,G=2,B=3/.R,1,G,2,B,3/;matrix/w')).toMatch(/path parameter "matrix": is required/);
      // An empty list or object is absent; an empty property is a value its codec reads.
      expect(await json('/ps/query?ids=1&sp=&pipe=&shade=')).toEqual({ ids: [1] });
      expect(await refusal('/ps/query?ids=1&f[min]=')).toMatch(/query parameter "f": min: expected an integer/);
      expect(await json('/ps/fields', { 'x-ids': '1', 'x-color': '' })).toEqual({ hIds: [1] });
    });

    it('is called by the typed client, which writes each style and escapes delimiters inside items', async () => {
      expect(await client.call(psPathA, { simple: [3, 4, 5], label: [1], matrix: { R: 1, G: 2, B: 3 } })).toEqual({ simple: [3, 4, 5], label: [1], matrix: { R: 1, G: 2, B: 3 } });
      const odd = ['a,b', 'c d/é', '|;.=%', ''];
      expect(await client.call(psPathB, { simple: { R: 1, G: 2, B: 3 }, label: { R: 4, G: 5, B: 6 }, matrix: [7, 8], words: odd })).toEqual({
        simple: { R: 1, G: 2, B: 3 },
        label: { R: 4, G: 5, B: 6 },
        matrix: [7, 8],
        words: odd,
      });
      const q = { ids: [1, 2], color: { R: 1, G: 2, B: 3 }, shade: { R: 4, G: 5, B: 6 }, sp: [7, 8], pipe: ['x|y', 'a,b c+d&e=f'], filter: { min: 0, max: 5 }, tag: ['t1', 't 2'] };
      expect(await client.call(psQuery, q)).toEqual(q);
      const f = { hIds: [1, 2], hColor: { R: 1, G: 2, B: 3 }, cIds: ['a,b', 'c;d', 'é'], cColor: { R: 4, G: 5, B: 6 } };
      expect(await client.call(psFields, f)).toEqual(f);
      expect(await client.call(psZod, { at: [0.5, 2], zc: { R: 3 }, zl: [true] })).toEqual({ at: [0.5, 2], zc: { R: 3 }, zl: [true] });
      // An explicit entry is the parameter's text in its style.
      expect(await client.call(psQuery, { ids: [9] }, { queryParams: { ids: '5,6', pipe: 'a|b' } })).toEqual({ ids: [5, 6], pipe: ['a', 'b'] });
    });

    it('refuses on the client, before sending, a value its codec or its style refuses', async () => {
      await expect(client.call(psQuery, { ids: [] })).rejects.toThrow(/query parameter "ids": must not be empty/);
      await expect(client.call(psQuery, { ids: [1], sp: [1.5] as unknown as number[] })).rejects.toBeInstanceOf(rest.QueryParamError);
      await expect(client.call(psPathA, { simple: [1], label: [], matrix: { R: 1, G: 2, B: 3 } })).rejects.toBeInstanceOf(rest.PathParamError);
      await expect(client.call(psQuery, { ids: [1] }, { queryParams: { f: '1' } })).rejects.toThrow(/query parameter "f": its value is sent under its own keys/);
    });

    it('builds styled paths with route.buildPath', () => {
      expect(psPathA.buildPath({ simple: ['3', '4'], label: ['5', '6'], matrix: { R: '1', G: '2', B: '3' } })).toBe('/ps/a/3,4/.5.6/;R=1;G=2;B=3');
      expect(psPathB.buildPath({ simple: { R: '1', G: '2', B: '3' }, label: { R: '1', G: '2', B: '3' }, matrix: ['7'], words: ['a,b', 'c'] })).toBe('/ps/b/R=1,G=2,B=3/.R,1,G,2,B,3/;matrix=7/a%2Cb,c');
      expect(() => psPathA.buildPath({ simple: ['x'], label: ['1'], matrix: { R: '1', G: '2', B: '3' } })).toThrow(rest.PathParamError);
    });

    it('documents style and explode where they differ from the defaults, each parameter with its array or object schema', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, { get: { parameters: Record<string, unknown>[] } }> };
      const param = (path: string, name: string): Record<string, unknown> | undefined => doc.paths[path]?.get.parameters.find((p) => p['name'] === name);
      const styleOf = (path: string, name: string): unknown => {
        const p = param(path, name);
        return { style: p?.['style'], explode: p?.['explode'] };
      };
      const a = '/ps/a/{simple}/{label}/{matrix}';
      expect(styleOf(a, 'simple')).toEqual({ style: undefined, explode: undefined });
      expect(styleOf(a, 'label')).toEqual({ style: 'label', explode: true });
      expect(styleOf(a, 'matrix')).toEqual({ style: 'matrix', explode: true });
      expect(param(a, 'simple')?.['schema']).toEqual({ type: 'array', items: { type: 'integer', format: 'double-int' } });
      expect(param(a, 'matrix')?.['schema']).toMatchObject({ type: 'object', properties: { R: { type: 'integer' } }, required: ['R', 'G', 'B'] });
      expect(styleOf('/ps/b/{simple}/{label}/{matrix}/{words}', 'simple')).toEqual({ style: undefined, explode: true });
      expect(styleOf('/ps/query', 'ids')).toEqual({ style: undefined, explode: false });
      expect(styleOf('/ps/query', 'color')).toEqual({ style: undefined, explode: undefined });
      expect(styleOf('/ps/query', 'sp')).toEqual({ style: 'spaceDelimited', explode: undefined });
      expect(styleOf('/ps/query', 'pipe')).toEqual({ style: 'pipeDelimited', explode: undefined });
      expect(styleOf('/ps/query', 'f')).toEqual({ style: 'deepObject', explode: true });
      expect(styleOf('/ps/query', 'tag')).toEqual({ style: undefined, explode: undefined });
      expect(param('/ps/query', 'f')?.['schema']).toMatchObject({ type: 'object', properties: { min: { type: 'integer' } } });
      expect(styleOf('/ps/fields', 'X-Ids')).toEqual({ style: undefined, explode: undefined });
      expect(styleOf('/ps/fields', 'X-Color')).toEqual({ style: undefined, explode: true });
      expect(styleOf('/ps/fields', 'c-ids')).toEqual({ style: undefined, explode: false });
      expect(styleOf('/ps/zod/{at}', 'at')).toEqual({ style: 'label', explode: undefined });
      expect(param('/ps/zod/{at}', 'zc')?.['schema']).toMatchObject({ type: 'object' });
    });
  });
}
