// The code-generation base shared by the decoder compiler (`compile.ts`) and the JSON
// serializer compiler (`serializer.ts`).
//
// Safety: generated code names only our own locals (`v12`, `r3`) and the helpers a subclass
// passes to `build`. Every value taken from a codec (wire keys, literals, bounds, constraints,
// codecs) reaches the code as a closed-over reference (`r3`) or, for keys and finite numbers,
// through `JSON.stringify`; nothing input-derived is ever spliced in (the code is built before
// any input is seen).
/** Trees deeper than this are left to the codecs' own methods below this depth. */
const MAX_DEPTH = 64;

/** The generated code of one function of one input `x`. */
export class CodeEmitter {
  readonly #refs: unknown[] = [];
  readonly #lines: string[] = [];
  #n = 0;
  #depth = 0;

  /** A reference, in the generated code, to `value` (a codec, a constraint, a constant). */
  ref(value: unknown): string {
    let i = this.#refs.indexOf(value);
    if (i < 0) i = this.#refs.push(value) - 1;
    return `r${i}`;
  }

  /** A fresh local name. */
  local(): string {
    return `v${this.#n++}`;
  }

  /** Appends one statement (or block opener/closer). */
  line(code: string): void {
    this.#lines.push(code);
  }

  /** A property key as a JavaScript string literal (`"id"`, `"__proto__"`). */
  key(name: string): string {
    return JSON.stringify(name);
  }

  /**
   * Runs `emit` one level deeper; `undefined` (without running it) once the tree is too deep,
   * so the caller falls back to the codec's own method.
   */
  nested<T>(emit: () => T): T | undefined {
    if (this.#depth >= MAX_DEPTH) return undefined;
    this.#depth++;
    try {
      return emit();
    } finally {
      this.#depth--;
    }
  }

  /**
   * The function `function name(x) { <lines> return <result>; }`, closing over `helpers` (by
   * name) and the references made with {@link CodeEmitter.ref}.
   */
  build<F>(name: string, result: string, helpers: Readonly<Record<string, unknown>>): F {
    const names = [...Object.keys(helpers), ...this.#refs.map((_, i) => `r${i}`)];
    const body = `"use strict";\nreturn function ${name}(x) {\n${this.#lines.join('\n')}\nreturn ${result};\n};`;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point of the compilers; see the safety note above.
    const factory = new Function(...names, body) as (...args: unknown[]) => F;
    return factory(...Object.values(helpers), ...this.#refs);
  }

  /** The generated statements, for tests and debugging. */
  source(): string {
    return this.#lines.join('\n');
  }
}

let supported: boolean | undefined;

/** Whether this runtime lets code be generated (`new Function`): not under a CSP without `unsafe-eval`, nor in Workers. */
export function canGenerate(): boolean {
  if (supported === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a probe for code generation.
      supported = (new Function('return 1') as () => number)() === 1;
    } catch {
      supported = false;
    }
  }
  return supported;
}
