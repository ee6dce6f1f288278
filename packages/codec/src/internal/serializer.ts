// The JSON serializer compiler. A codec tree becomes one function that checks a value's
// structure and writes its JSON text directly, in one walk: no wire object is built and
// `JSON.stringify` runs only on values of unknown shape. It answers "here is the text" or
// FAIL; on FAIL (or when it throws) `encodeJson` runs `JSON.stringify(codec.encode(value))`,
// which throws the `EncodeError` that says what is wrong. So whatever text it returns must be
// exactly that expression's (key order, escapes, omitted `undefined`s, `null` in arrays);
// it need not accept everything that expression accepts.
//
// Safety: see `emitter.ts`; nothing input-derived is ever spliced into generated code.
import { AnyValueCodec } from '../any.js';
import { ArrayCodec } from '../array.js';
import { BooleanCodec } from '../boolean.js';
import { INVALID, type Codec } from '../codec.js';
import { DefaultedCodec } from '../defaulted.js';
import { IntCodec } from '../int.js';
import { LiteralCodec } from '../literal.js';
import { NullableCodec } from '../nullable.js';
import { NumberCodec } from '../number.js';
import { mayBeAbsent, ObjectCodec } from '../object.js';
import { OptionalCodec } from '../optional.js';
import { defineEntry } from '../record.js';
import { StringCodec } from '../string.js';
import { FIRST_INSTANT, instantText, LAST_INSTANT, TimeCodec } from '../time.js';
import { CodeEmitter } from './emitter.js';

const FAIL: typeof INVALID = INVALID;

/** A compiled serializer: the JSON text (or `undefined`, as `JSON.stringify` gives), or FAIL. */
export type FastSerializer = (value: unknown) => unknown;

/** JSON text in the generated code: an expression, and whether it may be `undefined` (to omit). */
interface Text {
  readonly code: string;
  readonly omittable: boolean;
}

type Emit = (e: SerializerEmitter, codec: never, src: string) => Text;

const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * `JSON.stringify(s)` for a string: quoted as it is when no character needs an escape (RFC 8259
 * §7: `"`, `\`, controls; lone surrogates are written as `\udXXX` by `JSON.stringify`, so any
 * surrogate goes to it). One regular-expression test: faster than a character loop even for
 * short strings.
 */
export function quote(s: string): string {
  return ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * The JSON text of a wire value of unknown shape, as it is written inside an object or array.
 * A value with a `toJSON` method is FAIL: `JSON.stringify` would pass it its key.
 */
function any(w: unknown): unknown {
  if (typeof w === 'object' && w !== null && typeof (w as { toJSON?: unknown }).toJSON === 'function') return FAIL;
  return JSON.stringify(w);
}

/** The generated code of one serializer. */
export class SerializerEmitter extends CodeEmitter {
  /**
   * Emits the checks and text of local `src` under `codec`. A codec without an emitter here is
   * encoded by its own `encode`, and its wire value written by `JSON.stringify`.
   */
  text(codec: Codec<unknown>, src: string): Text {
    const emit = EMITTERS.get(codec.constructor);
    const out = emit === undefined ? undefined : this.nested(() => emit(this, codec as never, src));
    if (out !== undefined) return out;
    const t = this.local();
    this.line(`const ${t} = A(${this.ref(codec)}.encode(${src})); if (${t} === F) return F;`);
    return { code: t, omittable: true };
  }

  /** The compiled function: `(value) => text | undefined | F`. */
  compile(root: Codec<unknown>): FastSerializer {
    const out = this.text(root, 'x');
    return this.build('serialize', out.code, { F: FAIL, A: any, Q: quote, I: instantText, hasOwn, U8: Uint8Array });
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The compiled serializer of `codec`, or `undefined` when it cannot be built. */
export function compileSerializer(codec: Codec<unknown>): FastSerializer | undefined {
  if (!EMITTERS.has(codec.constructor)) return undefined;
  try {
    return new SerializerEmitter().compile(codec);
  } catch {
    return undefined;
  }
}

const text = (code: string): Text => ({ code, omittable: false });

const EMITTERS = new Map<unknown, Emit>([
  [
    StringCodec,
    (e, _c: StringCodec, src) => {
      e.line(`if (typeof ${src} !== 'string') return F;`);
      return text(`Q(${src})`);
    },
  ],
  [
    BooleanCodec,
    (e, _c: BooleanCodec, src) => {
      e.line(`if (typeof ${src} !== 'boolean') return F;`);
      return text(`(${src} ? 'true' : 'false')`);
    },
  ],
  [
    NumberCodec,
    (e, _c: NumberCodec, src) => {
      // A finite number's JSON text is its JavaScript text (-0 included: both write 0).
      e.line(`if (typeof ${src} !== 'number' || !Number.isFinite(${src})) return F;`);
      return text(`('' + ${src})`);
    },
  ],
  [
    IntCodec,
    (e, c: IntCodec, src) => {
      const { minimum, maximum } = c.range;
      e.line(`if (typeof ${src} !== 'number' || !Number.isInteger(${src}) || ${src} < ${JSON.stringify(minimum)} || ${src} > ${JSON.stringify(maximum)}) return F;`);
      return text(`('' + ${src})`);
    },
  ],
  [
    LiteralCodec,
    (e, c: LiteralCodec<null>, src) => {
      e.line(`if (${src} !== ${e.ref(c.value)}) return F;`);
      return text(e.ref(JSON.stringify(c.value)));
    },
  ],
  [
    TimeCodec,
    (e, _c: TimeCodec, src) => {
      // An ISO instant has digits, `-`, `:`, `.`, `T` and `Z` only: nothing to escape.
      const t = e.local();
      e.line(`if (!(${src} instanceof Date)) return F; const ${t} = ${src}.getTime();`);
      e.line(`if (!(${t} >= ${JSON.stringify(FIRST_INSTANT)} && ${t} <= ${JSON.stringify(LAST_INSTANT)})) return F;`);
      return text(`('"' + I(${t}) + '"')`);
    },
  ],
  [
    AnyValueCodec,
    (e, _c: AnyValueCodec, src) => {
      const t = e.local();
      e.line(`const ${t} = A(${src}); if (${t} === F) return F;`);
      return { code: t, omittable: true };
    },
  ],
  [OptionalCodec, emitUnless('undefined')],
  [DefaultedCodec, emitUnless('undefined')],
  [NullableCodec, emitUnless('null')],
  [
    ArrayCodec,
    (e, c: ArrayCodec<unknown>, src) => {
      const s = e.local();
      const i = e.local();
      const item = e.local();
      e.line(`if (!Array.isArray(${src})) return F;`);
      e.line(`let ${s} = '[';`);
      e.line(`for (let ${i} = 0; ${i} < ${src}.length; ${i}++) {`);
      e.line(`const ${item} = ${src}[${i}];`);
      const t = e.text(c.item, item);
      // JSON.stringify writes `null` for an item whose JSON text is undefined.
      const value = t.omittable ? `(${t.code} === undefined ? 'null' : ${t.code})` : t.code;
      e.line(`${s} += ${i} === 0 ? ${value} : ',' + ${value};`);
      e.line('}');
      return text(`(${s} + ']')`);
    },
  ],
  [ObjectCodec, emitObject],
]);

/**
 * `optional` / `defaulted` (nothing written for `undefined`) and `nullable` (`null`): the inner
 * codec's text otherwise.
 */
function emitUnless(absent: 'undefined' | 'null'): Emit {
  return (e, c: OptionalCodec<unknown> | NullableCodec<unknown> | DefaultedCodec<unknown>, src) => {
    const t = e.local();
    e.line(`let ${t} = ${absent === 'null' ? "'null'" : 'undefined'};`);
    e.line(`if (${src} !== ${absent}) {`);
    const inner = e.text(c.inner, src);
    e.line(`${t} = ${inner.code};`);
    e.line('}');
    return { code: t, omittable: absent === 'undefined' || inner.omittable };
  };
}

function emitObject(e: SerializerEmitter, c: ObjectCodec<Record<string, Codec<unknown>>>, src: string): Text {
  e.line(`if (typeof ${src} !== 'object' || ${src} === null || Array.isArray(${src}) || ${src} instanceof U8) return F;`);
  // The fields in the order JSON.stringify visits the wire object `encode` builds: integer
  // keys first, ascending, then the others as defined. The engine says which order that is.
  const byWire = new Map<string, [key: string, field: Codec<unknown>]>();
  const probe: Record<string, unknown> = {};
  for (const key of Object.keys(c.shape)) {
    const wire = c.wireName(key);
    byWire.set(wire, [key, c.shape[key] as Codec<unknown>]);
    defineEntry(probe, wire, true);
  }
  const s = e.local();
  e.line(`let ${s} = '{';`);
  // The comma before a field: none while nothing can have been written, one once a field that
  // is always written was, and otherwise one when the text so far is more than `{`.
  let written: 'none' | 'maybe' | 'some' = 'none';
  for (const wire of Object.keys(probe)) {
    const [key, field] = byWire.get(wire) as [string, Codec<unknown>];
    const raw = e.local();
    const k = e.key(key);
    // As `encode` reads a field: inherited members of Object.prototype are never field values.
    if (key in Object.prototype) e.line(`const ${raw} = hasOwn.call(${src}, ${k}) ? ${src}[${k}] : undefined;`);
    else e.line(`const ${raw} = ${src}[${k}];`);
    const absent = mayBeAbsent(field);
    e.line(absent ? `if (${raw} !== undefined) {` : `if (${raw} === undefined) return F;`);
    const t = e.text(field, raw);
    const name = e.key(`${JSON.stringify(wire)}:`);
    const lead = written === 'none' ? name : written === 'some' ? e.key(`,${JSON.stringify(wire)}:`) : `(${s}.length === 1 ? ${name} : ',' + ${name})`;
    e.line(`${t.omittable ? `if (${t.code} !== undefined) ` : ''}${s} += ${lead} + ${t.code};`);
    if (absent) e.line('}');
    if (!absent && !t.omittable) written = 'some';
    else if (written === 'none') written = 'maybe';
  }
  return text(`(${s} + '}')`);
}
