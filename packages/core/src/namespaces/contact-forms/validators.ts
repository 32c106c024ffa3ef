import { decodeHTML } from 'entities';
import { isNumeric, PHP_TRIM_CHARS, phpTrim } from '../../http/php.js';

/*
 * The input checks Contact Form 7 applies (includes/validation-functions.php), written as linear scans where
 * the PHP uses backtracking regular expressions.
 */

const LOCAL_PART = /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const DOMAIN_LABEL = /^[a-z0-9-]+$/i;

/** WordPress `is_email`. */
export function isEmail(email: string): boolean {
  if (Buffer.byteLength(email) < 6) return false;
  const at = email.indexOf('@', 1);
  if (at === -1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!LOCAL_PART.test(local)) return false;
  if (domain.includes('..')) return false;
  if (phpTrim(domain, `${PHP_TRIM_CHARS}.`) !== domain) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => phpTrim(label, `${PHP_TRIM_CHARS}-`) === label && DOMAIN_LABEL.test(label));
}

const HOSTNAME_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])$/;

function validHost(host: string): boolean {
  if (host.startsWith('[') && host.endsWith(']')) return /^[0-9a-f:.]+$/i.test(host.slice(1, -1)) && host.includes(':');
  if (IPV4.test(host)) return true;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name.length > 0 && name.length <= 253 && name.split('.').every((label) => HOSTNAME_LABEL.test(label));
}

/** PHP `filter_var( $url, FILTER_VALIDATE_URL )`: ASCII only, a scheme, and a valid host where one is needed. */
export function isUrl(url: string): boolean {
  if (!/^[\x21-\x7e]+$/.test(url)) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (!scheme) return false;
  const name = scheme[1]!.toLowerCase();
  const rest = url.slice(scheme[0].length);
  if (!rest.startsWith('//')) return name === 'mailto' || name === 'news' || name === 'file' ? rest.length > 0 : false;
  const authorityEnd = rest.slice(2).search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest.slice(2) : rest.slice(2, 2 + authorityEnd);
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const portMatch = /:([0-9]*)$/.exec(hostPort);
  const host = portMatch && !hostPort.endsWith(']') ? hostPort.slice(0, portMatch.index) : hostPort;
  if (portMatch && portMatch[1] !== '' && Number(portMatch[1]) > 65535) return false;
  if (host === '') return name === 'file';
  if (name === 'http' || name === 'https') return validHost(host);
  return true;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * `wpcf7_is_tel`: an optional `+`, then digit groups (`0123` or `(0123)`) separated by any run of `/`, space
 * and `-` — scanned in one pass instead of the PHP pattern's nested quantifiers.
 */
export function isTel(tel: string): boolean {
  const s = phpTrim(tel);
  let i = s[0] === '+' ? 1 : 0;
  for (;;) {
    if (s[i] === '(') {
      i++;
      if (!isDigit(s[i])) return false;
      while (isDigit(s[i])) i++;
      if (s[i] !== ')') return false;
      i++;
    } else if (isDigit(s[i])) {
      while (isDigit(s[i])) i++;
    } else {
      return false;
    }
    if (i === s.length) return true;
    while (s[i] === '/' || s[i] === ' ' || s[i] === '-') i++;
    if (i === s.length) return false;
  }
}

/** `wpcf7_is_number`: PHP `is_numeric`. */
export function isNumber(value: string): boolean {
  return isNumeric(value);
}

/** `wpcf7_is_date`: `YYYY-MM-DD` naming a real day. */
export function isDate(value: string): boolean {
  const m = /^([0-9]{4,})-([0-9]{2})-([0-9]{2})$/.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || year > 32767 || month < 1 || month > 12 || day < 1) return false;
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= days[month - 1]!;
}

/** PHP `html_entity_decode( $text, ENT_QUOTES | ENT_HTML5 )`. */
export function decodeEntities(text: string): string {
  return text.includes('&') ? decodeHTML(text) : text;
}

/**
 * `wpcf7_canonicalize`: entities decoded, full-width forms folded (PHP's mb_convert_kana `asKV`, here Unicode
 * NFKC), white space collapsed, lower-cased unless `as-is`, trimmed.
 */
export function canonicalize(text: string, options: { strto?: 'lower' | 'as-is' } = {}): string {
  let out = decodeEntities(text).normalize('NFKC').replace(/[\r\n\t ]+/g, ' ');
  if ((options.strto ?? 'lower') === 'lower') out = out.toLowerCase();
  return phpTrim(out);
}

/** `wpcf7_is_mailbox_list`: comma-separated `addr` or `Name <addr>`, quoted strings allowed; the addresses or null. */
export function mailboxList(text: string): string[] | null {
  const masked = text.replace(/\\["']/g, 'esc-quote').replace(/"[^"]*"|'[^']*'/g, 'quoted-string');
  const addresses: string[] = [];
  for (const part of masked.split(',')) {
    const mailbox = part.trim();
    const angle = /<([^<>]+)>$/.exec(mailbox);
    const address = angle ? angle[1]! : mailbox;
    if (!isEmail(address)) return null;
    addresses.push(address);
  }
  return addresses;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text as a database can keep it: NUL characters and unpaired surrogates (invalid UTF-8 once encoded) removed. */
export function storableText(text: string): string {
  return text.replace(/\u0000/g, '').replace(LONE_SURROGATE, '');
}
