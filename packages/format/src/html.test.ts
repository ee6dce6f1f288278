import * as codec from '@lib/codec';
import { describe, expect, it } from 'vitest';
import { expectEncodeError, text, thrown, utf8 } from '../test/helpers.js';
import * as format from './index.js';

const page = codec.object({ title: codec.string(), items: codec.array(codec.string()) });
const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const f = format.html(page, (p) => `<h1>${escape(p.title)}</h1><ul>${p.items.map((i) => `<li>${escape(i)}</li>`).join('')}</ul>`);

describe('html', () => {
  it('marshals render(value) as UTF-8', () => {
    expect(text(f.marshal({ title: 'Café <b>', items: ['a', 'ü'] }))).toBe('<h1>Café &#60;b&#62;</h1><ul><li>a</li><li>ü</li></ul>');
    expect(f.contentType).toBe('text/html; charset=utf-8');
    expect(format.mediaTypeOf(f.contentType)).toBe('text/html');
    expect(f.bodySchema).toEqual({ type: 'string', contentMediaType: 'text/html' });
    expect(f.responseOnly).toBe(true);
  });

  it('is response-only: unmarshal throws a TypeError, never a DecodeError', () => {
    for (const body of [utf8('<h1>x</h1>'), new Uint8Array(0), new Uint8Array([0xff])]) {
      const err = thrown(() => f.unmarshal(body));
      expect(err).toBeInstanceOf(TypeError);
      expect(err).not.toBeInstanceOf(codec.DecodeError);
      expect((err as Error).message).toMatch(/^HTML is a response-only format/);
    }
  });

  it('checks the structure before rendering', () => {
    let calls = 0;
    const counted = format.html(page, () => String(++calls));
    expectEncodeError(() => counted.marshal({ title: 1 as unknown as string, items: [] }), 'title: expected string, got number');
    expect(calls).toBe(0);
    expect(() => format.html(page, () => 1 as unknown as string).marshal({ title: 'a', items: [] })).toThrow(new TypeError('format.html: render returned number, not a string'));
  });
});
