import { parse as parseCsv } from 'csv-parse/sync';
import { intval, isPlainObject } from '../../../http/php.js';
import { LIMITS } from '../constants.js';
import { rawUrlDecode } from '../url/encoding.js';

/** One redirect read from a file, before it is sanitised like any redirect created through the API. */
interface ImportedRedirect {
  body: Record<string, unknown>;
  /** JSON files: the group of the file this redirect belongs to. */
  fileGroup?: number;
}

export interface ParsedImport {
  groups: Array<{ ref: number; name: string; moduleId: number; enabled: boolean }>;
  redirects: ImportedRedirect[];
}

export class ImportError extends Error {}

/** Status codes WordPress has a text for (get_status_header_desc): a CSV code column outside them means 301. */
const KNOWN_CODES = new Set([100, 101, 102, 103, 200, 201, 202, 203, 204, 205, 206, 207, 226, 300, 301, 302, 303, 304, 305, 306, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 418, 421, 422, 423, 424, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511]);

function csvRows(text: string, delimiter: string): string[][] {
  try {
    return parseCsv(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true, max_record_size: 5000 }) as string[][];
  } catch (error) {
    throw new ImportError(`the CSV could not be read (${(error as Error).message.split('\n')[0]})`);
  }
}

function csvRedirects(rows: string[][], enabled: boolean): ImportedRedirect[] {
  const out: ImportedRedirect[] = [];
  for (const row of rows) {
    if (row.length < 2) continue;
    const [source = '', target = '', regexCell, codeCell] = row.map((cell) => cell.trim());
    if (source.toLowerCase() === 'source' || target.toLowerCase() === 'target') continue;
    if (source === '' || source === target) continue;
    const regex = regexCell === undefined ? /[()[\]$^*]/.test(source) : regexCell === '1';
    // Redirection's get_valid_code: PHP's intval of the cell, so "3.07e2" is 307 as "307" is.
    const parsedCode = intval(codeCell ?? '');
    const code = KNOWN_CODES.has(parsedCode) ? parsedCode : 301;
    const error = code > 400 && code < 500;
    out.push({
      body: {
        url: source,
        action_data: { url: target },
        regex,
        action_code: code,
        action_type: error ? 'error' : 'url',
        match_type: 'url',
        status: enabled ? 'enabled' : 'disabled',
      },
    });
  }
  return out;
}

/** CSV: `,` then `;` then `|`, the first separator that yields redirects wins. */
export function parseCsvFile(text: string, groupEnabled: boolean): ParsedImport {
  let failure: ImportError | null = null;
  for (const delimiter of [',', ';', '|']) {
    try {
      const redirects = csvRedirects(csvRows(text, delimiter), groupEnabled);
      if (redirects.length) return { groups: [], redirects };
    } catch (error) {
      failure ??= error as ImportError;
    }
  }
  if (failure) throw failure;
  return { groups: [], redirects: [] };
}

/** Redirection's JSON export: its groups become new groups, its redirects keep everything but their ids. */
export function parseJsonFile(text: string): ParsedImport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ImportError('the JSON could not be read');
  }
  if (!isPlainObject(data)) throw new ImportError('the JSON is not a Redirection export');
  const groups: ParsedImport['groups'] = [];
  const known = new Set<number>();
  for (const group of Array.isArray(data.groups) ? data.groups.slice(0, 10_000) : []) {
    if (!isPlainObject(group)) continue;
    const ref = Number(group.id);
    if (!Number.isInteger(ref) || known.has(ref)) continue;
    known.add(ref);
    const moduleId = Number(group.module_id);
    groups.push({ ref, name: String(group.name ?? 'Group').slice(0, LIMITS.groupName), moduleId: [1, 2, 3].includes(moduleId) ? moduleId : 1, enabled: group.enabled !== false });
  }
  const redirects: ImportedRedirect[] = [];
  for (const item of Array.isArray(data.redirects) ? data.redirects : []) {
    if (!isPlainObject(item)) continue;
    const body: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(item)) if (key !== 'id' && key !== '__proto__') body[key] = value;
    if (body.match_type === 'url' && typeof body.action_data === 'string') body.action_data = { url: body.action_data };
    let ref = Number(item.group_id);
    if (!known.has(ref)) {
      // A redirect of a group the file does not have goes into a new group "Group".
      ref = -1;
      if (!known.has(-1)) {
        known.add(-1);
        groups.push({ ref: -1, name: 'Group', moduleId: 1, enabled: true });
      }
    }
    redirects.push({ body, fileGroup: ref });
  }
  return { groups, redirects };
}

/** An Apache or Nginx source pattern: plain when it is only `^path$` (with `/?` for a trailing slash), else a regex. */
function sourceOf(pattern: string, caseless: boolean): { url: string; regex: boolean; trailing: boolean } {
  const body = pattern.replace(/^\^/, '').replace(/\$$/, '');
  const trailing = body.endsWith('/?');
  const plain = (trailing ? body.slice(0, -2) : body).replace(/\\\./g, '.');
  if (!/[()[\]$^?+*|{}\\]/.test(plain)) {
    const decoded = rawUrlDecode(plain);
    return { url: decoded.startsWith('/') ? decoded : `/${decoded}`, regex: false, trailing };
  }
  const rest = pattern.startsWith('^') ? pattern.slice(1) : pattern;
  void caseless;
  return { url: `${pattern.startsWith('^') ? '^' : ''}/${rest.replace(/^\//, '')}`, regex: true, trailing: false };
}

function apacheCode(word: string): number {
  const w = word.toLowerCase();
  if (/^\d{3}$/.test(w)) return Number(w);
  if (w === 'permanent') return 301;
  if (w === 'temp') return 302;
  if (w === 'seeother') return 303;
  if (w === 'gone') return 410;
  return 302;
}

/** `.htaccess`: RewriteRule (with RewriteCond on the query or host), Redirect and RedirectMatch lines. */
export function parseApacheFile(text: string): ParsedImport {
  const redirects: ImportedRedirect[] = [];
  let query: string | null = null;
  let host: string | null = null;
  let skip = false;
  for (const rawLine of text.replace(/\\ /g, '%20').split(/[\r\n]+/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#') || line.startsWith('<')) continue;
    const parts = line.split(/\s+/);
    const directive = parts[0]!.toLowerCase();
    if (directive === 'rewritecond') {
      const [, variable = '', value = ''] = parts;
      if (variable === '%{QUERY_STRING}') query = value.replace(/^\^/, '').replace(/\$$/, '');
      else if (variable === '%{HTTP_HOST}') host = value.replace(/^\^/, '').replace(/\$$/, '').replace(/\\(.)/g, '$1');
      else skip = true;
      continue;
    }
    if (directive === 'rewriterule' && parts.length >= 3) {
      const [, pattern = '', target = '', flagText = ''] = parts;
      const flags = flagText.replace(/^\[|\]$/g, '').split(',').map((f) => f.trim().toUpperCase());
      if (!skip && pattern !== '^') {
        const source = sourceOf(pattern, flags.includes('NC'));
        const r = flags.find((f) => /^R(=\d+)?$/.test(f));
        const gone = flags.includes('G');
        const forbidden = flags.includes('F');
        const body: Record<string, unknown> = {
          url: query !== null && !source.regex ? `${source.url}?${rawUrlDecode(query.replace(/\\\./g, '.'))}` : source.url,
          match_type: host ? 'server' : 'url',
          action_type: gone || forbidden ? 'error' : r ? 'url' : 'pass',
          action_code: gone ? 410 : forbidden ? 404 : r ? Number(r.slice(2)) || 302 : 0,
          action_data: host ? { server: host, url_from: rawUrlDecode(target) } : { url: rawUrlDecode(target) },
          match_data: {
            source: {
              flag_regex: source.regex,
              flag_case: flags.includes('NC'),
              flag_trailing: source.trailing,
              flag_query: flags.includes('QSA') ? 'pass' : 'exact',
            },
          },
        };
        redirects.push({ body });
      }
      query = null;
      host = null;
      skip = false;
      continue;
    }
    if ((directive === 'redirect' || directive === 'redirectmatch') && parts.length >= 3) {
      const regex = directive === 'redirectmatch';
      const hasCode = parts.length >= 4 || /^(\d{3}|permanent|temp|seeother|gone)$/i.test(parts[1]!);
      const code = hasCode ? apacheCode(parts[1]!) : 302;
      const source = (hasCode ? parts[2] : parts[1])!.replace(/^"|"$/g, '');
      const target = (hasCode ? parts[3] : parts[2]) ?? '';
      const error = code >= 400;
      redirects.push({
        body: {
          url: rawUrlDecode(source),
          regex,
          match_type: 'url',
          action_type: error ? 'error' : 'url',
          action_code: code,
          action_data: { url: rawUrlDecode(target.replace(/^"|"$/g, '')) },
        },
      });
    }
  }
  return { groups: [], redirects };
}

/** Nginx `rewrite` lines, as the Nginx export writes them. */
export function parseNginxFile(text: string): ParsedImport {
  const redirects: ImportedRedirect[] = [];
  for (const rawLine of text.split(/[\r\n]+/)) {
    const m = /^\s*rewrite\s+(\S+)\s+(\S+)\s+(permanent|redirect);\s*$/.exec(rawLine);
    if (!m) continue;
    const [, from = '', target = '', kind = ''] = m;
    const caseless = from.startsWith('(?i)');
    const pattern = (caseless ? from.slice(4) : from).replace(/^\^/, '').replace(/\$$/, '');
    const source = sourceOf(`^${pattern}$`, caseless);
    const url = source.regex ? `^/${pattern.replace(/^\//, '')}$` : source.url;
    redirects.push({
      body: {
        url,
        match_type: 'url',
        action_type: 'url',
        action_code: kind === 'permanent' ? 301 : 302,
        action_data: { url: rawUrlDecode(target) },
        match_data: { source: { flag_regex: source.regex, flag_case: caseless, flag_trailing: false, flag_query: 'exact' } },
      },
    });
  }
  return { groups: [], redirects };
}

/**
 * Whether the file is an Nginx configuration: a line that opens a `server {` block and a line that starts with
 * `rewrite`. The space before them is read within their line: `^\s*` read on across every line break from each
 * line's start (50,000 line breaks: 3.8 s), and a match that crossed one also starts at the line after it.
 */
export function looksLikeNginx(text: string): boolean {
  return /^[^\S\n\r\u2028\u2029]*server\s*\{/m.test(text) && /^[^\S\n\r\u2028\u2029]*rewrite\s/m.test(text);
}
