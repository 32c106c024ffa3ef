/**
 * The handful of PHP value semantics that WordPress's REST layer relies on. Clients were written against
 * them (a `per_page` of "10.0" is valid, "0" counts as empty), so they are reproduced exactly here.
 */

const NUMERIC_STRING = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP `is_numeric`: numbers and decimal numeric strings (leading/trailing white space allowed, no hex). */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && NUMERIC_STRING.test(value);
}

/** PHP `empty`: null, false, 0, 0.0, "", "0" and empty arrays are empty. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '' || value === '0') {
    return true;
  }
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/**
 * The number a string starts with, as PHP reads one when it casts a string (`is_numeric_string` allowing trailing
 * text): PHP's white space, a sign, digits with an optional fraction, an optional exponent.
 */
const LEADING_NUMBER = /^[ \t\n\r\v\f]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/;

/** The largest PHP integer (64 bits), as near as a double holds it. */
const PHP_INT_MAX = 2 ** 63 - 1;

/** PHP's `(float)` of a string: its leading number, exponent included (`"1e999"` is INF), 0 when there is none. */
export function leadingNumber(text: string): number {
  const match = LEADING_NUMBER.exec(text);
  return match ? Number(match[1]) : 0;
}

/**
 * PHP `intval` for the values a request can carry. A string is cast through its leading number, so `"2e1"` is 20
 * and `"1.9"` is 1 (PHP since 7.1); past the 64-bit bounds it saturates, and INF (`"1e999"`) is 0, as PHP's
 * `zend_dval_to_lval_cap`. An array or a keyed query value (`x[a]=1`) is 1 when it holds anything, 0 when empty.
 */
export function intval(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) + 0 : 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const n = leadingNumber(value);
    if (!Number.isFinite(n)) return 0;
    if (Math.abs(n) > PHP_INT_MAX) return n > 0 ? PHP_INT_MAX : -PHP_INT_MAX - 1;
    // + 0: "-0.5" is 0, never JavaScript's -0.
    return Math.trunc(n) + 0;
  }
  if (Array.isArray(value)) return value.length ? 1 : 0;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length ? 1 : 0;
  return 0;
}

/**
 * PHP `strval` for the values a request can carry: arrays and objects (from PHP's bracket syntax or JSON) are
 * the string "Array", as PHP casts them. Never `String(value)` on request values: the query parser's objects
 * have no prototype, and converting one to text throws.
 */
export function strval(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined || value === false) return '';
  if (value === true) return '1';
  if (typeof value === 'object') return 'Array';
  return String(value);
}

/**
 * The prototype of objects built from request values (query strings, form bodies, sanitized objects). It holds no
 * property a client could name — no `__proto__` accessor, no `constructor`, no `toString` — and is frozen; its one
 * member makes the object read as PHP reads an array in a string or number context ("Array"), where an object
 * without any prototype would throw a TypeError and turn a hostile request into a 500.
 */
const REQUEST_OBJECT_PROTOTYPE: object = Object.freeze(
  Object.create(null, { [Symbol.toPrimitive]: { value: () => 'Array', enumerable: false } }) as object,
);

/** A new empty object for request values (see REQUEST_OBJECT_PROTOTYPE): no key a client sends reaches a prototype. */
export function requestObject<T = unknown>(): Record<string, T> {
  return Object.create(REQUEST_OBJECT_PROTOTYPE) as Record<string, T>;
}

/**
 * Gives every prototype-less object inside a parsed request value (as `qs` builds them) the request-object
 * prototype, in place. Parsed values are bounded in depth and count before this runs, so the walk is linear.
 */
export function adoptRequestObjects(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (const item of value) adoptRequestObjects(item);
    return value;
  }
  if (Object.getPrototypeOf(value) === null) Object.setPrototypeOf(value, REQUEST_OBJECT_PROTOTYPE);
  for (const key of Object.keys(value)) adoptRequestObjects((value as Record<string, unknown>)[key]);
  return value;
}

/** PHP `floatval`. */
export function floatval(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    // PHP gives INF for "1e999"; nothing downstream takes a non-finite number, so it reads as 0 here.
    const n = leadingNumber(value);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/** WordPress `absint`. */
export function absint(value: unknown): number {
  return Math.abs(intval(value));
}

/** WordPress `rest_is_integer`. */
export function isWholeNumber(value: unknown): boolean {
  if (!isNumeric(value)) return false;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  return Math.round(n) === n;
}

/** WordPress `rest_is_boolean`. */
export function isBooleanLike(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return ['false', 'true', '0', '1'].includes(value.toLowerCase());
  if (typeof value === 'number') return value === 0 || value === 1;
  return false;
}

/** WordPress `rest_sanitize_boolean`: "false"/"0" (any case) are false, every other non-empty value true. */
export function toBoolean(value: unknown): boolean {
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'false' || lower === '0') return false;
    return lower !== '';
  }
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

/** WordPress `wp_parse_list`: scalars are split on commas and white space; arrays pass through. */
export function parseList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>);
  return String(value)
    .split(/[\s,]+/)
    .filter((part) => part !== '');
}

/** WordPress `wp_parse_id_list`: unique absolute integers. */
export function parseIdList(value: unknown): number[] {
  return [...new Set(parseList(value).map(absint))];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** The characters PHP's `trim()` strips without a character list (not Unicode spaces, unlike String#trim). */
export const PHP_TRIM_CHARS = ' \t\n\r\0\x0B';

/**
 * PHP `trim($text, $chars)` for a plain list of characters (no `a..z` ranges); `chars` defaults to PHP's
 * " \t\n\r\0\x0B". A loop, not a regex: `[…]+$` is retried from every character of a long run that does not end
 * the text, quadratic in its length (100,000 spaces inside a form field took 9 s).
 */
export function phpTrim(text: string, chars = PHP_TRIM_CHARS): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * `preg_split('/\s*,\s*\/', $text)` (with JavaScript's `\s`): the text cut at each comma, with the white space
 * next to the commas dropped. Split first, then trimmed: the pattern is retried from every character of a run of
 * white space that no comma follows, quadratic in its length.
 */
export function splitAtCommas(text: string): string[] {
  const parts = text.split(',');
  const last = parts.length - 1;
  if (last === 0) return parts;
  return parts.map((part, index) => (index === 0 ? part.trimEnd() : index === last ? part.trimStart() : part.trim()));
}

/**
 * PHP `rtrim($text, '/')`: the text without the slashes that end it. A loop: `/\/+$/` is retried from every slash
 * of a run that does not end the text, quadratic in its length (a request path of 30,000 slashes took 1.7 s).
 */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return end === text.length ? text : text.slice(0, end);
}
