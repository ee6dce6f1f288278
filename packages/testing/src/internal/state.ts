/**
 * State carried from one request to the next, the way an API's own flows carry it: what an
 * earlier exchange sent and got back (a registration's e-mail and password, a created todo's
 * id and the tenant it was created in) fills the same-named parameters and body fields of a later
 * request, all from the same exchange, so that values that belong together stay together.
 */

/** A scalar a parameter or a JSON field can take over. */
export type Scalar = string | number | boolean;

/**
 * What one successful exchange said, by name: the request's parameters (header names in lower
 * case), its body's fields, the answer's fields and the cookies it set. The answer's word wins
 * over the request's where both name a value.
 */
export type StateRecord = Readonly<Record<string, Scalar>>;

/** Records kept at most: the oldest go first. */
const MAX_RECORDS = 400;
/** How deep fields are collected from a body or an answer. */
const MAX_DEPTH = 4;
/** Items of a list answer made into records. */
const MAX_ITEMS = 20;

/** The records of a run, oldest first. */
export class StateRecords {
  readonly #records: StateRecord[] = [];

  /** A copy of the records so far, for arbitraries built now (the run goes on adding). */
  snapshot(): readonly StateRecord[] {
    return [...this.#records];
  }

  get size(): number {
    return this.#records.length;
  }

  /**
   * Learns from one successful exchange: one record of the request's parameters and body with
   * the answer's own fields and cookies, and one more record per object in a list the answer
   * holds (a page of users: each user's own id and e-mail, never mixed with another's).
   */
  learn(request: { readonly params: Readonly<Record<string, Scalar>>; readonly body: unknown }, answer: { readonly json: unknown; readonly cookies: Readonly<Record<string, string>> }): void {
    const own: Record<string, Scalar> = { ...request.params };
    collect(request.body, own, []);
    const lists: unknown[][] = [];
    collect(answer.json, own, lists);
    Object.assign(own, answer.cookies);
    this.#add(own);
    for (const list of lists) {
      for (const item of list.slice(0, MAX_ITEMS)) {
        const r: Record<string, Scalar> = {};
        collect(item, r, []);
        this.#add(r);
      }
    }
  }

  /** Adds records as they are (the ones a run starts from). */
  add(records: readonly StateRecord[]): void {
    for (const r of records) this.#add({ ...r });
  }

  #add(r: StateRecord): void {
    if (Object.keys(r).length === 0) return;
    this.#records.push(r);
    if (this.#records.length > MAX_RECORDS) this.#records.shift();
  }
}

/**
 * The scalar fields of `value` by name, into `into` (overriding what is there), then those of
 * its nested objects where no name is taken yet; arrays of objects go to `lists` (their items
 * are records of their own).
 */
function collect(value: unknown, into: Record<string, Scalar>, lists: unknown[][] | undefined, depth = 0): void {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    if (lists !== undefined && value.some((x) => typeof x === 'object' && x !== null && !Array.isArray(x))) lists.push(value);
    return;
  }
  const nested: unknown[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') into[k] = v;
    else nested.push(v);
  }
  // Nested objects fill only names their parent did not give.
  for (const v of nested) {
    const inner: Record<string, Scalar> = {};
    collect(v, inner, lists, depth + 1);
    for (const [k, x] of Object.entries(inner)) if (!(k in into)) into[k] = x;
  }
}

/** Names a JSON value has, at any depth up to the limit (the fields a record can fill). */
export function fieldNames(value: unknown, into: Set<string> = new Set(), depth = 0): Set<string> {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null || Array.isArray(value)) return into;
  for (const [k, v] of Object.entries(value)) {
    into.add(k);
    fieldNames(v, into, depth + 1);
  }
  return into;
}

/**
 * `wire` (a JSON body's wire value) with each field that `record` names replaced by the
 * record's value, one field at a time, each kept only when `accepts` still holds for the whole
 * body (the body's codec decodes it): a value of the wrong type or out of this route's range is
 * left out. Objects are copied, never changed in place.
 */
export function fillBody(wire: unknown, record: StateRecord, accepts: (wire: unknown) => boolean): unknown {
  let current = wire;
  for (const path of scalarPaths(wire)) {
    const name = path[path.length - 1] as string;
    if (!(name in record)) continue;
    const next = setAt(current, path, record[name] as Scalar);
    if (next !== current && accepts(next)) current = next;
  }
  return current;
}

/** The paths of the scalar fields of objects in `value` (arrays are not entered). */
function scalarPaths(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (prefix.length > MAX_DEPTH || typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null) out.push([...prefix, k]);
    else scalarPaths(v, [...prefix, k], out);
  }
  return out;
}

/** A copy of `value` with the field at `path` set to `x` (the same value when it already is). */
function setAt(value: unknown, path: readonly string[], x: Scalar): unknown {
  const [head, ...rest] = path as [string, ...string[]];
  const obj = value as Record<string, unknown>;
  const next = rest.length === 0 ? x : setAt(obj[head], rest, x);
  return next === obj[head] ? value : { ...obj, [head]: next };
}
