// Before any handler exists, the generated routes already make a mock server that answers the
// typed client with generated values of the declared types: a front end can start at once.
import { randomUUID } from 'node:crypto';
import * as nodeHttp from '@lib/node-http';
import * as rest from '@lib/rest';
import * as testing from '@lib/testing';
import { expect, it } from 'vitest';
import { routes } from './generated/bookstore.js';

it('a mock of the generated routes answers the typed client', async () => {
  const mock = await testing.mockServer(Object.values(routes), { seed: 1 });
  try {
    const client = rest.newClient();
    client.attach(nodeHttp.newClientTransport({ baseURL: mock.baseURL }));
    const book = await client.call(routes.getBook, { bookId: randomUUID() });
    const title: string = book.title;
    expect(title.length).toBeGreaterThan(0);
    expect(book.isbn).toMatch(/^97[89][0-9]{10}$/);
    const page = await client.call(routes.listBooks, { limit: 5 });
    expect(Array.isArray(page.items)).toBe(true);
    // Security is not enforced by the mock: any credentials, or none, are accepted.
    const created = await client.call(routes.createBook, { title: 'Dune', author: 'Frank Herbert', isbn: '9780441013593', publishedYear: 1965 });
    expect(typeof created.id).toBe('string');
  } finally {
    await mock.close();
  }
});
