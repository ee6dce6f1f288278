/**
 * An error body in JSON media types of its own (`errorPattern(...).withMediaTypes(...)`, as
 * SCIM's `application/scim+json`) over real HTTP: the server writes it in the one `Accept`
 * prefers, else the first (an `Accept` no success format matches is still 406, before any error); the typed client decodes it from either; the document lists the body
 * under each type, and nothing else for that status.
 */
import * as codec from '@lib/codec';
import * as format from '@lib/format';
import * as rest from '@lib/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransport } from './client-transport.js';
import type { AdapterUnderTest } from './suite.js';

class ScimError extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}
const scimError = codec.object({ detail: codec.string(), status: codec.string() }).withName('ScimError');
const badRequest = rest.errorPattern(ScimError, 400, scimError, (e) => ({ detail: e.detail, status: '400' })).withMediaTypes('application/json', 'application/scim+json');
const user = codec.object({ userName: codec.string() });
const createUser = rest.route({ method: 'POST', path: '/scim/Users', body: user, response: user, errors: [badRequest], meta: { operationId: 'emCreateUser' } });

// One status, a schema per media type (GitHub's 400: basic-error as JSON, scim-error as SCIM):
// two patterns, each with its own type; the handler's error says which answers.
class BasicError extends Error {}
const basicError = codec.object({ message: codec.string() }).withName('BasicError');
const byType = [
  rest.errorPattern(BasicError, 400, basicError, (e) => ({ message: e.message })).withMediaTypes('application/json'),
  rest.errorPattern(ScimError, 400, scimError, (e) => ({ detail: e.detail, status: '400' })).withMediaTypes('application/scim+json'),
];
// RFC 9457 problem details in JSON and in XML (appendix B), chosen by Accept.
class Conflict extends Error {}
const problem = codec.object({ title: codec.string(), status: codec.int() }).withName('Problem');
const conflict = rest
  .errorPattern(Conflict, 409, problem, (e) => ({ title: e.message, status: 409 }))
  .withFormats(format.json(problem).withContentType('application/problem+json'), format.xml(problem).withContentType('application/problem+xml'));
const putName = rest.route({ method: 'PUT', path: '/names/{name}', pathParams: { name: codec.string() }, response: codec.object({ name: codec.string() }), errors: [conflict], meta: { operationId: 'emPutName' } });
// XML first: what a client gets that names neither problem type.
const conflictXmlFirst = rest.errorPattern(Conflict, 409, problem, (e) => ({ title: e.message, status: 409 })).withFormats(format.xml(problem).withContentType('application/problem+xml'), format.json(problem).withContentType('application/problem+json'));
const putTag = rest.route({ method: 'PUT', path: '/tags/{name}', pathParams: { name: codec.string() }, response: codec.object({ name: codec.string() }), errors: [conflictXmlFirst], meta: { operationId: 'emPutTag' } });
const patchGroup = rest.route({ method: 'PATCH', path: '/scim/Groups/{id}', pathParams: { id: codec.string() }, body: user, response: user, errors: byType, meta: { operationId: 'emPatchGroup' } });

export function errorMediaTypes(adapter: AdapterUnderTest): void {
  describe(`error media types: ${adapter.name}`, () => {
    let base = '';
    let stop: () => Promise<void> = () => Promise.resolve();
    let api: rest.Server;
    const client = rest.newClient();

    beforeAll(async () => {
      api = rest.newServer({ title: 'SCIM', version: '1' });
      createUser
        .withHandler((_ctx, req) => {
          if (req.userName === 'taken') throw new ScimError('userName is taken');
          return req;
        })
        .register(api);
      for (const r of [putName, putTag]) {
        r.withHandler((_ctx, req) => {
          if (req.name === 'taken') throw new Conflict('Name taken');
          return { name: req.name };
        }).register(api);
      }
      patchGroup
        .withHandler((_ctx, req) => {
          if (req.id === 'scim') throw new ScimError('no such member');
          if (req.id === 'basic') throw new BasicError('Bad request');
          return { userName: req.userName };
        })
        .register(api);
      ({ baseURL: base, stop } = await adapter.serve(api));
      client.attach(clientTransport({ baseURL: base }));
    });
    afterAll(() => stop());

    const post = (accept?: string): Promise<Response> =>
      fetch(`${base}/scim/Users`, { method: 'POST', headers: { 'content-type': 'application/json', ...(accept !== undefined && { accept }) }, body: '{"userName":"taken"}' });

    it('writes the error body in the media type Accept prefers among its own, else the first', async () => {
      for (const [accept, type] of [[undefined, 'application/json'], ['application/scim+json, application/json;q=0.5', 'application/scim+json'], ['application/scim+json;q=0.9, application/json', 'application/json']] as const) {
        const res = await post(accept);
        expect(res.status, String(accept)).toBe(400);
        expect(res.headers.get('content-type'), String(accept)).toBe(type);
        expect(await res.json()).toEqual({ detail: 'userName is taken', status: '400' });
      }
    });

    it('is decoded by the typed client', async () => {
      const r = await client.safeCall(createUser, { userName: 'taken' });
      if (r.ok || r.status !== 400) throw new Error(`expected the declared 400, got ${JSON.stringify(r)}`);
      expect(r.error).toEqual({ detail: 'userName is taken', status: '400' });
    });

    it('documents the body under each of its media types', () => {
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
      const content = doc.paths['/scim/Users']?.post?.responses['400']?.content ?? {};
      expect(Object.keys(content)).toEqual(['application/json', 'application/scim+json']);
      expect(content['application/scim+json']?.schema).toEqual({ $ref: '#/components/schemas/ScimError' });
    });

    it('answers one status with a schema per media type, decoded by the type of the response', async () => {
      const scim = await fetch(`${base}/scim/Groups/scim`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"userName":"a"}' });
      expect(scim.status).toBe(400);
      expect(scim.headers.get('content-type')).toBe('application/scim+json');
      expect(await scim.json()).toEqual({ detail: 'no such member', status: '400' });
      const a = await client.safeCall(patchGroup, { id: 'scim', userName: 'a' });
      if (a.ok || a.status !== 400) throw new Error(`expected the declared 400, got ${JSON.stringify(a)}`);
      expect(a.error).toEqual({ detail: 'no such member', status: '400' });
      const b = await client.safeCall(patchGroup, { id: 'basic', userName: 'a' });
      if (b.ok || b.status !== 400) throw new Error(`expected the declared 400, got ${JSON.stringify(b)}`);
      expect(b.error).toEqual({ message: 'Bad request' });
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
      const content = doc.paths['/scim/Groups/{id}']?.patch?.responses['400']?.content ?? {};
      expect(Object.keys(content)).toEqual(['application/json', 'application/scim+json']);
      // Beside the pipeline's own 400 (a body that fails validation), in JSON.
      expect((content['application/json']?.schema as { anyOf?: unknown[] }).anyOf?.[0]).toEqual({ $ref: '#/components/schemas/BasicError' });
      expect(content['application/scim+json']?.schema).toEqual({ $ref: '#/components/schemas/ScimError' });
    });

    it('writes an error body in formats of its own, XML among them, and the client reads it by its type', async () => {
      const asXml = await fetch(`${base}/names/taken`, { method: 'PUT', headers: { accept: 'application/problem+xml, application/json;q=0.5' } });
      expect(asXml.status).toBe(409);
      expect(asXml.headers.get('content-type')).toBe('application/problem+xml');
      expect(await asXml.text()).toContain('<Problem><title>Name taken</title><status>409</status></Problem>');
      const asJson = await fetch(`${base}/names/taken`, { method: 'PUT' });
      expect(asJson.headers.get('content-type')).toBe('application/problem+json');
      expect(await asJson.json()).toEqual({ title: 'Name taken', status: 409 });
      // The typed client names only its success formats: the pattern's first format answers it, here XML.
      const r = await client.safeCall(putTag, { name: 'taken' });
      if (r.ok || r.status !== 409) throw new Error(`expected the declared 409, got ${JSON.stringify(r)}`);
      expect(r.error).toEqual({ title: 'Name taken', status: 409 });
      const doc = JSON.parse(api.openAPISpec().marshalJSON()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };
      expect(Object.keys(doc.paths['/names/{name}']?.put?.responses['409']?.content ?? {})).toEqual(['application/problem+json', 'application/problem+xml']);
      expect(() => rest.errorPattern(Conflict, 409, problem, (e) => ({ title: e.message, status: 409 })).withFormats(format.html(problem, () => ''))).toThrow(/response-only/);
    });

    it('refuses a media type that is not JSON', () => {
      expect(() => rest.errorPattern(ScimError, 400, scimError, (e) => ({ detail: e.detail, status: '400' })).withMediaTypes('text/plain')).toThrow(/not a JSON media type/);
    });
  });
}
