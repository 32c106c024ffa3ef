import qs from 'qs';
import { adoptRequestObjects, requestObject } from './php.js';

const PERCENT_BYTE = /%([0-9a-fA-F]{2})/g;

/**
 * PHP's `urldecode`, which never fails: `+` is a space, each valid `%XX` one byte, anything else (a lone `%`,
 * `%zz`) kept as written. The bytes are then read as UTF-8, a sequence that is not (a cut-off character) becoming
 * U+FFFD — PHP would keep the raw bytes, which a JavaScript string cannot hold. decodeURIComponent instead throws
 * on all of these. Linear.
 */
export function phpUrlDecode(text: string): string {
  const plain = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!plain.includes('%')) return plain;
  const bytes: Buffer[] = [];
  let from = 0;
  for (const match of plain.matchAll(PERCENT_BYTE)) {
    if (match.index > from) bytes.push(Buffer.from(plain.slice(from, match.index), 'utf8'));
    bytes.push(Buffer.from([Number.parseInt(match[1]!, 16)]));
    from = match.index + match[0].length;
  }
  if (from < plain.length) bytes.push(Buffer.from(plain.slice(from), 'utf8'));
  return Buffer.concat(bytes).toString('utf8');
}

/**
 * Query strings and urlencoded bodies parsed as PHP does: `a[]=1&a[]=2` is a list, `v[city]=x` an object,
 * a repeated plain key keeps its last value, and any percent sequence decodes (see {@link phpUrlDecode}).
 * Objects have the request-object prototype (nothing a client can name), so no key a client sends can reach one.
 */
export function parseFormString(input: string): Record<string, unknown> {
  if (!input) return requestObject();
  const parsed = qs.parse(input, {
    depth: 5,
    arrayLimit: 1000,
    parameterLimit: 5000,
    duplicates: 'last',
    allowPrototypes: false,
    plainObjects: true,
    decoder: (text) => phpUrlDecode(text),
  });
  return adoptRequestObjects(parsed) as Record<string, unknown>;
}
