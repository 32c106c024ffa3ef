/**
 * JSON exactly as PHP's `json_encode` writes it with WordPress's default flags: forward slashes escaped and
 * every non-ASCII character as a `\uXXXX` escape, so responses are byte-identical to the plugins'.
 */
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

function escapeChar(ch: string): string {
  return '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0');
}

export function encodeJson(value: unknown, pretty = false): string {
  let json = JSON.stringify(value === undefined ? null : value, null, pretty ? 4 : undefined);
  // A slash only ever appears inside strings in JSON, so every one can be escaped.
  if (json.includes('/')) json = json.replaceAll('/', '\\/');
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeChar) : json;
}
