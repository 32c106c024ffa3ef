import fc from 'fast-check';

/**
 * Generators of hostile input, shared by the property-based suites: values an attacker sends to any route,
 * keys that walk into prototypes, and the wire forms (query strings, JSON and form bodies) that carry them.
 */

/** Keys that reach Object.prototype or its machinery when a parser or a tree walk trusts them. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'] as const;

/** A string with UTF-16 code units that are not valid text: lone surrogates, in both orders and alone. */
const loneSurrogates = fc.constantFrom('\uD800', '\uDFFF', 'a\uD83Db', '\uDC00\uD800', 'x'.repeat(10) + '\uD83D');

/** Short strings that mean something to some parser, filter or SQL statement. */
const MEANINGFUL = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  'NaN',
  'Infinity',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '/',
  '../../etc/passwd',
  '%',
  '%zz',
  '%E4%B8',
  '%ED%A0%80',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  "' OR 1=1 --",
  '"; DROP TABLE events; --',
  '\\',
  '<script>alert(1)</script>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '^(a+)+$',
  '(?P<x>.*)',
  'publish',
  'draft',
  'private',
  'trash',
  'future',
  'pending',
  'any',
  'edit',
  'embed',
  'view',
  'id',
  'title',
  'date',
  'asc',
  'desc',
  'include',
  '1,2,3',
  '2026-11-21 10:00:00',
  '2026-02-30T25:61:61',
  '-271821-04-20',
  '9999-12-31 23:59:59',
  'administrator',
  '__proto__',
  'constructor.prototype',
  '__proto__.principal',
  'constructor.entries',
] as const;

/** Numbers past every range a column, a JavaScript number or a page count allows, as text. */
const HUGE_NUMBER_TEXT = ['9223372036854775808', '-9223372036854775809', '18446744073709551616', '1e21', '1e309', '-1e309', '9'.repeat(400), '0x7fffffff', '1_000', '00000000000000000001'];

/** A word list longer than any search should work through. */
const longWordList = fc.integer({ min: 50, max: 5_000 }).map((n) => Array.from({ length: n }, (_, i) => `w${i}`).join(' '));

/** Text of a size that matters: long, repeated markup, repeated separators. */
const hugeText = fc.oneof(
  fc.constantFrom(10_000, 100_000, 400_000).map((n) => 'a'.repeat(n)),
  fc.constantFrom(20_000, 200_000).map((n) => '<'.repeat(n)),
  fc.constantFrom(20_000, 100_000).map((n) => '-'.repeat(n)),
  fc.constantFrom(10_000, 50_000).map((n) => '1,'.repeat(n)),
  fc.constantFrom(5_000, 30_000).map((n) => '&amp;'.repeat(n)),
  fc.constantFrom(5_000, 20_000).map((n) => 'é\u0301'.repeat(n)),
  // Runs of white space (or of one character) inside a text: patterns like `\s*,` and `[ …]+$` are retried from
  // every character of a run that the expected character does not follow.
  fc.tuple(fc.constantFrom(' ', '\n', '\t', '+', '.', '*', ' \n'), fc.constantFrom(20_000, 100_000)).map(([c, n]) => `a${c.repeat(n)}a`),
);

/** One hostile string: small ones often, big ones sometimes. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...MEANINGFUL) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
  { weight: 2, arbitrary: loneSurrogates },
  { weight: 2, arbitrary: fc.constantFrom(...HUGE_NUMBER_TEXT) },
  { weight: 1, arbitrary: longWordList },
  { weight: 1, arbitrary: hugeText },
);

/** Numbers JSON can carry that no field expects. */
const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, 2 ** 31, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e21, 1e308, -1e308, Number.MIN_VALUE),
);

/** A JSON value, as text: lets one object carry a key twice, or `__proto__` as a real key, or `1e999`. */
export type JsonText = string;

/** Keys of objects in generated values: the ones routes read, plus the prototype keys. */
export function jsonValue(keys: readonly string[]): fc.Arbitrary<JsonText> {
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) }, { weight: 1, arbitrary: hostileString.filter((s) => s.length < 64) });
  const { value } = fc.letrec<{ value: JsonText }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      hostileString.map(jsonString),
      hostileNumber.map((n) => JSON.stringify(n)),
      fc.constantFrom('true', 'false', 'null', '1e999', '-1e999', '123456789012345678901234567890', '-0'),
      fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
      fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }).map(jsonObject),
      deepNesting,
      bigList,
    ),
  }));
  return value;
}

/** JSON string literal, keeping lone surrogates as `\uD800` escapes (JSON.stringify does the same). */
function jsonString(text: string): string {
  return JSON.stringify(text);
}

/** An object from pairs, in order, duplicates kept: what the wire can say and JSON.stringify cannot. */
export function jsonObject(pairs: ReadonlyArray<readonly [string, JsonText]>): JsonText {
  return `{${pairs.map(([k, v]) => `${jsonString(k)}:${v}`).join(',')}}`;
}

/** Arrays or objects nested far deeper than any real document. */
const deepNesting: fc.Arbitrary<JsonText> = fc
  .tuple(fc.constantFrom(100, 1_000, 5_000, 50_000), fc.constantFrom('[', '{"a":', '{"__proto__":'))
  .map(([depth, open]) => open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth));

/** Lists of ids or numbers far longer than a page. */
const bigList: fc.Arbitrary<JsonText> = fc.constantFrom(1_000, 20_000, 150_000).map((n) => `[${Array.from({ length: n }, (_, i) => i + 1).join(',')}]`);

/** Bodies that are not JSON although they say so. */
export const badJson = fc.constantFrom('{', '{"a":', '[1,2', '{"a":1,}', "{'a':1}", 'nul', '\u0000', '{"a":"\\uD800"}', '{"a":"\\u00"}', '"\\', '\uFEFF{}', '1'.repeat(5000), ']'.repeat(10_000));

/** Percent-encodes text as UTF-8 (a lone surrogate becomes U+FFFD, as a browser would send it). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Escapes that are not valid percent-encoding or not valid UTF-8 once decoded, sent as they are. */
export const rawEscapes = fc.constantFrom('%', '%zz', '%E4%B8', '%ED%A0%80', '%C0%AF', '%FF', '%00', '%%', '%2', '%u0041', '%F0%9F%98');

/** A query-string key: names routes read, PHP's bracket syntax and prototype keys. */
function queryKey(names: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names).map(percentEncode) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS).map(percentEncode) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...names, ...PROTOTYPE_KEYS), fc.array(fc.constantFrom('', '0', '__proto__', 'constructor', 'prototype', 'a', '999999999'), { minLength: 1, maxLength: 4 }))
        .map(([name, path]) => percentEncode(name) + path.map((p) => `%5B${percentEncode(p)}%5D`).join('')),
    },
    { weight: 1, arbitrary: rawEscapes },
  );
}

/** A query-string value: any hostile string, or a raw broken escape. */
const queryValue: fc.Arbitrary<string> = fc.oneof({ weight: 6, arbitrary: hostileString.map(percentEncode) }, { weight: 1, arbitrary: rawEscapes });

/** A query string with repeated keys allowed, keys without values, and `&&` noise. */
export function queryString(names: readonly string[], maxPairs = 6): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof({ weight: 8, arbitrary: fc.tuple(queryKey(names), queryValue).map(([k, v]) => `${k}=${v}`) }, { weight: 1, arbitrary: queryKey(names) }, { weight: 1, arbitrary: fc.constant('') }), { maxLength: maxPairs })
    .map((pairs) => pairs.join('&'));
}
