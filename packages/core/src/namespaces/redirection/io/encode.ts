import { rawUrlEncode } from '../url/encoding.js';

/*
 * Red_Url_Encode: how sources and targets are written into Apache and Nginx rules. URLs are percent-encoded so
 * that no character of a stored redirect can end a directive early; regex sources keep their metacharacters.
 */

function cleaned(url: string): string {
  return url
    .replace(/[\r\n\t][\s\S]*$/, '')
    .replace(/[^\P{C}\s]/gu, '')
    .replace(/ /g, '%20')
    .replace(/%24/g, '$');
}

function replaceAll(text: string, pairs: ReadonlyArray<[string, string]>): string {
  let out = text;
  for (const [before, after] of pairs) out = out.split(before).join(after);
  return out;
}

function encodeRegex(url: string, regex: boolean): string {
  if (!regex) return url;
  const out = url.replace(/^\/+/, '').replace(/^\^\//, '^');
  // Upstream maps %5C (a backslash) to "]": the rules it writes for \d and friends carry that mistake (kept, the
  // files stay byte-compatible and load). It leaves %5D as it is, which nginx refuses in a class: restored here.
  return replaceAll(out, [
    ['%2A', '*'],
    ['%3F', '?'],
    ['%28', '('],
    ['%29', ')'],
    ['%5B', '['],
    ['%5D', ']'],
    ['%5C', ']'],
    ['%24', '$'],
    ['%2B', '+'],
    ['%7C', '|'],
    ['\\.', '.'],
  ]);
}

export function encodeAsTarget(url: string, regex = false): string {
  const encoded = replaceAll(rawUrlEncode(cleaned(url)), [
    ['%2F', '/'],
    ['%3F', '?'],
    ['%3A', ':'],
    ['%3D', '='],
    ['%26', '&'],
    ['%25', '%'],
    ['+', '%20'],
    ['%24', '$'],
    ['%23', '#'],
  ]);
  return encodeRegex(encoded, regex);
}

export function encodeAsSource(url: string, regex = false): string {
  const encoded = replaceAll(rawUrlEncode(cleaned(url)), [
    ['%2F', '/'],
    ['%3F', '?'],
    ['+', '%20'],
    ['.', '\\.'],
  ]);
  return encodeRegex(encoded, regex);
}
