/**
 * The codec benchmark's cases: one realistic user object, its schema in @lib/codec and in each
 * peer (zod 4, valibot 1, arktype 2, TypeBox compiled), valid and invalid inputs as JSON.parse
 * gives them, and the operations measured, grouped by the process that measures them.
 *
 * The schemas state the same constraints; where a library's built-in check is not the same
 * check, `SCHEMA_DIFFERENCES` says so (it is printed with the tables).
 */
import * as codec from '@lib/codec';
import * as validate from '@lib/validate';
import * as z from 'zod';
import * as v from 'valibot';
import { type } from 'arktype';
import { FormatRegistry, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

// ---------------------------------------------------------------------------------------------
// The schemas
// ---------------------------------------------------------------------------------------------

function makeLibFields() {
  const libAddress = codec.object({
    street: codec.string().refine(validate.minLength(1)),
    city: codec.string().refine(validate.minLength(1)),
    zip: codec.string(),
    country: codec.string().refine(validate.minLength(2), validate.maxLength(2)),
  });
  return {
    id: codec.string().refine(validate.uuid),
    name: codec.string().refine(validate.minLength(1), validate.maxLength(100)),
    email: codec.string().refine(validate.email),
    age: codec.int().refine(validate.min(0)),
    tags: codec.array(codec.string()),
    address: libAddress,
  };
}
/** @lib/codec, `createdAt` kept as an RFC 3339 string (what every peer here does). */
function makeLibUser() {
  return codec.object({ ...makeLibFields(), createdAt: codec.string().refine(validate.dateTime) });
}
const libUser = makeLibUser();
/** @lib/codec as the users-api example writes it: `createdAt` decoded to a `Date` by `codec.time()`. */
const libUserTime = codec.object({ ...makeLibFields(), createdAt: codec.time() });

function makeZodUser() {
  return z.object({
    id: z.uuid(),
    name: z.string().min(1).max(100),
    email: z.email(),
    age: z.int().min(0),
    tags: z.array(z.string()),
    address: z.object({ street: z.string().min(1), city: z.string().min(1), zip: z.string(), country: z.string().length(2) }),
    createdAt: z.iso.datetime({ offset: true }),
  });
}
const zodUser = makeZodUser();

function makeValibotUser() {
  return v.object({
    id: v.pipe(v.string(), v.uuid()),
    name: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
    email: v.pipe(v.string(), v.email()),
    age: v.pipe(v.number(), v.integer(), v.minValue(0)),
    tags: v.array(v.string()),
    address: v.object({
      street: v.pipe(v.string(), v.minLength(1)),
      city: v.pipe(v.string(), v.minLength(1)),
      zip: v.string(),
      country: v.pipe(v.string(), v.length(2)),
    }),
    createdAt: v.pipe(v.string(), v.isoTimestamp()),
  });
}
const valibotUser = makeValibotUser();

function makeArkUser() {
  return type({
    id: 'string.uuid',
    name: '0 < string <= 100',
    email: 'string.email',
    age: 'number.integer >= 0',
    tags: 'string[]',
    address: { street: 'string > 0', city: 'string > 0', zip: 'string', country: 'string == 2' },
    createdAt: 'string.date.iso',
  });
}
const arkUser = makeArkUser();

// TypeBox ships no string formats: a TypeBox user registers them. These are the ajv-formats
// ("full" mode) checks, the ones fastify's Ajv applies to the same JSON Schema keywords.
const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const EMAIL_RE =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const DATE_RE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const TIME_RE = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function isDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (m === null) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= (mo === 2 && leap ? 29 : (DAYS[mo] ?? 0));
}
function isTime(s: string): boolean {
  const m = TIME_RE.exec(s);
  if (m === null) return false;
  const h = Number(m[1]);
  const mi = Number(m[2]);
  const sec = Number(m[3]);
  if (m[4] === undefined) return false; // date-time needs an offset
  return (h <= 23 && mi <= 59 && sec < 60) || (h === 23 && mi === 59 && sec < 61);
}
/** The ajv-formats `date-time` check (a date, `T`, a time with offset). */
export function isDateTime(s: string): boolean {
  const parts = s.split(/t|\s/i);
  return parts.length === 2 && isDate(parts[0] as string) && isTime(parts[1] as string);
}
FormatRegistry.Set('uuid', (s) => UUID_RE.test(s));
FormatRegistry.Set('email', (s) => EMAIL_RE.test(s));
FormatRegistry.Set('date-time', isDateTime);

function makeTypeboxUserSchema() {
  return Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    email: Type.String({ format: 'email' }),
    age: Type.Integer({ minimum: 0 }),
    tags: Type.Array(Type.String()),
    address: Type.Object({
      street: Type.String({ minLength: 1 }),
      city: Type.String({ minLength: 1 }),
      zip: Type.String(),
      country: Type.String({ minLength: 2, maxLength: 2 }),
    }),
    createdAt: Type.String({ format: 'date-time' }),
  });
}
export const typeboxUserSchema = makeTypeboxUserSchema();
const typeboxUser = TypeCompiler.Compile(typeboxUserSchema);

/** Where the five schemas are not the same check; printed under the table. */
export const SCHEMA_DIFFERENCES: readonly string[] = [
  'Output: @lib/codec, zod and valibot build a new object and strip unknown keys; arktype (default `undeclared: "ignore"`) and TypeBox `Check` validate in place and return the input itself, so they allocate nothing on success.',
  'uuid: @lib/codec, valibot and the TypeBox format accept any 8-4-4-4-12 hex text; zod `z.uuid()` and arktype `string.uuid` also check the RFC 9562 version and variant digits.',
  'email: @lib/codec and the TypeBox format use the ajv-formats regex (@lib also caps the length at 254); zod, valibot and arktype each use their own regex.',
  'date-time: @lib/codec checks the RFC 3339 syntax, a real calendar day and the leap-second rule (`validate.dateTime`); TypeBox uses the ajv-formats check (real day); zod `z.iso.datetime({ offset: true })`, valibot `isoTimestamp` and arktype `string.date.iso` are regexes only.',
  'lengths: @lib/codec counts code points (as JSON Schema does); zod, valibot, arktype and TypeBox count UTF-16 units.',
  'age: @lib/codec `int()` and zod `z.int()` reject integers beyond ±(2^53−1); valibot, arktype and TypeBox accept any integer.',
  "invalid input: every row returns the issues without throwing: @lib/codec `'~standard'.validate` (its Standard Schema interface), zod `safeParse`, valibot `safeParse`, arktype's result; TypeBox is `[...Errors(value)]`. All collect every issue. The variant row is @lib/codec `decode`, which throws a `DecodeError` — an `Error`, so V8 captures a stack trace, most of that row's cost (zod `parse` and valibot `parse` throw the same way).",
  'list: one decode of a JSON array of 200 valid users (`codec.array(user)`, `z.array`, `v.array`, `user.array()`, TypeBox `Type.Array`).',
  'strings: one decode of a JSON array of 200 non-empty strings (`codec.array(codec.string().refine(validate.minLength(1)))`, `z.array(z.string().min(1))`, `v.array(v.pipe(v.string(), v.minLength(1)))`, arktype `(string > 0)[]`, TypeBox `Type.Array(Type.String({ minLength: 1 }))`). @lib/codec checks the array and returns it as it is (its in-place path: items that decode to themselves), as arktype and TypeBox `Check` do; zod and valibot copy it.',
  'compile: declaring the schema and decoding one valid input with it, the cost of a schema built per request or at startup (@lib/codec compiles its decoder at the first decode; TypeBox is `TypeCompiler.Compile` then `Check`).',
  'encode: @lib/codec `encodeJson` checks the value\'s structure (types, finite numbers, safe integers, required fields) and writes the JSON text in one walk, as the server writes JSON bodies; it runs no constraint. zod `z.encode` and TypeBox `Encode` check the value while encoding; valibot and arktype have no encode step, so their users write `JSON.stringify(value)` (the last row).',
];

// ---------------------------------------------------------------------------------------------
// Inputs: what JSON.parse of a request body gives
// ---------------------------------------------------------------------------------------------

export const POOL = 8;
const names = ['Ada Lovelace', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov', 'Alan Turing', 'Margaret Hamilton', 'Donald Knuth', 'Frances Allen'];
function validWire(i: number): Record<string, unknown> {
  const text = JSON.stringify({
    id: `5f1c7a52-8a43-4a9e-9a41-2d1f0f5b2c1${i}`,
    name: names[i],
    email: `user${i}@example.com`,
    age: 30 + i,
    tags: ['math', 'engines', 'poetry', 'compilers'].slice(0, 1 + (i % 4)),
    address: { street: `${i + 1} St James's Square`, city: 'London', zip: 'SW1Y 4JH', country: 'GB' },
    createdAt: `2024-02-${10 + i}T12:34:56.789Z`,
  });
  return JSON.parse(text) as Record<string, unknown>;
}
/** Eight problems: id, name, email, age, tags[1], address.city, address.country, createdAt. */
function invalidWire(i: number): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify({
      id: `not-a-uuid-${i}`,
      name: '',
      email: `user${i} at example.com`,
      age: -1 - i,
      tags: ['math', 42],
      address: { street: 'x', city: '', zip: 'SW1Y 4JH', country: 'GBR' },
      createdAt: 'yesterday',
    }),
  ) as Record<string, unknown>;
}
const validInputs = Array.from({ length: POOL }, (_, i) => validWire(i));
/** Lists of 200 valid users (as `JSON.parse` gives them), one per pool slot. */
const validLists = Array.from({ length: POOL }, (_, i) => Array.from({ length: 200 }, (_, k) => validWire((i + k) % POOL)));
const invalidInputs = Array.from({ length: POOL }, (_, i) => invalidWire(i));
/** Arrays of 200 short non-empty strings (as `JSON.parse` gives them), one per pool slot. */
const validStringArrays = Array.from({ length: POOL }, (_, i) => JSON.parse(JSON.stringify(Array.from({ length: 200 }, (_, k) => `tag-${i}-${k}`))) as string[]);
/** Decoded values to encode (strings everywhere; `Date`s for the `time()` codec). */
const decodedValues = validInputs.map((w) => libUser.decode(w));
const decodedTimeValues = validInputs.map((w) => libUserTime.decode(w));

// ---------------------------------------------------------------------------------------------
// The operations, grouped by process
// ---------------------------------------------------------------------------------------------

export type Section = 'valid' | 'invalid' | 'encode' | 'list' | 'strings' | 'compile';

/** Operations per measured call: a batch amortises the timer's own cost over sub-µs operations. */
export const BATCH = 64;

/** One measured row, as a child process sends it. */
export interface Measured {
  readonly section: Section;
  readonly label: string;
  readonly variant: boolean;
  readonly ops: number;
  /** Relative margin of error of the mean, percent. */
  readonly rme: number;
  readonly issues?: number;
}

export interface Row {
  readonly section: Section;
  readonly label: string;
  /** Another way to use @lib/codec, shown for information (no ratio). */
  readonly variant?: boolean;
  /** Does one operation on input `i` of the pool; returns something so the work is not dead. */
  readonly run: (i: number) => unknown;
  /** For invalid-input rows: the number of issues reported for input `i`. */
  readonly issues?: (i: number) => number;
}

/** A set of rows measured in one process, alone. */
export interface Group {
  readonly name: string;
  readonly rows: readonly Row[];
}

function libIssues(c: codec.Codec<unknown>): (i: number) => number {
  return (i) => {
    try {
      c.decode(invalidInputs[i]);
      return 0;
    } catch (err) {
      if (err instanceof codec.DecodeError) return err.issues.length;
      throw err;
    }
  };
}
const zodIssues = (i: number): number => zodUser.safeParse(invalidInputs[i]).error?.issues.length ?? 0;
const valibotIssues = (i: number): number => v.safeParse(valibotUser, invalidInputs[i]).issues?.length ?? 0;
const arkIssues = (i: number): number => {
  const out = arkUser(invalidInputs[i]);
  return out instanceof type.errors ? out.length : 0;
};
const typeboxIssues = (i: number): number => [...typeboxUser.Errors(invalidInputs[i])].length;
const libStandard = libUser['~standard'];
const libStandardIssues = (i: number): number => {
  const r = libStandard.validate(invalidInputs[i]) as { readonly issues?: readonly unknown[] };
  return r.issues?.length ?? 0;
};
type LibUser = codec.Infer<typeof libUser>;
const libList = codec.array(libUser);
const zodList = z.array(zodUser);
const valibotList = v.array(valibotUser);
const arkList = arkUser.array();
const typeboxList = TypeCompiler.Compile(Type.Array(typeboxUserSchema));
const libStrings = codec.array(codec.string().refine(validate.minLength(1)));
const zodStrings = z.array(z.string().min(1));
const valibotStrings = v.array(v.pipe(v.string(), v.minLength(1)));
const arkStrings = type('(string > 0)[]');
const typeboxStrings = TypeCompiler.Compile(Type.Array(Type.String({ minLength: 1 })));
/** arktype's result, or a throw for its errors (so a row cannot pass by refusing the input). */
function arkOk(out: unknown): unknown {
  if (out instanceof type.errors) throw new Error(out.summary);
  return out;
}
function typeboxOk(ok: boolean, x: unknown): unknown {
  if (!ok) throw new Error('invalid');
  return x;
}
type LibUserTime = codec.Infer<typeof libUserTime>;

export const GROUPS: readonly Group[] = [
  {
    name: '@lib/codec',
    rows: [
      { section: 'valid', label: '@lib/codec', run: (i) => libUser.decode(validInputs[i]) },
      { section: 'invalid', label: '@lib/codec', run: libStandardIssues, issues: libStandardIssues },
      { section: 'list', label: '@lib/codec', run: (i) => libList.decode(validLists[i]) },
      { section: 'strings', label: '@lib/codec', run: (i) => libStrings.decode(validStringArrays[i]) },
      { section: 'compile', label: '@lib/codec', run: (i) => makeLibUser().decode(validInputs[i]) },
      { section: 'encode', label: '@lib/codec', run: (i) => codec.encodeJson(libUser, decodedValues[i] as LibUser) },
    ],
  },
  {
    name: 'zod 4',
    rows: [
      { section: 'valid', label: 'zod 4', run: (i) => zodUser.parse(validInputs[i]) },
      { section: 'invalid', label: 'zod 4', run: zodIssues, issues: zodIssues },
      { section: 'list', label: 'zod 4', run: (i) => zodList.parse(validLists[i]) },
      { section: 'strings', label: 'zod 4', run: (i) => zodStrings.parse(validStringArrays[i]) },
      { section: 'compile', label: 'zod 4', run: (i) => makeZodUser().parse(validInputs[i]) },
      { section: 'encode', label: 'zod 4 (z.encode, checks)', run: (i) => JSON.stringify(z.encode(zodUser, decodedValues[i] as z.output<typeof zodUser>)) },
    ],
  },
  {
    name: 'valibot 1',
    rows: [
      { section: 'valid', label: 'valibot 1', run: (i) => v.parse(valibotUser, validInputs[i]) },
      { section: 'invalid', label: 'valibot 1', run: valibotIssues, issues: valibotIssues },
      { section: 'list', label: 'valibot 1', run: (i) => v.parse(valibotList, validLists[i]) },
      { section: 'strings', label: 'valibot 1', run: (i) => v.parse(valibotStrings, validStringArrays[i]) },
      { section: 'compile', label: 'valibot 1', run: (i) => v.parse(makeValibotUser(), validInputs[i]) },
    ],
  },
  {
    name: 'arktype 2',
    rows: [
      {
        section: 'valid',
        label: 'arktype 2',
        run: (i) => {
          const out = arkUser(validInputs[i]);
          if (out instanceof type.errors) throw new Error(out.summary);
          return out;
        },
      },
      { section: 'invalid', label: 'arktype 2', run: arkIssues, issues: arkIssues },
      { section: 'list', label: 'arktype 2', run: (i) => arkOk(arkList(validLists[i])) },
      { section: 'strings', label: 'arktype 2', run: (i) => arkOk(arkStrings(validStringArrays[i])) },
      { section: 'compile', label: 'arktype 2', run: (i) => arkOk(makeArkUser()(validInputs[i])) },
    ],
  },
  {
    name: 'TypeBox (compiled)',
    rows: [
      {
        section: 'valid',
        label: 'TypeBox (compiled)',
        run: (i) => {
          const x = validInputs[i];
          if (!typeboxUser.Check(x)) throw new Error('invalid');
          return x;
        },
      },
      { section: 'invalid', label: 'TypeBox (compiled)', run: typeboxIssues, issues: typeboxIssues },
      { section: 'list', label: 'TypeBox (compiled)', run: (i) => typeboxOk(typeboxList.Check(validLists[i]), validLists[i]) },
      { section: 'strings', label: 'TypeBox (compiled)', run: (i) => typeboxOk(typeboxStrings.Check(validStringArrays[i]), validStringArrays[i]) },
      {
        section: 'compile',
        label: 'TypeBox (compiled)',
        run: (i) => typeboxOk(TypeCompiler.Compile(makeTypeboxUserSchema()).Check(validInputs[i]), validInputs[i]),
      },
      { section: 'encode', label: 'TypeBox (compiled Encode, checks)', run: (i) => JSON.stringify(typeboxUser.Encode(decodedValues[i])) },
    ],
  },
  {
    name: 'JSON.stringify',
    rows: [{ section: 'encode', label: 'JSON.stringify only (valibot, arktype: no encode)', run: (i) => JSON.stringify(decodedValues[i]) }],
  },
  {
    name: '@lib/codec variants',
    rows: [
      { section: 'valid', variant: true, label: '@lib/codec, createdAt: time() → Date', run: (i) => libUserTime.decode(validInputs[i]) },
      { section: 'invalid', variant: true, label: '@lib/codec, decode (throws a DecodeError, with its stack trace)', run: libIssues(libUser), issues: libIssues(libUser) },
      {
        section: 'encode',
        variant: true,
        label: '@lib/codec, createdAt: time() (Date → text)',
        run: (i) => codec.encodeJson(libUserTime, decodedTimeValues[i] as LibUserTime),
      },
      { section: 'encode', variant: true, label: '@lib/codec, JSON.stringify(encode(v))', run: (i) => JSON.stringify(libUser.encode(decodedValues[i] as LibUser)) },
    ],
  },
];

/**
 * Checks a group before it is measured: valid inputs decode, every invalid input is refused
 * with the same number of issues (returned by row label), encodings equal `JSON.stringify` of
 * the decoded value.
 * @throws {Error} when a library does not do what the benchmark assumes.
 */
export function sanityCheck(group: Group): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of group.rows) {
    for (let i = 0; i < POOL; i++) {
      if (row.section === 'strings' && row.label === '@lib/codec') {
        // The row shows the in-place path: it must give the input array itself.
        if (row.run(i) !== validStringArrays[i]) throw new Error('@lib/codec copied the array of strings: the in-place path is not taken');
      } else if (row.section === 'valid' || row.section === 'list' || row.section === 'strings' || row.section === 'compile') row.run(i);
      else if (row.section === 'encode') {
        if (row.run(i) !== JSON.stringify(decodedValues[i])) throw new Error(`${row.label} encodes input ${i} differently`);
      } else {
        const n = (row.issues as (i: number) => number)(i);
        if (n === 0) throw new Error(`${row.label} accepted invalid input ${i}`);
        if (i > 0 && counts.get(row.label) !== n) throw new Error(`${row.label}: the issue count varies across inputs`);
        counts.set(row.label, n);
      }
    }
  }
  return counts;
}
