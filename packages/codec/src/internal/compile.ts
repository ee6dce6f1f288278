// The decoder compiler. A codec tree becomes one specialised function, built with
// `new Function` at its first decode: inline type checks, field reads and output building;
// constraints are called as the functions they are. The generated function only answers
// "valid, and here is the value" or "not valid" (FAIL): it builds no path and no issue. On
// FAIL, `Codec.decode` runs the interpreter, which reports every issue exactly as before. So
// the compiled path must be sound (whatever it returns is what the interpreter returns), and
// need not be complete: a codec the compiler does not know is decoded by the interpreter from
// inside the generated code.
//
// Safety: see `emitter.ts`; nothing input-derived is ever spliced into generated code.
import { AnyValueCodec } from '../any.js';
import { ArrayCodec } from '../array.js';
import { BooleanCodec } from '../boolean.js';
import { DecodeContext, installCompiler, INVALID, type Codec, type CompilerHook } from '../codec.js';
import { DefaultedCodec } from '../defaulted.js';
import { IntCodec } from '../int.js';
import { LiteralCodec } from '../literal.js';
import { NullableCodec } from '../nullable.js';
import { NumberCodec } from '../number.js';
import { mayBeAbsent, ObjectCodec } from '../object.js';
import { OptionalCodec } from '../optional.js';
import { StringCodec } from '../string.js';
import { canGenerate, CodeEmitter } from './emitter.js';
import { compileSerializer } from './serializer.js';

/** What a compiled decoder returns for an input it does not accept: the interpreter's `INVALID`. */
export const FAIL: typeof INVALID = INVALID;

/** A compiled decoder: the decoded value, or {@link FAIL}. */
export type FastDecoder = (input: unknown) => unknown;

/** How codecs are run: compiled where possible (`auto`), or always by the interpreter (`off`). */
export type JitMode = 'auto' | 'off';

/** Runs `codec` by the interpreter (abort early); {@link FAIL} when it reports any issue. */
export type Interpret = (codec: Codec<unknown>, input: unknown) => unknown;

const hasOwn = Object.prototype.hasOwnProperty;

/** Decodes by the interpreter, stopping at the first issue: the value, or {@link FAIL}. */
function interpret(codec: Codec<unknown>, input: unknown): unknown {
  const ctx = new DecodeContext({ abortEarly: true });
  const v = codec.decodeIn(input, ctx);
  return v === INVALID || ctx.issues.length > 0 ? FAIL : v;
}

/**
 * Writes the inline decoding of one codec class: statements that read the local `src` and
 * `return F` when the input is not valid; returns the local (or side-effect-free expression)
 * holding the decoded value, before the codec's constraints.
 */
type Emit = (e: DecoderEmitter, codec: never, src: string) => string;

/** The generated code of one decoder. */
export class DecoderEmitter extends CodeEmitter {
  /**
   * Emits the decoding of local `src` by `codec`, then its constraints, and returns the local
   * (or side-effect-free expression) holding the decoded value. A codec of a class without an
   * emitter here — a subclass too, whose `parse` may differ — is run by the interpreter.
   */
  decode(codec: Codec<unknown>, src: string): string {
    const emit = EMITTERS.get(codec.constructor);
    const out = emit === undefined ? undefined : this.nested(() => emit(this, codec as never, src));
    if (out === undefined) {
      const v = this.local();
      this.line(`const ${v} = I(${this.ref(codec)}, ${src}); if (${v} === F) return F;`);
      return v;
    }
    for (const c of codec.constraints) this.line(`if (!${this.ref(c)}.test(${out})) return F;`);
    return out;
  }

  /** The compiled function: `(input) => value | F`. */
  compile(root: Codec<unknown>, interpret: Interpret): FastDecoder {
    const out = this.decode(root, 'x');
    return this.build('decode', out, { F: FAIL, I: interpret, hasOwn, OP: Object.prototype, AP: Array.prototype, U8: Uint8Array, CW: copyWire });
  }
}

let mode: JitMode = initialMode();

function initialMode(): JitMode {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.['LIB_CODEC_JIT'] === 'off' ? 'off' : 'auto';
}

/**
 * Sets how codecs decode and write JSON from now on: `'auto'` (the default) compiles each codec
 * at its first `decode` (and at its first `encodeJson`) where the runtime allows code generation,
 * and interprets it elsewhere; `'off'` always interprets (as the environment variable
 * `LIB_CODEC_JIT=off` does at startup), codecs already compiled included, until `'auto'` is set
 * again. Results are the same either way; only speed differs. Calling it also installs the
 * compiler ({@link installJit}), so a bundle that sets the mode keeps the compiler.
 * @throws {TypeError} for any other value.
 */
export function setJit(next: JitMode): void {
  if (next !== 'auto' && next !== 'off') throw new TypeError(`setJit: expected 'auto' or 'off', got ${String(next)}`);
  mode = next;
  installJit();
}

/** The current {@link JitMode}. */
export function jitMode(): JitMode {
  return mode;
}

/**
 * The compiled decoder of `codec`, or `undefined` when codecs are interpreted (`setJit('off')`,
 * no code generation) or compiling failed.
 */
export function compileDecoder(codec: Codec<unknown>, interpret: Interpret): FastDecoder | undefined {
  if (mode === 'off' || !EMITTERS.has(codec.constructor) || !canGenerate()) return undefined;
  try {
    return new DecoderEmitter().compile(codec, interpret);
  } catch {
    return undefined;
  }
}

const EMITTERS = new Map<unknown, Emit>([
  [
    StringCodec,
    (e, _c: StringCodec, src) => {
      e.line(`if (typeof ${src} !== 'string') return F;`);
      return src;
    },
  ],
  [
    BooleanCodec,
    (e, _c: BooleanCodec, src) => {
      e.line(`if (typeof ${src} !== 'boolean') return F;`);
      return src;
    },
  ],
  [
    NumberCodec,
    (e, _c: NumberCodec, src) => {
      e.line(`if (typeof ${src} !== 'number' || !Number.isFinite(${src})) return F;`);
      return src;
    },
  ],
  [
    IntCodec,
    (e, c: IntCodec, src) => {
      // The bounds are safe integers of the codec's own range; JSON.stringify writes them as number literals.
      const { minimum, maximum } = c.range;
      e.line(`if (typeof ${src} !== 'number' || !Number.isInteger(${src}) || ${src} < ${JSON.stringify(minimum)} || ${src} > ${JSON.stringify(maximum)}) return F;`);
      return src;
    },
  ],
  [
    LiteralCodec,
    (e, c: LiteralCodec<null>, src) => {
      const lit = e.ref(c.value);
      e.line(`if (${src} !== ${lit}) return F;`);
      return lit;
    },
  ],
  [AnyValueCodec, (_e, _c: AnyValueCodec, src) => src],
  [OptionalCodec, emitUnless('undefined')],
  [NullableCodec, emitUnless('null')],
  [
    DefaultedCodec,
    (e, c: DefaultedCodec<unknown>, src) => {
      const wire = e.local();
      // Arrays decode in place: each absent value gets its own copy of an array or object
      // default, so that a caller who changes one decoded value never changes the default.
      const d = c.defaultWire;
      const fallback = typeof d === 'object' && d !== null ? `CW(${e.ref(d)})` : e.ref(d);
      e.line(`const ${wire} = ${src} === undefined ? ${fallback} : ${src};`);
      return e.decode(c.inner, wire);
    },
  ],
  [
    ArrayCodec,
    (e, c: ArrayCodec<unknown>, src) => {
      const out = e.local();
      const i = e.local();
      const item = e.local();
      e.line(`if (!Array.isArray(${src})) return F;`);
      if (decodesToItself(c.item)) {
        // Items that decode to themselves: the array is checked and returned as it is, not
        // copied. Another kind of array (a subclass) goes to the interpreter, which copies it.
        e.line(`if (Object.getPrototypeOf(${src}) !== AP) return F;`);
        e.line(`for (let ${i} = 0; ${i} < ${src}.length; ${i}++) {`);
        e.line(`const ${item} = ${src}[${i}];`);
        e.decode(c.item, item);
        e.line('}');
        return src;
      }
      e.line(`const ${out} = new Array(${src}.length);`);
      e.line(`for (let ${i} = 0; ${i} < ${src}.length; ${i}++) {`);
      e.line(`const ${item} = ${src}[${i}];`);
      e.line(`${out}[${i}] = ${e.decode(c.item, item)};`);
      e.line('}');
      return out;
    },
  ],
  [ObjectCodec, emitObject],
]);

/** A copy of a wire value in which every array and plain object, at any depth, is new. */
function copyWire(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copyWire);
  if (typeof v !== 'object' || v === null) return v;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copyWire(x)]));
}

/**
 * True when every value `codec` accepts decodes to itself (the same primitive, or the same
 * array): strings, booleans, numbers and integers of any width, whatever their constraints, a
 * `nullable` of those, and arrays of them. An array of such items is then returned in place.
 * A hole of a sparse array is `undefined`, which none of these accepts.
 */
function decodesToItself(codec: Codec<unknown>): boolean {
  const k = codec.constructor;
  if (k === StringCodec || k === BooleanCodec || k === NumberCodec || k === IntCodec) return true;
  if (k === NullableCodec) return decodesToItself((codec as NullableCodec<unknown>).inner);
  if (k === ArrayCodec) return decodesToItself((codec as ArrayCodec<unknown>).item);
  return false;
}

/** `optional` / `nullable`: `absent` itself when the input is `absent`, else the inner codec's decoding. */
function emitUnless(absent: 'undefined' | 'null'): Emit {
  return (e, c: OptionalCodec<unknown> | NullableCodec<unknown>, src) => {
    const out = e.local();
    e.line(`let ${out} = ${absent};`);
    e.line(`if (${src} !== ${absent}) {`);
    e.line(`${out} = ${e.decode(c.inner, src)};`);
    e.line('}');
    return out;
  };
}

function emitObject(e: DecoderEmitter, c: ObjectCodec<Record<string, Codec<unknown>>>, src: string): string {
  e.line(`if (typeof ${src} !== 'object' || ${src} === null || Array.isArray(${src}) || ${src} instanceof U8) return F;`);
  // On an object whose prototype is Object.prototype (or null), a key that Object.prototype
  // lacks can only be an own property: read it directly. Otherwise read own properties only.
  const proto = e.local();
  e.line(`const ${proto} = Object.getPrototypeOf(${src}); const ${proto}p = ${proto} === OP || ${proto} === null;`);
  const values: [key: string, value: string, mayBeAbsent: boolean][] = [];
  for (const key of Object.keys(c.shape)) {
    const field = c.shape[key] as Codec<unknown>;
    const wire = c.wireName(key);
    const absent = mayBeAbsent(field);
    const k = e.key(wire);
    const raw = e.local();
    if (wire in Object.prototype) e.line(`const ${raw} = hasOwn.call(${src}, ${k}) ? ${src}[${k}] : undefined;`);
    else e.line(`const ${raw} = ${proto}p || hasOwn.call(${src}, ${k}) ? ${src}[${k}] : undefined;`);
    if (!absent) e.line(`if (${raw} === undefined) return F;`);
    values.push([key, e.decode(field, raw), absent]);
  }
  if (c.unknownKeys === 'reject') {
    const keys = e.ref(c.wireKeys);
    const k = e.local();
    e.line(`for (const ${k} of Object.keys(${src})) if (!${keys}.has(${k})) return F;`);
  }
  // The output's keys in field order, as the interpreter writes them; "__proto__" as an own
  // property (a computed key in a literal, defineProperty otherwise).
  const out = e.local();
  const literalKey = (key: string): string => (key === '__proto__' ? `[${e.key(key)}]` : e.key(key));
  const lead = values.findIndex(([, , absent]) => absent);
  const head = lead < 0 ? values : values.slice(0, lead);
  e.line(`const ${out} = { ${head.map(([key, v]) => `${literalKey(key)}: ${v}`).join(', ')} };`);
  for (const [key, v, absent] of lead < 0 ? [] : values.slice(lead)) {
    const set =
      key === '__proto__'
        ? `Object.defineProperty(${out}, "__proto__", { value: ${v}, enumerable: true, writable: true, configurable: true });`
        : `${out}[${e.key(key)}] = ${v};`;
    e.line(absent ? `if (${v} !== undefined) ${set}` : set);
  }
  return out;
}

const HOOK: CompilerHook = {
  compile: (codec) => compileDecoder(codec, interpret),
  serializer: (codec) => (mode === 'off' || !canGenerate() ? undefined : compileSerializer(codec)),
  mode: jitMode,
};

/**
 * Installs the codec compiler: from now on codecs decode (and `encodeJson` writes JSON) through
 * code generated for each codec, where {@link setJit} and the runtime allow it. Without it,
 * codecs are interpreted: the same results, slower.
 *
 * `@lib/codec` is `"sideEffects": false`, so a bundle keeps the compiler only where something
 * calls into it: `@lib/rest`'s server calls this when it serves, and {@link setJit} calls it. A
 * program that decodes with codecs alone, bundled, calls it (or `setJit('auto')`) once at
 * startup; a browser client that does neither bundles no compiler. Loading the package whole,
 * as Node does without a bundler, installs it too. Calling it again changes nothing.
 */
export function installJit(): void {
  installCompiler(HOOK);
}

// Loading the module installs the compiler as well: a program that loads the package whole
// (Node without a bundler) compiles without asking. A bundle keeps this module only where
// installJit or setJit is called (above): elsewhere it interprets, and carries no compiler.
installJit();
