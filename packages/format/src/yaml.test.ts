import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import { describe, expect, it } from 'vitest';
import { TRICKY, expectEncodeError, expectSameDecodeError, expectSyntaxError, text, utf8 } from '../test/helpers.js';
import * as format from './index.js';

const user = codec.object({
  name: codec.string().refine(validate.minLength(1)),
  at: codec.time(),
  id: codec.int64(),
  avatar: codec.optional(codec.bytes()),
  tags: codec.array(codec.string()),
  score: codec.nullable(codec.number()),
});
const f = format.yaml(user);


describe('yaml', () => {
  it('round-trips through YAML 1.2 text', () => {
    const value = {
      name: 'Ada',
      at: new Date('2025-01-02T03:04:05.000Z'),
      id: 9007199254740993n,
      avatar: new Uint8Array([1, 2, 255]),
      tags: ['true', '1', 'null', 'yes', '2025-01-02', 'a: b', '# c', ''],
      score: null,
    };
    const bytes = f.marshal(value);
    expect(f.contentType).toBe('application/yaml');
    expect('bodySchema' in f).toBe(false);
    expect(text(bytes)).toContain('name: Ada\n');
    expect(text(bytes)).toContain('at: 2025-01-02T03:04:05.000Z\n');
    expect(text(bytes)).toContain('id: "9007199254740993"\n');
    expect(f.unmarshal(bytes)).toEqual(value);
  });

  it('reads hand-written YAML: block and flow styles, comments, native integers for int64', () => {
    const body = utf8('# a user\nname: Ada\nat: 2025-01-02T04:04:05+01:00\nid: 42\ntags: [a, b]\nscore: .5\n');
    expect(f.unmarshal(body)).toEqual({ name: 'Ada', at: new Date('2025-01-02T03:04:05Z'), id: 42n, tags: ['a', 'b'], score: 0.5 });
  });

  it('unmarshals an empty body as undefined and writes undefined as an empty body', () => {
    expect(format.yaml(codec.optional(codec.string())).unmarshal(new Uint8Array(0))).toBeUndefined();
    expect(format.yaml(codec.optional(codec.string())).unmarshal(utf8(' \n'))).toBeUndefined();
    expect(format.yaml(codec.empty<Record<string, never>>()).marshal({})).toEqual(new Uint8Array(0));
    expect(format.yaml(codec.nullable(codec.string())).unmarshal(utf8('# only a comment\n'))).toBeNull();
  });

  it('reports YAML errors as DecodeError `syntax` with a line and column and no excerpt', () => {
    expectSyntaxError(() => f.unmarshal(utf8('name: [a\n')), 'YAML', /at line \d+, column \d+$/);
    expectSyntaxError(() => f.unmarshal(utf8('name: a\nname: b\n')), 'YAML', 'body is not valid YAML: Map keys must be unique at line 2, column 1');
    expectSyntaxError(() => f.unmarshal(utf8('- 1\n---\n- 2\n')), 'YAML', /multiple documents/);
    expectSyntaxError(() => f.unmarshal(utf8('? [1]\n: 2\n')), 'YAML', /keys must be strings/);
    expectSyntaxError(() => f.unmarshal(utf8('a: *nowhere\n')), 'YAML', /Unresolved alias/);
    expectSyntaxError(() => f.unmarshal(new Uint8Array([0x61, 0x3a, 0x20, 0xff])), 'YAML', 'body is not valid YAML: it is not valid UTF-8');
    expectSyntaxError(() => f.unmarshal(utf8('['.repeat(100_000))), 'YAML', 'body is not valid YAML: it is nested too deeply');
  });

  it('refuses alias bombs (billion laughs) but reads a few aliases', () => {
    const lines = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (const c of 'bcdefghi') {
      const p = String.fromCharCode(c.charCodeAt(0) - 1);
      lines.push(`${c}: &${c} [*${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}]`);
    }
    const any = format.yaml(codec.any());
    expectSyntaxError(() => any.unmarshal(utf8(lines.join('\n'))), 'YAML', 'body is not valid YAML: more than 100 alias expansions');
    expect(any.unmarshal(utf8('a: &x [1, 2]\nb: *x\n'))).toEqual({ a: [1, 2], b: [1, 2] });
  });

  it('reports invalid values with the same issues as JSON', () => {
    const value = { name: '', at: '2025-01-02T03:04:05Z', id: '1', tags: [], score: null };
    expectSameDecodeError(
      () => f.unmarshal(utf8('name: ""\nat: 2025-01-02T03:04:05Z\nid: "1"\ntags: []\nscore: null\n')),
      () => format.json(user).unmarshal(utf8(JSON.stringify(value))),
    );
    expect(() => f.unmarshal(utf8('name: ""\nat: 2025-01-02T03:04:05Z\nid: "1"\ntags: []\nscore: null\n'))).toThrow(
      'name: must have at least 1 character',
    );
    expect(() => f.unmarshal(utf8('name: a\nat: x\nid: 1\ntags: []\nscore: .inf\n'))).toThrow(/at: expected an RFC 3339 date-time/);
  });

  it('reads the JSON data model: core schema, no merge keys, YAML 1.1 tags as text', () => {
    const any = format.yaml(codec.any());
    expect(any.unmarshal(utf8('a: yes\nb: on\nc: 2001-12-14\nd: 0x1F\ne: ~\nf: 1e3\n'))).toEqual({ a: 'yes', b: 'on', c: '2001-12-14', d: 31, e: null, f: 1000 });
    expect(any.unmarshal(utf8('base: &b {x: 1}\nmerged:\n  <<: *b\n'))).toEqual({ base: { x: 1 }, merged: { '<<': { x: 1 } } });
    expect(any.unmarshal(utf8('t: !!timestamp 2001-12-14\ns: !!set {a}\n'))).toEqual({ t: '2001-12-14', s: { a: null } });
    // `!!binary` is not resolved: its base64 text is what bytes() reads.
    expect(format.yaml(codec.object({ b: codec.bytes() })).unmarshal(utf8('b: !!binary aGk=\n'))).toEqual({ b: new Uint8Array([104, 105]) });
    expect(format.yaml(codec.object({ s: codec.string() })).unmarshal(utf8('s: 2001-12-14\n'))).toEqual({ s: '2001-12-14' });
    // A %YAML 1.1 directive does not bring YAML 1.1 readings back.
    expect(any.unmarshal(utf8('%YAML 1.1\n---\na: yes\nb: 2001-12-14\nbase: &b {x: 1}\nm:\n  <<: *b\n'))).toEqual({
      a: 'yes',
      b: '2001-12-14',
      base: { x: 1 },
      m: { '<<': { x: 1 } },
    });
  });

  it('keeps __proto__ as an own key and never touches a prototype', () => {
    const body = utf8('__proto__:\n  polluted: true\nconstructor:\n  prototype:\n    polluted: true\n');
    const rec = format.yaml(codec.record(codec.any())).unmarshal(body);
    expect(Object.getPrototypeOf(rec)).toBe(Object.prototype);
    expect(Object.keys(rec)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(format.yaml(codec.object({ a: codec.optional(codec.string()) })).unmarshal(body)).toEqual({});
    expect(format.yaml(codec.object({}).strict()).unmarshal.bind(format.yaml(codec.object({}).strict()), body)).toThrow(/__proto__: is not a known field/);
  });

  it('writes shared objects twice, without anchors, and checks the structure on marshal', () => {
    const shared = { x: 1 };
    const bytes = format.yaml(codec.any()).marshal({ a: shared, b: shared });
    expect(text(bytes)).not.toMatch(/[&*]/);
    expectEncodeError(() => f.marshal({ ...{ name: 'a', at: new Date(Number.NaN), id: 1n, tags: [], score: null } }), /at: /);
  });

  it('serves +yaml media types', () => {
    expect(f.withContentType('application/vnd.api+yaml').contentType).toBe('application/vnd.api+yaml');
    expect(format.mediaTypeOf(f.contentType)).toBe('application/yaml');
  });

  it('round-trips tricky strings exactly (folding, quoting, scalars that look like other types)', () => {
    const strings = format.yaml(codec.array(codec.string()));
    expect(strings.unmarshal(strings.marshal([...TRICKY, '\ud800']))).toEqual([...TRICKY, '\ud800']);
  });
});
