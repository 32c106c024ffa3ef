import { specialChars } from '../../../text/sanitize.js';

/*
 * WordPress escaping helpers as TEC applies them to JSON-LD values (wp-includes/formatting.php).
 */

/** `esc_html`: `&`, `<`, `>`, `"` and `'` escaped; existing entities are not double-encoded. */
export function escHtml(text: string): string {
  return specialChars(text).replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/**
 * `esc_js`: HTML special characters escaped (double quotes too, single quotes restored), backslashes stripped
 * then single quotes and backslashes slashed, `\r` dropped and each newline written as the two characters `\n`.
 */
export function escJs(text: string): string {
  let safe = specialChars(text).replace(/"/g, '&quot;');
  safe = stripSlashes(safe).replace(/&#(x)?0*(?:27|39);?/gi, (match, hex: string | undefined) => {
    // `&#39;` and `&#x27;` become a quote again; `&#x39;`/`&#27;` (other characters) are left alone.
    const digits = match.replace(/^&#x?0*/i, '').replace(/;$/, '');
    return (hex ? digits === '27' : digits === '39') ? "'" : match;
  });
  safe = safe.replace(/\r/g, '');
  return addSlashes(safe).replace(/\n/g, '\\n');
}

/** PHP `stripslashes`: `\x` → `x`, `\\` → `\`. */
function stripSlashes(text: string): string {
  return text.replace(/\\(.?)/gs, (_, ch: string) => (ch === '0' ? '\0' : ch));
}

/** PHP `addslashes`: backslash before `'`, `"`, `\` and NUL. */
function addSlashes(text: string): string {
  return text.replace(/[\\'"\0]/g, (ch) => (ch === '\0' ? '\\0' : `\\${ch}`));
}

const URL_ALLOWED = /[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi;

/**
 * `esc_url` for ordinary http(s) URLs: spaces encoded, characters outside WordPress's allowed set dropped, a
 * missing scheme becomes `http://`; in display context (the default) `&` is written `&#038;` and `'` `&#039;`,
 * in `db` context (`esc_url_raw`) they are kept. Protocol allow-listing is not reproduced.
 */
export function escUrl(url: string, context: 'display' | 'db' = 'display'): string {
  let out = url.replace(/^[ \t\n\r\0\x0B]+/, '').replace(/ /g, '%20').replace(URL_ALLOWED, '');
  if (out === '') return '';
  out = out.replace(/%0[da]/gi, '').replace(/;\/\//g, '://');
  if (!out.includes(':') && !/^[/#?]/.test(out) && !/^[a-z0-9-]+?\.php/i.test(out)) out = `http://${out}`;
  if (context === 'db') return out;
  out = out.replace(/&(?!#(?:\d+|x[a-f0-9]+);|[a-z][a-z\d]*;)/gi, '&amp;');
  return out.replace(/&amp;/g, '&#038;').replace(/'/g, '&#039;');
}
