import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalJsonError, canonicalJson, MAX_CANONICAL_DEPTH } from './canonical-json.ts';

/** Any single UTF-16 code unit: control characters, lone surrogates, astral halves. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const jsonAscii = fc.jsonValue({ maxDepth: 6 });
const jsonUnicode = fc.jsonValue({ maxDepth: 6, stringUnit: 'grapheme' });
const jsonCodeUnits = fc.jsonValue({ maxDepth: 6, stringUnit: anyCodeUnit });
/** Objects whose keys are integer-like strings, where JS property order differs from ours. */
const integerKeyed = fc.dictionary(
  fc.oneof(fc.nat({ max: 2000 }).map(String), fc.string({ maxLength: 3 })),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 40 },
);

/** Deliberately naive reference: JSON.stringify for leaves, explicit code-unit comparator. */
function reference(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(reference).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort((a, b) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) {
        const d = a.charCodeAt(i) - b.charCodeAt(i);
        if (d !== 0) return d;
      }
      return a.length - b.length;
    });
    const members = keys
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${reference((v as Record<string, unknown>)[k])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Deep copy with object keys inserted in the order `order` gives. */
function reorder(v: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(v)) return v.map((x) => reorder(x, order));
  if (v !== null && typeof v === 'object') {
    // fromEntries defines own properties, so a "__proto__" key stays a key (as JSON.parse keeps it).
    return Object.fromEntries(
      order(Object.keys(v)).map((k) => [k, reorder((v as Record<string, unknown>)[k], order)]),
    );
  }
  return v;
}

function positiveZero(v: unknown): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(positiveZero);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, positiveZero(x)]));
  }
  return v;
}

/** JSON whitespace outside string literals. */
function hasWhitespaceOutsideStrings(s: string): boolean {
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') return true;
  }
  return false;
}

function errorOf(fn: () => unknown): CanonicalJsonError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CanonicalJsonError);
    expect(e).toBeInstanceOf(TypeError);
    return e as CanonicalJsonError;
  }
  throw new Error('expected a CanonicalJsonError');
}

describe('canonicalJson: key order is by UTF-16 code unit', () => {
  it('puts "10" before "9" (and "1" before both), unlike JS property order', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', 1: 'c' })).toBe('{"1":"c","10":"b","9":"a"}');
    expect(canonicalJson({ '9': 0, '10': 0, a: 0, '-1': 0, '01': 0 })).toBe(
      '{"-1":0,"01":0,"10":0,"9":0,"a":0}',
    );
  });

  it('puts uppercase before lowercase and ASCII before accents', () => {
    expect(canonicalJson({ a: 1, B: 2, z: 3, é: 4, Z: 5 })).toBe('{"B":2,"Z":5,"a":1,"z":3,"é":4}');
  });

  it('compares astral keys by their surrogates, not by code point', () => {
    // Code point order would be \uffff (U+FFFF) < 😀 (U+1F600); UTF-16 has \ud83d < \uffff.
    expect(canonicalJson({ '\uffff': 1, '😀': 2 })).toBe('{"😀":2,"\uffff":1}');
    expect(canonicalJson({ '\ue000': 1, '😀': 2, ｚ: 3 })).toBe('{"😀":2,"\ue000":1,"ｚ":3}');
  });

  it('orders a prefix before its extensions', () => {
    expect(canonicalJson({ ab: 1, a: 2, abc: 3, '': 4 })).toBe('{"":4,"a":2,"ab":1,"abc":3}');
  });

  it('sorts large objects the same way (Array#sort path)', () => {
    const keys = Array.from({ length: 200 }, (_, i) => `k${(i * 7919) % 200}`);
    const obj = Object.fromEntries(keys.map((k) => [k, k.length]));
    expect(canonicalJson(obj)).toBe(reference(obj));
  });
});

describe('canonicalJson: values', () => {
  it('writes nested objects and arrays without whitespace', () => {
    expect(canonicalJson({ b: [3, { d: null, c: [true, false] }], a: { y: {}, x: [] } })).toBe(
      '{"a":{"x":[],"y":{}},"b":[3,{"c":[true,false],"d":null}]}',
    );
  });

  it('writes empty containers and top-level scalars', () => {
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson([[], {}, [{}]])).toBe('[[],{},[{}]]');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(7)).toBe('7');
  });

  it('writes numbers as JSON.stringify does', () => {
    const cases: Array<[number, string]> = [
      [0, '0'],
      [-0, '0'],
      [1, '1'],
      [-42, '-42'],
      [0.1, '0.1'],
      [-1.5, '-1.5'],
      [1e21, '1e+21'],
      [1e20, '100000000000000000000'],
      [123456789012345680000, '123456789012345680000'],
      [5e-7, '5e-7'],
      [0.000001, '0.000001'],
      [1.5e-10, '1.5e-10'],
      [Number.MAX_SAFE_INTEGER, '9007199254740991'],
      [Number.MAX_VALUE, '1.7976931348623157e+308'],
      [Number.MIN_VALUE, '5e-324'],
      [0.1 + 0.2, '0.30000000000000004'],
    ];
    for (const [n, s] of cases) {
      expect(canonicalJson(n)).toBe(s);
      expect(canonicalJson([n])).toBe(`[${s}]`);
    }
  });

  it('keeps unicode as is and escapes what JSON.stringify escapes', () => {
    expect(canonicalJson({ s: 'ação 日本 😀 \u2028 \u007f' })).toBe('{"s":"ação 日本 😀 \u2028 \u007f"}');
    expect(canonicalJson('q"b\\n\n t\t r\r b\b f\f z\u0000 u\u001f')).toBe(
      '"q\\"b\\\\n\\n t\\t r\\r b\\b f\\f z\\u0000 u\\u001f"',
    );
    expect(canonicalJson({ 'a"b': 1, 'a\nb': 2 })).toBe('{"a\\nb":2,"a\\"b":1}');
  });

  it('escapes lone surrogates as JSON.stringify does (lowercase \\udXXX)', () => {
    expect(canonicalJson('a\ud800b')).toBe('"a\\ud800b"');
    expect(canonicalJson('\udc00')).toBe('"\\udc00"');
    expect(canonicalJson('\ude00\ud83d')).toBe('"\\ude00\\ud83d"');
    expect(canonicalJson({ '\udfff': 1 })).toBe('{"\\udfff":1}');
    expect(canonicalJson('\ud83d\ude00')).toBe('"😀"'); // a proper pair stays raw
  });

  it('keeps an own "__proto__" key, as JSON.parse creates it', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":[1]}}'))).toBe('{"__proto__":{"x":[1]},"b":1}');
  });

  it('omits undefined properties, as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: 1, c: undefined })).toBe('{"b":1}');
    expect(canonicalJson({ a: undefined })).toBe('{}');
  });

  it('accepts null-prototype objects and ignores symbol keys and non-enumerables', () => {
    const o = Object.create(null) as Record<string, unknown>;
    o.b = 1;
    o.a = 2;
    expect(canonicalJson(o)).toBe('{"a":2,"b":1}');
    const p: Record<string | symbol, unknown> = { a: 1, [Symbol('s')]: 2 };
    Object.defineProperty(p, 'hidden', { value: 3, enumerable: false });
    expect(canonicalJson(p)).toBe('{"a":1}');
  });

  it('allows a shared (non-cyclic) reference and exactly MAX_CANONICAL_DEPTH nesting', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe('{"a":{"x":1},"b":[{"x":1}]}');
    let deep: unknown = 0;
    for (let i = 0; i < MAX_CANONICAL_DEPTH; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(canonicalJson(deep)).toBe(reference(deep));
  });
});

describe('canonicalJson: rejections name the JSON path', () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['NaN', { a: [1, 2, { b: Number.NaN }] }, '$.a[2].b', /NaN/],
    ['Infinity', { a: Number.POSITIVE_INFINITY }, '$.a', /Infinity/],
    ['-Infinity', [Number.NEGATIVE_INFINITY], '$[0]', /-Infinity/],
    ['bigint', { n: { m: 10n } }, '$.n.m', /bigint/],
    ['Date', { at: new Date(0) }, '$.at', /Date/],
    ['Map', { m: new Map() }, '$.m', /Map/],
    ['Set', [new Set()], '$[0]', /Set/],
    ['class instance', { x: new (class Ticket {})() }, '$.x', /Ticket/],
    ['boxed string', { s: new String('x') }, '$.s', /String/],
    ['typed array', { b: new Uint8Array(2) }, '$.b', /Uint8Array/],
    ['function', { f: () => 1 }, '$.f', /function/],
    ['symbol', { s: Symbol('x') }, '$.s', /symbol/],
    ['undefined in array', { list: [1, undefined] }, '$.list[1]', /undefined/],
    ['array hole', { list: Object.assign(new Array<number>(3), { 0: 1, 2: 3 }) }, '$.list[1]', /undefined/],
    ['top-level undefined', undefined, '$', /undefined/],
    ['odd key', { 'a b': { '0': [Number.NaN] } }, '$["a b"]["0"][0]', /NaN/],
  ];
  for (const [name, value, path, reason] of cases) {
    it(`rejects ${name} at ${path}`, () => {
      const err = errorOf(() => canonicalJson(value));
      expect(err.path).toBe(path);
      expect(err.message).toMatch(reason);
      expect(err.message).toContain(` at ${path}`);
    });
  }

  it('rejects cycles, naming where the reference back is', () => {
    const o: Record<string, unknown> = { x: { y: {} } };
    (o.x as { y: Record<string, unknown> }).y.z = o;
    const err = errorOf(() => canonicalJson(o));
    expect(err.message).toMatch(/cycl/);
    expect(err.path).toBe('$.x.y.z');

    const a: unknown[] = [1];
    a.push(a);
    expect(errorOf(() => canonicalJson({ a })).path).toBe('$.a[1]');

    // A cycle as long as the depth limit is still named a cycle; a longer one hits the limit.
    const ring = (length: number): Record<string, unknown> => {
      const nodes: Array<Record<string, unknown>> = Array.from({ length }, () => ({}));
      nodes.forEach((node, i) => {
        node.next = nodes[(i + 1) % length];
      });
      return nodes[0] as Record<string, unknown>;
    };
    const long = errorOf(() => canonicalJson(ring(MAX_CANONICAL_DEPTH)));
    expect(long.message).toMatch(/cycl/);
    expect(long.path).toBe(`$${'.next'.repeat(MAX_CANONICAL_DEPTH)}`);
    expect(errorOf(() => canonicalJson(ring(MAX_CANONICAL_DEPTH + 1))).message).toMatch(/nesting deeper/);
  });

  it(`rejects nesting deeper than ${MAX_CANONICAL_DEPTH}`, () => {
    let deep: unknown = 0;
    for (let i = 0; i <= MAX_CANONICAL_DEPTH; i++) deep = [deep];
    const err = errorOf(() => canonicalJson(deep));
    expect(err.message).toMatch(/nesting deeper than 64/);
    expect(err.path).toBe(`$${'[0]'.repeat(MAX_CANONICAL_DEPTH)}`);
  });

  it('lets a throwing getter through unchanged', () => {
    const boom = new Error('boom');
    const o = {
      get a(): number {
        throw boom;
      },
    };
    expect(() => canonicalJson(o)).toThrow(boom);
  });
});

describe('canonicalJson: properties', () => {
  it('parses back to the same value', () => {
    fc.assert(
      fc.property(fc.oneof(jsonAscii, jsonUnicode), (v) => {
        // -0 is the one value JSON does not keep: it is written "0", as JSON.stringify does.
        expect(JSON.parse(canonicalJson(v))).toEqual(positiveZero(v));
      }),
      { numRuns: 500 },
    );
  });

  it('matches a naive reference implementation, lone surrogates and control characters included', () => {
    fc.assert(
      fc.property(fc.oneof(jsonAscii, jsonCodeUnits, integerKeyed), (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 1000 },
    );
  });

  it('is invariant under key reordering', () => {
    fc.assert(
      fc.property(fc.oneof(jsonUnicode, integerKeyed), fc.integer(), (v, seed) => {
        let s = seed | 0;
        const shuffle = (keys: string[]): string[] => {
          const out = keys.slice();
          for (let i = out.length - 1; i > 0; i--) {
            s = (Math.imul(s, 1103515245) + 12345) | 0;
            const j = (s >>> 8) % (i + 1);
            [out[i], out[j]] = [out[j] as string, out[i] as string];
          }
          return out;
        };
        const expected = canonicalJson(v);
        expect(canonicalJson(reorder(v, shuffle))).toBe(expected);
        expect(canonicalJson(reorder(v, (k) => k.slice().reverse()))).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('has no whitespace outside strings', () => {
    fc.assert(
      fc.property(fc.oneof(jsonUnicode, jsonCodeUnits), (v) => {
        expect(hasWhitespaceOutsideStrings(canonicalJson(v))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('either serialises or throws a CanonicalJsonError for anything (never something else)', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true }), (v) => {
        try {
          canonicalJson(v);
        } catch (e) {
          expect(e).toBeInstanceOf(CanonicalJsonError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
