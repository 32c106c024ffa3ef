import type { Zone } from 'luxon';
import { formatPhpDate } from '../../text/php-date.js';
import { escHtml } from '../calendar/format/escape.js';
import { stripAllTags } from '../calendar/format/excerpt.js';
import { texturize } from '../calendar/format/texturize.js';
import type { FormTag } from './form-tags/scanner.js';

/**
 * Mail-tags: `[your-name]` becomes what was posted through that field, `[_site_title]` and the other special
 * tags become facts of the site, the submission, its container post or the sender's account.
 */
export interface MailTagContext {
  /** Posted data after pipes (`label|value` resolved), by field name. */
  posted: ReadonlyMap<string, string | string[]>;
  /** Posted data as sent (`[_raw_name]`). */
  raw: ReadonlyMap<string, string | string[]>;
  tags: readonly FormTag[];
  /** File names of the uploads, per field. */
  uploads: ReadonlyMap<string, string[]>;
  site: { title: string; description: string; url: string; adminEmail: string; dateFormat: string; timeFormat: string; zone: Zone };
  submission: {
    remoteIp: string;
    userAgent: string;
    url: string;
    /** Unix seconds. */
    timestamp: number;
    invalidFields: number;
    formTitle: string;
  } | null;
  post: { id: number; slug: string; title: string; url: string; authorName: string; authorEmail: string } | null;
  user: Record<string, string> | null;
}

const NAME_START = /[a-zA-Z_]/;
const NAME_CHAR = /[0-9a-zA-Z:._-]/;
const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

interface MailTagMatch {
  start: number;
  end: number;
  escaped: boolean;
  name: string;
  values: string[];
}

/** One mail-tag at `open` (a `[`): `(\[?)\[[\t ]*(name)((?:[\t ]+"…"|[\t ]+'…')*)[\t ]*\](\]?)`. */
function matchMailTag(line: string, open: number): MailTagMatch | null {
  const doubled = line[open + 1] === '[';
  const tries = doubled ? [open + 1, open] : [open];
  for (const bracket of tries) {
    if (bracket === open && doubled) {
      // The plain form at `open` needs a name right after: `[[` can only be the escaped form.
      continue;
    }
    let i = bracket + 1;
    while (isBlank(line[i])) i++;
    if (!NAME_START.test(line[i] ?? '')) continue;
    const nameStart = i;
    while (i < line.length && NAME_CHAR.test(line[i]!)) i++;
    const name = line.slice(nameStart, i);
    const values: string[] = [];
    for (;;) {
      let j = i;
      while (isBlank(line[j])) j++;
      if (j === i) break;
      const quote = line[j];
      if (quote !== '"' && quote !== "'") break;
      const close = line.indexOf(quote, j + 1);
      if (close === -1) break;
      values.push(line.slice(j + 1, close));
      i = close + 1;
    }
    while (isBlank(line[i])) i++;
    if (line[i] !== ']') continue;
    i++;
    const trailing = line[i] === ']';
    // `[[name]]` escapes a tag; `[[name]` is a tag whose match swallows the first bracket, as upstream's does.
    if (bracket !== open && trailing) return { start: open, end: i + 1, escaped: true, name, values };
    return { start: open, end: i, escaped: false, name, values };
  }
  return null;
}

function flatJoin(value: string | string[]): string {
  return Array.isArray(value) ? value.join(', ') : value;
}

const stripSlashes = (text: string) => text.replace(/\\(.?)/g, '$1');

function corresponding(tags: readonly FormTag[], name: string): FormTag | undefined {
  return tags.find((t) => t.name === name && t.basetype !== 'count');
}

function special(name: string, html: boolean, ctx: MailTagContext): string | null {
  const n = name.replace(/^wpcf7\./, '_');
  const s = ctx.submission;
  const esc = (text: string) => (html ? escHtml(text) : text);
  switch (n) {
    case '_site_title':
      return esc(ctx.site.title);
    case '_site_description':
      return esc(ctx.site.description);
    case '_site_url':
      return ctx.site.url;
    case '_site_domain': {
      try {
        const host = new URL(ctx.site.url).hostname;
        return host.startsWith('www.') ? host.slice(4) : host;
      } catch {
        return '';
      }
    }
    case '_site_admin_email':
      return ctx.site.adminEmail;
  }
  if (!s) return null;
  switch (n) {
    case '_remote_ip':
      return s.remoteIp;
    case '_user_agent':
      return esc(s.userAgent);
    case '_url':
      return s.url;
    case '_date':
      return formatPhpDate(ctx.site.dateFormat, s.timestamp * 1000, ctx.site.zone);
    case '_time':
      return formatPhpDate(ctx.site.timeFormat, s.timestamp * 1000, ctx.site.zone);
    case '_invalid_fields':
      return String(s.invalidFields);
    case '_contact_form_title':
      return esc(s.formTitle);
  }
  if (n.startsWith('_post_')) {
    const post = ctx.post;
    if (!post) return '';
    switch (n) {
      case '_post_id':
        return String(post.id);
      case '_post_name':
        return post.slug;
      case '_post_title':
        return esc(post.title);
      case '_post_url':
        return post.url;
      case '_post_author':
        return post.authorName;
      case '_post_author_email':
        return post.authorEmail;
    }
    return null;
  }
  if (n.startsWith('_user_') && n !== '_user_agent') {
    if (!ctx.user) return '';
    const key = n.slice(1);
    const prop = ['user_login', 'user_email', 'user_url'].includes(key) ? key : key.slice(5);
    return ctx.user[prop] ?? '';
  }
  return null;
}

function fieldValue(match: MailTagMatch, html: boolean, ctx: MailTagContext): string | null {
  let field = match.name;
  let raw = false;
  let format = '';
  const rawName = /^_raw_(.+)$/.exec(field);
  if (rawName) {
    field = rawName[1]!.trim();
    raw = true;
  }
  const formatName = /^_format_(.+)$/.exec(match.name);
  if (formatName) {
    field = formatName[1]!.trim();
    format = match.values[0] ?? '';
  }
  let submitted = ctx.posted.get(field);
  if (submitted === undefined) return null;
  if (raw) submitted = ctx.raw.get(field) ?? '';
  let replaced: string | string[] = submitted;
  if (format) {
    const list = Array.isArray(replaced) ? replaced : [replaced];
    replaced = list.map((v) => (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(v) ? formatPhpDate(format, Date.parse(`${v}T00:00:00Z`), 'UTC') : v));
  }
  let text = flatJoin(replaced);
  if (html) text = texturize(escHtml(text));
  const tag = corresponding(ctx.tags, field);
  if (tag?.basetype === 'acceptance') {
    text = nonEmpty(submitted) ? 'Consented' : 'Not consented';
    let condition = tag.content || tag.values[0] || '';
    if (!html) condition = stripAllTags(condition);
    condition = condition.trim();
    if (condition) text = `${text}: ${condition}`;
  } else if (tag?.basetype === 'file') {
    const names = ctx.uploads.get(field);
    if (names?.length) text = names.join(', ');
  }
  return stripSlashes(text.trim());
}

function nonEmpty(value: string | string[]): boolean {
  return Array.isArray(value) ? value.some((v) => v !== '' && v !== '0') : value !== '' && value !== '0';
}

/**
 * `wpcf7_mail_replace_tags`, line by line; with `excludeBlank`, a line whose mail-tags all came out empty is
 * dropped.
 */
export function replaceMailTags(content: string, ctx: MailTagContext, options: { html?: boolean; excludeBlank?: boolean } = {}): string {
  const html = options.html ?? false;
  const out: string[] = [];
  for (const line of content.split('\n')) {
    let result = '';
    let cursor = 0;
    const replacedValues: string[] = [];
    let open = line.indexOf('[', cursor);
    while (open !== -1) {
      const match = matchMailTag(line, open);
      if (!match) {
        open = line.indexOf('[', open + 1);
        continue;
      }
      result += line.slice(cursor, match.start);
      if (match.escaped) {
        result += line.slice(match.start + 1, match.end - 1);
      } else {
        const value = fieldValue(match, html, ctx) ?? special(match.name, html, ctx);
        if (value === null) {
          result += line.slice(match.start, match.end);
        } else {
          result += value;
          replacedValues.push(value);
        }
      }
      cursor = match.end;
      open = line.indexOf('[', cursor);
    }
    result += line.slice(cursor);
    if (options.excludeBlank && replacedValues.length > 0 && replacedValues.every((v) => v === '')) continue;
    out.push(result);
  }
  return out.join('\n');
}

/** `filter_message`: mail-tags replaced, then every HTML tag stripped. */
export function filterMessage(message: string, ctx: MailTagContext): string {
  return stripAllTags(replaceMailTags(message, ctx));
}
