import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The recorded TEC 6.17.2 responses (conformance/captures). */
const DIR = fileURLToPath(new URL('../../../../conformance/captures/', import.meta.url));

export function captureJson<T = any>(name: string): T {
  return JSON.parse(readFileSync(`${DIR}${name}.json`, 'utf8')) as T;
}

/** The raw JSON text of a capture (to check escaping and key order on the wire). */
export function captureText(name: string): string {
  return readFileSync(`${DIR}${name}.json`, 'utf8');
}

/** The JSON request body recorded in `NNN-name.headers.txt`, if any. */
export function captureRequestBody<T = any>(name: string): T | null {
  const headers = readFileSync(`${DIR}${name}.headers.txt`, 'utf8');
  const line = headers.split('\n').find((l) => l.startsWith('> body: '));
  return line ? (JSON.parse(line.slice('> body: '.length)) as T) : null;
}

/** Our names for TEC's: the post type `tribe_events` is `cal_events`. */
export function translate<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/tribe_events/g, 'cal_events')) as T;
}
