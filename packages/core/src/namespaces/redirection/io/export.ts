import type { RedirectGroupRecord, RedirectRecord } from '../../../store/redirection.js';
import { isNumeric } from '../../../http/php.js';
import { PLUGIN_VERSION } from '../constants.js';
import { effectiveFlags, type SourceFlags } from '../flags.js';
import { formatPhpDate } from '../../../text/php-date.js';
import { serializeGroup } from '../groups/serialize.js';
import { serializeRedirect, type RedirectWireContext } from '../redirects/serialize.js';
import { encodeAsSource, encodeAsTarget } from './encode.js';

export interface ExportInput {
  groups: RedirectGroupRecord[];
  redirects: RedirectRecord[];
  counts: Map<number, number>;
  wire: RedirectWireContext;
  now: number;
  /** Settings `https`: the Apache file forces HTTPS first. */
  https: boolean;
}

const rfc2822 = (ms: number) => formatPhpDate('D, d M Y H:i:s O', ms, 'UTC');

/** A CSV cell as Redirection writes it: numbers bare, text quoted with quotes doubled. */
function csvCell(value: string | number): string {
  if (typeof value === 'number' || isNumeric(value)) return String(value);
  return `"${value.replace(/"/g, '""')}"`;
}

export function exportCsv(input: ExportInput): string {
  const lines = ['source,target,regex,code,type,hits,title,status'];
  for (const r of input.redirects) {
    const url = r.actionData && typeof r.actionData.url === 'string' ? r.actionData.url : null;
    let target = url ?? (['url', 'page'].includes(r.matchType) ? '' : '/unknown');
    if (r.actionCode > 400 && r.actionCode < 500) target = '';
    lines.push(
      [csvCell(r.url), csvCell(target), r.regex ? '1' : '0', String(r.actionCode), csvCell(r.actionType), String(r.hits), csvCell(r.title ?? ''), csvCell(r.status === 'enabled' ? 'active' : 'disabled')].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** JSON as PHP pretty-prints it: four spaces, slashes as they are, non-ASCII as \u escapes. */
function phpPrettyJson(value: unknown): string {
  return JSON.stringify(value, null, 4).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function exportJson(input: ExportInput): string {
  const data = {
    plugin: { version: PLUGIN_VERSION, date: rfc2822(input.now) },
    groups: input.groups.map((g) => serializeGroup(g, input.counts.get(g.id) ?? 0)),
    redirects: input.redirects.map((r) => serializeRedirect(r, input.wire)),
  };
  return `${phpPrettyJson(data)}\n`;
}

function flagsOf(r: RedirectRecord, siteFlags: SourceFlags): SourceFlags {
  return effectiveFlags(r.matchData?.source, siteFlags, r.regex);
}

/** An Apache RewriteCond pattern written from text: spaces escaped so the directive keeps its arguments. */
const apacheValue = (text: string) => text.replace(/\s/g, '\\ ');
const escapeHost = (host: string) => host.replace(/[.\\+*?[^\]$(){}=!<>|:-]/g, '\\$&');

function apacheSource(r: RedirectRecord, flags: SourceFlags): { conditions: string[]; pattern: string } {
  // A regex is written as it is, without its leading slash; white space as \xNN so the directive keeps its arguments.
  if (r.regex) {
    const pattern = r.url.replace(/^\^\//, '^').replace(/^\//, '').replace(/\s/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
    return { conditions: [], pattern };
  }
  const conditions: string[] = [];
  let path = r.url;
  const q = path.indexOf('?');
  if (q !== -1) {
    // The query as Apache sees it: `=` and `&` kept (upstream writes %3D, which never matches).
    conditions.push(`RewriteCond %{QUERY_STRING} ^${encodeAsSource(path.slice(q + 1)).replace(/%3D/g, '=').replace(/%26/g, '&')}$`);
    path = path.slice(0, q);
  }
  let encoded = encodeAsSource(path).replace(/^\//, '');
  if (flags.flag_trailing) encoded = `${encoded.replace(/\/$/, '')}/?`;
  return { conditions, pattern: `^${encoded}$` };
}

function apacheRule(r: RedirectRecord, target: string, flags: SourceFlags): string | null {
  const { conditions, pattern } = apacheSource(r, flags);
  const extra: string[] = [];
  if (flags.flag_case) extra.push('NC');
  if (flags.flag_query === 'pass') extra.push('QSA');
  let rule: string;
  if (r.actionType === 'url' || r.actionType === 'random') {
    if (!target) return null;
    const encoded = encodeAsTarget(target);
    const ne = /[#%]/.test(encoded) ? ['NE'] : [];
    rule = `RewriteRule ${pattern} ${encoded} [${[`R=${r.actionCode}`, 'L', ...extra, ...ne].join(',')}]`;
  } else if (r.actionType === 'pass') {
    if (!target) return null;
    rule = `RewriteRule ${pattern} ${encodeAsTarget(target)} [${['L', ...extra].join(',')}]`;
  } else if (r.actionType === 'error') {
    rule = `RewriteRule ${pattern} / [${[r.actionCode === 410 ? 'G' : 'F', ...extra].join(',')}]`;
  } else {
    return null;
  }
  return [...conditions, rule].join('\n');
}

function apacheItem(r: RedirectRecord, siteFlags: SourceFlags): string | null {
  const flags = flagsOf(r, siteFlags);
  const data = r.actionData ?? {};
  const str = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : '');
  switch (r.matchType) {
    case 'url':
      return apacheRule(r, str('url'), flags);
    case 'server': {
      const rule = apacheRule(r, str('url_from'), flags);
      let host = '';
      try {
        host = new URL(str('server')).hostname;
      } catch {
        return null;
      }
      return rule && host ? `RewriteCond %{HTTP_HOST} ^${escapeHost(host)}$ [NC]\n${rule}` : null;
    }
    case 'referrer':
    case 'agent': {
      const variable = r.matchType === 'referrer' ? 'HTTP_REFERER' : 'HTTP_USER_AGENT';
      const value = apacheValue(str(r.matchType));
      const target = str('url_notfrom') || str('url_from');
      const rule = apacheRule(r, target, flags);
      return rule && value ? `RewriteCond %{${variable}} ${value} [NC]\n${rule}` : null;
    }
    default:
      return null;
  }
}

export function exportApache(input: ExportInput): string {
  const rules = input.redirects.filter((r) => r.status === 'enabled').map((r) => apacheItem(r, input.wire.siteFlags)).filter((r): r is string => r !== null);
  if (!rules.length && !input.https) return '\n';
  const lines = ['# Created by Redirection', `# ${rfc2822(input.now)}`, `# Redirection ${PLUGIN_VERSION} - https://redirection.me`, '', '<IfModule mod_rewrite.c>'];
  if (input.https) lines.push('RewriteCond %{HTTPS} off', 'RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [L,R=301]');
  lines.push(...rules, '</IfModule>', '', '# End of Redirection');
  return `${lines.join('\n')}\n`;
}

function nginxItem(r: RedirectRecord, siteFlags: SourceFlags): string | null {
  if (r.matchType !== 'url') return null;
  const flags = flagsOf(r, siteFlags);
  const source = encodeAsSource(r.url.replace(/^\^/, '').replace(/\$$/, ''), r.regex);
  const from = `${flags.flag_case ? '(?i)^' : '^'}${source}`;
  const target = r.actionData && typeof r.actionData.url === 'string' ? encodeAsTarget(r.actionData.url) : '';
  return `    rewrite ${from}$ ${target} ${r.actionCode === 301 ? 'permanent' : 'redirect'};`;
}

export function exportNginx(input: ExportInput): string {
  const lines = ['# Created by Redirection', `# ${rfc2822(input.now)}`, `# Redirection ${PLUGIN_VERSION} - https://redirection.me`, '', 'server {'];
  for (const r of input.redirects) {
    if (r.status !== 'enabled') continue;
    const line = nginxItem(r, input.wire.siteFlags);
    if (line) lines.push(line);
  }
  lines.push('}', '', '# End of Redirection');
  return `${lines.join('\n')}\n`;
}

