/**
 * What a pure function of an object (a codec) and a few options gave, kept as long as the
 * object lives: arbitraries are immutable, and building one (its constraints probed with a fixed
 * seed) costs far more than drawing from it.
 */
export class Memo<K extends object, V> {
  readonly #byKey = new WeakMap<K, Map<string, V>>();

  /** The value for `key` and `variant`, made by `make` the first time (a throw is not kept). */
  get(key: K, variant: string, make: () => V): V {
    let byVariant = this.#byKey.get(key);
    if (byVariant === undefined) this.#byKey.set(key, (byVariant = new Map()));
    if (byVariant.has(variant)) return byVariant.get(variant) as V;
    const v = make();
    byVariant.set(variant, v);
    return v;
  }
}
