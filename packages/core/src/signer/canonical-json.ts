/**
 * Canonical JSON for request signing (contract §2): object keys sorted recursively by UTF-16 code
 * unit, arrays in order, no whitespace, strings and numbers exactly as JSON.stringify writes them.
 * For ordinary JSON this is RFC 8785 (JCS).
 *
 * Browser-safe on purpose (no node imports): the designer's page shows the canonical string.
 *
 * Decisions beyond RFC 8785:
 * - Lone surrogates are escaped as JSON.stringify does (`\ud800`, lowercase hex) rather than
 *   rejected, so canonicalJson(v) always equals what a JS client's JSON.stringify would put in a
 *   string. Key order still compares the raw UTF-16 code units.
 * - `undefined` object properties are omitted (as JSON.stringify does); everything JSON.stringify
 *   would silently change or drop elsewhere (NaN, ±Infinity, undefined in arrays, functions,
 *   symbols, bigint, Date, Map, class instances…) is a CanonicalJsonError naming the JSON path,
 *   because signing a value the receiver will never see is a silent mismatch.
 * - Only plain objects (prototype Object.prototype or null) are accepted; objects from another
 *   realm (iframe, vm) are therefore rejected.
 * - Nesting deeper than MAX_CANONICAL_DEPTH containers, and cycles, are rejected.
 */

/** Most containers (objects/arrays) nested inside one another; `{}` has depth 1. */
export const MAX_CANONICAL_DEPTH = 64;

/** Thrown for values with no canonical JSON form. A TypeError, like JSON.stringify's own. */
export class CanonicalJsonError extends TypeError {
  /** JSON path of the offending value, e.g. `$.a[2].b`. */
  readonly path: string;
  constructor(reason: string, path: string) {
    super(`canonicalJson: ${reason} at ${path}`);
    this.name = 'CanonicalJsonError';
    this.path = path;
  }
}

const objectProto = Object.prototype;
const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Characters JSON.stringify escapes (control, quote, backslash) or may escape (surrogates). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const needsEscape = /[\u0000-\u001f"\\\ud800-\udfff]/;
const INSERTION_SORT_MAX = 32;

/**
 * Internal failure. The path is collected while the exception unwinds (each container adds its
 * key and itself), so the hot path tracks nothing: tracking it on the way down cost ~25%.
 */
class Failure {
  /** Keys/indices and containers from the failing value up to the root (reversed path). */
  readonly keys: Array<string | number> = [];
  readonly containers: object[] = [];
  constructor(
    readonly reason: string,
    /** Set for the depth limit: the container that was one too deep, to tell cycles apart. */
    readonly tooDeep?: object,
  ) {}
}

/** Serialises `value` canonically. Throws CanonicalJsonError (a TypeError) for non-JSON values. */
export function canonicalJson(value: unknown): string {
  try {
    return write(value, 0);
  } catch (e) {
    if (e instanceof Failure) throw toError(e);
    throw e; // e.g. a throwing getter: not ours to rename
  }
}

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      // String(n) equals JSON.stringify(n) for finite numbers, -0 included ("0").
      if (Number.isFinite(value)) return String(value);
      throw new Failure(`${String(value)} is not a JSON number`);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? writeArray(value, depth) : writeObject(value, depth);
    case 'undefined':
      throw new Failure('undefined is not a JSON value');
    case 'bigint':
      throw new Failure('bigint is not a JSON value (send it as a string)');
    default:
      throw new Failure(`${typeof value} is not a JSON value`);
  }
}

function writeArray(value: readonly unknown[], depth: number): string {
  if (depth >= MAX_CANONICAL_DEPTH) throw new Failure(`nesting deeper than ${MAX_CANONICAL_DEPTH}`, value);
  const n = value.length;
  if (n === 0) return '[]';
  let i = 0;
  try {
    let out = '[';
    for (; i < n; i++) {
      const item: unknown = value[i];
      // JSON.stringify would write null here: the receiver would not see what was signed.
      if (item === undefined) throw new Failure('undefined is not a JSON value (array element)');
      out += i === 0 ? write(item, depth + 1) : `,${write(item, depth + 1)}`;
    }
    return `${out}]`;
  } catch (e) {
    if (e instanceof Failure) {
      e.keys.push(i);
      e.containers.push(value);
    }
    throw e;
  }
}

function writeObject(value: object, depth: number): string {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== objectProto && proto !== null) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    throw new Failure(`${typeof name === 'string' && name ? name : 'value'} is not a plain object`);
  }
  if (depth >= MAX_CANONICAL_DEPTH) throw new Failure(`nesting deeper than ${MAX_CANONICAL_DEPTH}`, value);
  const keys = sortedKeys(value);
  const record = value as Record<string, unknown>;
  let key = '';
  try {
    let out = '{';
    let first = true;
    for (let i = 0; i < keys.length; i++) {
      key = keys[i] as string;
      const item = record[key];
      if (item === undefined) continue; // omitted, as JSON.stringify does
      const member = `${quote(key)}:${write(item, depth + 1)}`;
      if (first) {
        out += member;
        first = false;
      } else {
        out += `,${member}`;
      }
    }
    return `${out}}`;
  } catch (e) {
    if (e instanceof Failure) {
      e.keys.push(key);
      e.containers.push(value);
    }
    throw e;
  }
}

/** JSON.stringify(s), skipping the native call (~4x slower) when nothing needs escaping. */
function quote(s: string): string {
  return needsEscape.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * Own enumerable string keys by UTF-16 code unit, which is what `<` on strings and the default
 * Array#sort compare. Insertion sort is ~2x faster than Array#sort for the usual few keys.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  const n = keys.length;
  if (n > INSERTION_SORT_MAX) return keys.sort();
  for (let i = 1; i < n; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

function toError(failure: Failure): CanonicalJsonError {
  const keys = failure.keys.slice().reverse();
  if (failure.tooDeep === undefined) return new CanonicalJsonError(failure.reason, jsonPath(keys));
  // Past the depth limit: if some container on the path is its own ancestor, it is a cycle, and
  // the useful path is the one to the first reference back.
  const chain = [...failure.containers.slice().reverse(), failure.tooDeep];
  for (let d = 1; d < chain.length; d++) {
    if (chain.indexOf(chain[d] as object) < d) {
      return new CanonicalJsonError(
        'cyclic structure (refers back to an enclosing value)',
        jsonPath(keys.slice(0, d)),
      );
    }
  }
  return new CanonicalJsonError(failure.reason, jsonPath(keys));
}

/** `$`, then `.name`, `["odd key"]` or `[index]` for each step. */
function jsonPath(keys: ReadonlyArray<string | number>): string {
  let path = '$';
  for (const key of keys) {
    if (typeof key === 'number') path += `[${key}]`;
    else if (identifier.test(key)) path += `.${key}`;
    else path += `[${JSON.stringify(key)}]`;
  }
  return path;
}
