/**
 * XML bodies over real HTTP (`format.xml`, laid out by the OpenAPI 3.1 XML Object): a Petstore
 * `Pet` read from an XML request and answered in XML by `Accept`, a malformed or hostile body
 * (an external entity) answered 400 without reaching the handler, 415 and 406 naming
 * `application/xml`, typed 404 bodies in XML, the typed client sending and reading XML where a
 * route's first format is XML, and the document listing `application/xml` with the schema and
 * its `xml` keywords.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as validate from '@lib/validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

/** The `xml` keyword on a codec's schema: an annotation that checks nothing. */
const xml = <T>(x: format.XmlObject): codec.Constraint<T> => ({ name: 'xml', test: () => true, message: () => 'is valid', schema: { xml: x } });

const category = codec.object({ id: codec.int(), name: codec.string() }).refine(xml({ name: 'category' })).withName('XmlCategory');
const tag = codec.object({ id: codec.int(), name: codec.string() }).refine(xml({ name: 'tag' })).withName('XmlTag');
const pet = codec
  .object({
    id: codec.int64(),
    name: codec.string().refine(validate.minLength(1)),
    category: codec.optional(category),
    photoUrls: codec.array(codec.string().refine(xml({ name: 'photoUrl' }))).refine(xml({ wrapped: true })),
    tags: codec.optional(codec.array(tag).refine(xml({ wrapped: true }))),
    status: codec.optional(codec.string().refine(validate.oneOf('available', 'pending', 'sold'))),
  })
  .refine(xml({ name: 'pet' }))
  .withName('XmlPet');
type Pet = codec.Infer<typeof pet>;

class PetNotFound extends Error {}
const notFound = codec.object({ error: codec.string() }).withName('XmlPetNotFound');

/** JSON first, XML too, both ways. */
const createPet = rest.route({
  method: 'POST',
  path: '/xml/pets',
  body: pet,
  response: pet,
  requestFormats: [format.json(pet), format.xml(pet)],
  formats: [format.json(pet), format.xml(pet)],
  meta: { operationId: 'xmlCreatePet' },
});
/** XML first: what the typed client sends and asks for. */
const replacePet = rest.route({
  method: 'PUT',
  path: '/xml/pets/{petName}',
  pathParams: { petName: codec.string() },
  body: pet,
  response: pet,
  errors: [rest.errorPattern(PetNotFound, 404, notFound, (e) => ({ error: e.message }))],
  requestFormats: [format.xml(pet), format.json(pet)],
  formats: [format.xml(pet), format.json(pet)],
  meta: { operationId: 'xmlReplacePet' },
});

const rex: Pet = {
  id: 9007199254740993n,
  name: 'Rex & <Co>',
  category: { id: 1, name: 'Dogs' },
  photoUrls: ['https://example.com/rex.png'],
  tags: [{ id: 1, name: 'good' }, { id: 2, name: 'boy' }],
  status: 'available',
};
const DECL = '<?xml version="1.0" encoding="UTF-8"?>';
const REX_XML =
  `${DECL}<pet><id>9007199254740993</id><name>Rex &amp; &lt;Co&gt;</name><category><id>1</id><name>Dogs</name></category>` +
  '<photoUrls><photoUrl>https://example.com/rex.png</photoUrl></photoUrls><tags><tag><id>1</id><name>good</name></tag><tag><id>2</id><name>boy</name></tag></tags><status>available</status></pet>';

export function xmlFormat(adapter: AdapterUnderTest): void {
  describe(`xml format: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    let handled = 0;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'Pets in XML', version: '1' });
      createPet
        .withHandler((_ctx, req) => {
          handled++;
          return req;
        })
        .register(api);
      replacePet
        .withHandler((_ctx, req) => {
          const { petName, ...p } = req;
          if (petName !== p.name) throw new PetNotFound(`no pet ${petName}`);
          return { ...p, status: 'sold' };
        })
        .register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    const post = (contentType: string, body: string, accept?: string): Promise<Response> =>
      fetch(`${base}/xml/pets`, { method: 'POST', headers: { 'content-type': contentType, ...(accept !== undefined && { accept }) }, body });

    it('reads an XML body and answers XML when Accept asks for it, JSON otherwise', async () => {
      const inXml = await post('application/xml', REX_XML, 'application/xml');
      expect(inXml.status).toBe(201);
      expect(inXml.headers.get('content-type')).toBe('application/xml');
      expect(inXml.headers.get('vary')).toBe('Accept');
      expect(await inXml.text()).toBe(REX_XML);
      const inJson = await post('Application/XML; charset=utf-8', '<pet>\n  <id>42</id>\n  <name>Ada</name>\n  <photoUrls><photoUrl>u</photoUrl></photoUrls>\n</pet>');
      expect(inJson.status).toBe(201);
      expect(inJson.headers.get('content-type')).toBe('application/json');
      expect(await inJson.json()).toEqual({ id: '42', name: 'Ada', photoUrls: ['u'] });
      const fromJson = await post('application/json', JSON.stringify({ ...rex, id: rex.id.toString() }), 'application/json;q=0.5, application/xml');
      expect(fromJson.headers.get('content-type')).toBe('application/xml');
      expect(await fromJson.text()).toBe(REX_XML);
    });

    it('answers 400 for malformed, hostile or invalid XML, before the handler, never 500', async () => {
      const before = handled;
      const cases: [string, RegExp][] = [
        ['<pet><name>Rex</pet>', /body is not valid XML: a closing tag does not match the element it closes at line 1, column 15/],
        ['<?xml version="1.0"?><!DOCTYPE pet [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><pet><name>&xxe;</name></pet>', /body is not valid XML: a document type declaration \(DOCTYPE\) is not accepted/],
        ['<pet><id>1</id><name>&bomb;</name><photoUrls/></pet>', /body is not valid XML: a reference names an entity that is not declared/],
        [`${'<a>'.repeat(300)}${'</a>'.repeat(300)}`, /body is not valid XML: elements are nested more than 256 levels deep/],
        ['<pet><id>x</id><name></name><photoUrls/></pet>', /id: expected the decimal text of an integer; name: must have at least 1 character/],
      ];
      for (const [body, message] of cases) {
        const res = await post('application/xml', body, 'application/xml');
        expect(res.status, body.slice(0, 40)).toBe(400);
        const text = await res.text();
        expect(text, body.slice(0, 40)).toMatch(message);
        expect(text).not.toContain('passwd');
      }
      const polluted = await post('application/xml', '<pet><__proto__><polluted>1</polluted></__proto__><id>1</id><name>a</name><photoUrls/></pet>', 'application/json');
      expect(polluted.status).toBe(201);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(handled).toBe(before + 1);
    });

    it('answers 415 and 406 naming application/xml', async () => {
      const unsupported = await post('text/plain', 'Rex');
      expect(unsupported.status).toBe(415);
      expect(await unsupported.text()).toContain('application/xml');
      const unacceptable = await post('application/xml', REX_XML, 'text/csv');
      expect(unacceptable.status).toBe(406);
      expect(await unacceptable.text()).toContain('application/xml');
    });

    it('sends and reads XML through the typed client where the route\'s first format is XML', async () => {
      expect(await client.call(replacePet, { petName: 'Rex & <Co>', ...rex })).toEqual({ ...rex, status: 'sold' });
      // What went over the wire.
      const seen: { contentType: string | null; accept: string | null; body: string }[] = [];
      const spy = rest.newClient();
      spy.attach(
        nodeHttp.newClientTransport({
          baseURL: base,
          httpClient: async (input, init) => {
            const h = new Headers(init.headers);
            seen.push({ contentType: h.get('content-type'), accept: h.get('accept'), body: new TextDecoder().decode(init.body as Uint8Array) });
            return fetch(input, init);
          },
        }),
      );
      expect(await spy.call(replacePet, { petName: 'Ada', ...rex, name: 'Ada', tags: [] })).toEqual({ ...rex, name: 'Ada', tags: [], status: 'sold' });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.contentType).toBe('application/xml');
      expect(seen[0]?.accept).toBe('application/xml, application/json;q=0.9');
      expect(seen[0]?.body).toBe(`${DECL}<pet><id>9007199254740993</id><name>Ada</name><category><id>1</id><name>Dogs</name></category><photoUrls><photoUrl>https://example.com/rex.png</photoUrl></photoUrls><tags/><status>available</status></pet>`);
      // A JSON-first route through per-call formats.
      expect(await client.call(createPet, rex, { requestFormats: [format.xml(pet) as format.AnyFormat], responseFormats: [format.xml(pet) as format.AnyFormat] })).toEqual(rex);
    });

    it('writes typed error bodies in XML, and the typed client reads them', async () => {
      const res = await fetch(`${base}/xml/pets/Nobody`, { method: 'PUT', headers: { 'content-type': 'application/xml', accept: 'application/xml' }, body: REX_XML });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/xml');
      expect(await res.text()).toBe(`${DECL}<XmlPetNotFound><error>no pet Nobody</error></XmlPetNotFound>`);
      const r = await client.safeCall(replacePet, { petName: 'Nobody', ...rex });
      if (r.ok || r.status !== 404) throw new Error(`expected the declared 404, got ${JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
      expect(r.error).toEqual({ error: 'no pet Nobody' });
    });

    it('documents application/xml with the schema and its xml keywords', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as {
        paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content: Record<string, { schema: unknown }> }> }>>;
        components: { schemas: Record<string, { xml?: unknown; properties?: Record<string, { xml?: unknown; items?: { xml?: unknown } }> }> };
      };
      const post = doc.paths['/xml/pets']?.['post'];
      expect(Object.keys(post?.requestBody.content ?? {})).toEqual(['application/json', 'application/xml']);
      expect(post?.requestBody.content['application/xml']?.schema).toEqual({ $ref: '#/components/schemas/XmlPet' });
      expect(post?.responses['201']?.content['application/xml']?.schema).toEqual({ $ref: '#/components/schemas/XmlPet' });
      const put = doc.paths['/xml/pets/{petName}']?.['put'];
      expect(Object.keys(put?.requestBody.content ?? {})).toEqual(['application/xml', 'application/json']);
      expect(put?.responses['404']?.content['application/xml']?.schema).toEqual({ $ref: '#/components/schemas/XmlPetNotFound' });
      const schemas = doc.components.schemas;
      expect(schemas['XmlPet']?.xml).toEqual({ name: 'pet' });
      expect(schemas['XmlPet']?.properties?.['photoUrls']?.xml).toEqual({ wrapped: true });
      expect(schemas['XmlPet']?.properties?.['photoUrls']?.items?.xml).toEqual({ name: 'photoUrl' });
      expect(schemas['XmlTag']?.xml).toEqual({ name: 'tag' });
    });
  });
}
