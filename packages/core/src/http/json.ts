/**
 * JSON exactly as PHP's `json_encode` writes it with WordPress's default flags: forward slashes escaped and
 * every non-ASCII character as a `\uXXXX` escape, so responses are byte-identical to the plugins'.
 */
const NEEDS_ESCAPE = /[/\u0080-\uffff]/;
const ESCAPE_ALL = /[/\u0080-\uffff]/g;

function escapeChar(ch: string): string {
  if (ch === '/') return '\\/';
  return '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0');
}

export function encodeJson(value: unknown, pretty = false): string {
  const json = JSON.stringify(value === undefined ? null : value, null, pretty ? 4 : undefined);
  return NEEDS_ESCAPE.test(json) ? json.replace(ESCAPE_ALL, escapeChar) : json;
}
