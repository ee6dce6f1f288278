import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { TRICKY, expectEncodeError, expectSameDecodeError, expectSyntaxError, text, thrown, utf8 } from '../test/helpers.js';
import * as format from './index.js';

const config = codec.object({
  name: codec.string().refine(validate.minLength(1)),
  at: codec.time(),
  day: codec.optional(codec.date()),
  id: codec.int64(),
  ratio: codec.optional(codec.number()),
  server: codec.object({ host: codec.string(), port: codec.uint16() }),
  users: codec.array(codec.object({ login: codec.string(), admin: codec.boolean() })),
  labels: codec.optional(codec.record(codec.string())),
});
const f = format.toml(config);


describe('toml', () => {
  it('round-trips an object through a TOML document', () => {
    const value = {
      name: 'Ada "the first"\nLovelace',
      at: new Date('2025-01-02T03:04:05.000Z'),
      day: new Date('2025-01-02T00:00:00.000Z'),
      id: 9223372036854775807n,
      ratio: 1,
      server: { host: 'example.org', port: 8080 },
      users: [
        { login: 'ada', admin: true },
        { login: 'bob', admin: false },
      ],
      labels: Object.fromEntries([['a b', 'c'], ['é', 'ü'], ['__proto__', 'x'], ['', 'empty']]) as Record<string, string>,
    };
    const bytes = f.marshal(value);
    const doc = text(bytes);
    expect(f.contentType).toBe('application/toml');
    expect(doc).toContain('at = 2025-01-02T03:04:05.000Z\nday = 2025-01-02\n');
    expect(doc).toContain('id = "9223372036854775807"\n');
    expect(doc).toContain('[server]\nhost = "example.org"\nport = 8080\n');
    expect(doc).toContain('[[users]]\nlogin = "ada"\nadmin = true\n');
    const back = f.unmarshal(bytes);
    expect(back).toEqual(value);
    expect(Object.keys(back.labels ?? {})).toEqual(['a b', 'é', '__proto__', '']);
  });

  it('reads native TOML date-times, dates and integers', () => {
    const doc = 'name = "a"\nat = 2025-01-02T04:04:05+01:00\nday = 2025-01-02\nid = -9223372036854775808\nusers = []\n[server]\nhost = "h"\nport = 1\n';
    expect(f.unmarshal(utf8(doc))).toEqual({
      name: 'a',
      at: new Date('2025-01-02T03:04:05Z'),
      day: new Date('2025-01-02T00:00:00Z'),
      id: -9223372036854775808n,
      server: { host: 'h', port: 1 },
      users: [],
    } as unknown);
  });

  it('writes an empty array inline and reads it back', () => {
    const value = { name: 'a', at: new Date(0), id: 1n, server: { host: 'h', port: 1 }, users: [] };
    expect(f.unmarshal(f.marshal(value))).toEqual(value);
  });

  it('refuses a local date-time for time() and big integers for number codecs', () => {
    const doc = 'name = "a"\nat = 2025-01-02T03:04:05\nid = 1\nusers = []\n[server]\nhost = "h"\nport = 9007199254740993\n';
    const err = thrown(() => f.unmarshal(utf8(doc))) as codec.DecodeError;
    expect(err).toBeInstanceOf(codec.DecodeError);
    expect(err.issues.map((i) => i.pointer)).toEqual(['/at', '/server/port']);
  });

  it('reads an empty body as the empty table', () => {
    const opt = format.toml(codec.object({ a: codec.optional(codec.string()) }));
    expect(opt.unmarshal(new Uint8Array(0))).toEqual({});
    expect(opt.unmarshal(opt.marshal({}))).toEqual({});
    expect(format.toml(codec.empty<Record<string, never>>()).marshal({})).toEqual(new Uint8Array(0));
  });

  it('reports TOML errors as DecodeError `syntax` with a line and column and no excerpt', () => {
    expectSyntaxError(() => f.unmarshal(utf8('a = {')), 'TOML', 'body is not valid TOML: unfinished table at line 1, column 5');
    expectSyntaxError(() => f.unmarshal(utf8('a = 1\na = 2')), 'TOML', /redefine .* at line 2, column 1$/);
    expectSyntaxError(() => f.unmarshal(utf8('name: "a"')), 'TOML', /at line 1, column \d+$/);
    expectSyntaxError(() => f.unmarshal(new Uint8Array([0x61, 0x3d, 0x22, 0xc3, 0x22])), 'TOML', 'body is not valid TOML: it is not valid UTF-8');
    expectSyntaxError(() => f.unmarshal(utf8('a = ' + '['.repeat(5000) + ']'.repeat(5000))), 'TOML');
  });

  it('reports invalid values with the same issues as JSON', () => {
    const wire = { name: '', at: '2025-01-02T03:04:05Z', id: '1', server: { host: 'h', port: 1 }, users: [] };
    const doc = 'name = ""\nat = "2025-01-02T03:04:05Z"\nid = "1"\nusers = []\n[server]\nhost = "h"\nport = 1\n';
    expectSameDecodeError(() => f.unmarshal(utf8(doc)), () => format.json(config).unmarshal(utf8(JSON.stringify(wire))));
    expect(() => f.unmarshal(utf8(doc))).toThrow('name: must have at least 1 character');
  });

  it('refuses to write values that are not tables or hold null', () => {
    expect(() => format.toml(codec.array(codec.string())).marshal(['a'])).toThrow(new TypeError('a TOML body is a table: the value must encode to an object, got array'));
    expect(() => format.toml(codec.string()).marshal('a')).toThrow(TypeError);
    const nullable = format.toml(codec.object({ a: codec.object({ b: codec.nullable(codec.string()) }) }));
    expect(() => nullable.marshal({ a: { b: null } })).toThrow(new TypeError('TOML has no null: a.b is null'));
    expect(() => format.toml(codec.object({ a: codec.array(codec.nullable(codec.int())) })).marshal({ a: [1, null] })).toThrow('TOML has no null: a[1] is null');
    expectEncodeError(() => f.marshal({ name: 'a', at: new Date(0), id: 1n, server: { host: 'h', port: 70000 }, users: [] }), /server\.port/);
  });

  it('keeps __proto__ as an own key and never touches a prototype', () => {
    const doc = utf8('"__proto__" = { polluted = true }\n[constructor.prototype]\npolluted = true\n');
    const rec = format.toml(codec.record(codec.any())).unmarshal(doc);
    expect(Object.keys(rec)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(format.toml(codec.object({})).unmarshal(doc)).toEqual({});
    expect(() => format.toml(codec.object({}).strict()).unmarshal(doc)).toThrow(/__proto__: is not a known field/);
  });

  it('round-trips tricky strings and keys exactly', () => {
    const strings = format.toml(codec.object({ s: codec.array(codec.string()), r: codec.record(codec.string()) }));
    const value = { s: TRICKY, r: Object.fromEntries(TRICKY.map((t, i) => [t, String(i)])) };
    expect(strings.unmarshal(strings.marshal(value))).toEqual(value);
  });
});
