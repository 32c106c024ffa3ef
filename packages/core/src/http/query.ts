import qs from 'qs';
import { adoptRequestObjects, requestObject } from './php.js';

/** The value of a hexadecimal digit's character code, or -1. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/**
 * PHP's `urldecode`, which never fails: `+` is a space, each valid `%XX` one byte, anything else (a lone `%`,
 * `%zz`) kept as written. The bytes are then read as UTF-8, a sequence that is not (a cut-off character) becoming
 * U+FFFD — PHP would keep the raw bytes, which a JavaScript string cannot hold. decodeURIComponent instead throws
 * on all of these. Linear, into one buffer: a buffer per escaped byte made a value of 100,000 escapes (300 KB of
 * form body) cost about 100 ms.
 */
export function phpUrlDecode(text: string): string {
  const plain = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  let at = plain.indexOf('%');
  if (at === -1) return plain;
  // Each escape is three characters for one byte, and the rest is written as UTF-8: never more than the whole.
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(plain, 'utf8'));
  let length = 0;
  let from = 0;
  for (; at !== -1; at = plain.indexOf('%', at + 1)) {
    const high = hexDigit(plain.charCodeAt(at + 1));
    const low = high === -1 ? -1 : hexDigit(plain.charCodeAt(at + 2));
    if (low === -1) continue;
    if (at > from) length += bytes.write(plain.slice(from, at), length, 'utf8');
    bytes[length++] = high * 16 + low;
    from = at + 3;
    at += 2;
  }
  if (from < plain.length) length += bytes.write(plain.slice(from), length, 'utf8');
  return bytes.toString('utf8', 0, length);
}

/** Most pairs read from one query string or form body (as PHP's max_input_vars, more generously). */
const PARAMETER_LIMIT = 5000;

/** What makes a key a path for qs (`a[b]`): brackets, written or percent-encoded. */
const BRACKETS = /[[\]]|%5[bd]/i;

/**
 * Query strings and urlencoded bodies parsed as PHP does: `a[]=1&a[]=2` is a list, `v[city]=x` an object,
 * a repeated plain key keeps its last value, and any percent sequence decodes (see {@link phpUrlDecode}).
 * Objects have the request-object prototype (nothing a client can name), so no key a client sends can reach one.
 * Flat pairs (no bracket anywhere, as almost every query string) are read directly, as qs would read them.
 */
export function parseFormString(input: string): Record<string, unknown> {
  if (!input) return requestObject();
  return BRACKETS.test(input) ? parseNestedForm(input) : parseFlatForm(input);
}

/** Any query string or form body, read with qs. */
export function parseNestedForm(input: string): Record<string, unknown> {
  const parsed = qs.parse(input, {
    depth: 5,
    arrayLimit: 1000,
    parameterLimit: PARAMETER_LIMIT,
    duplicates: 'last',
    allowPrototypes: false,
    plainObjects: true,
    decoder: (text) => phpUrlDecode(text),
  });
  return adoptRequestObjects(parsed) as Record<string, unknown>;
}

/**
 * A query string without brackets, read as {@link parseNestedForm} reads it (a test holds the two to the same
 * answers): pairs split on `&` up to the limit, at the first `=`, both sides decoded; an empty key is skipped, as
 * is `__proto__` (qs never sets it), and a repeated key keeps its last value.
 */
function parseFlatForm(input: string): Record<string, unknown> {
  const out = requestObject<string>();
  const pairs = input.split('&', PARAMETER_LIMIT);
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index]!;
    const equals = pair.indexOf('=');
    const key = phpUrlDecode(equals === -1 ? pair : pair.slice(0, equals));
    if (!key || key === '__proto__') continue;
    out[key] = equals === -1 ? '' : phpUrlDecode(pair.slice(equals + 1));
  }
  return out;
}
