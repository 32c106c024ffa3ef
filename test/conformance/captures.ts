import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One recorded exchange with a real WordPress, as stored in conformance/captures. */
export interface Capture {
  id: string;
  name: string;
  request: { method: string; path: string; auth: boolean; contentType?: string; body?: string };
  response: { status: number; headers: Array<[string, string]>; date: string; body: string };
}

const DIR = fileURLToPath(new URL('../../conformance/captures/', import.meta.url));
/** Headers of PHP's built-in server, not WordPress's. */
const SERVER_HEADERS = new Set(['host', 'date', 'connection', 'x-powered-by']);

function parse(file: string): Capture {
  const base = file.replace(/\.headers\.txt$/, '');
  const lines = readFileSync(DIR + file, 'utf8').split('\n');
  const request: Capture['request'] = { method: 'GET', path: '/', auth: false };
  const headers: Array<[string, string]> = [];
  let status = 0;
  let date = '';
  for (const line of lines) {
    if (line.startsWith('> ')) {
      const text = line.slice(2);
      const start = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+)$/.exec(text);
      if (start) [, request.method, request.path] = start as unknown as [string, string, string];
      else if (text.startsWith('auth: ')) request.auth = text !== 'auth: none';
      else if (text.startsWith('Content-Type: ')) request.contentType = text.slice(14);
      else if (text.startsWith('body: ')) request.body = text.slice(6);
    } else if (line.startsWith('< HTTP/')) {
      status = Number(line.split(' ')[2]);
    } else if (line.startsWith('< ')) {
      const colon = line.indexOf(':');
      const name = line.slice(2, colon);
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'date') date = value;
      if (!SERVER_HEADERS.has(name.toLowerCase())) headers.push([name, value]);
    }
  }
  const bodyFile = readdirSync(DIR).find((f) => f.startsWith(`${base}.`) && !f.endsWith('.headers.txt'))!;
  return {
    id: base.slice(0, 3),
    name: base.slice(4),
    request,
    response: { status, headers, date, body: readFileSync(DIR + bodyFile, 'utf8') },
  };
}

export function loadCaptures(): Capture[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.headers.txt'))
    .sort()
    .map(parse);
}
