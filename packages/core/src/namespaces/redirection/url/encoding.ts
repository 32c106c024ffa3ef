/*
 * PHP's URL encoding functions as Redirection uses them, on UTF-8 bytes. JavaScript strings are text, so a
 * decoding that yields bytes which are not UTF-8 is reported (null) and callers keep the undecoded form.
 */

const HEX = '0123456789ABCDEF';
const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** TextEncoder writes an unpaired surrogate as U+FFFD, which is what a well-formed copy would hold. */
/** PHP `rawurlencode`: everything but `A-Z a-z 0-9 - _ . ~` as `%XX` of its UTF-8 bytes. */
export function rawUrlEncode(text: string): string {
  let out = '';
  for (const byte of encoder.encode(text)) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(ch)) out += ch;
    else out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

function decodeBytes(text: string, plus: boolean): string | null {
  if (!text.includes('%') && !(plus && text.includes('+'))) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (plus && ch === '+') {
      bytes.push(0x20);
    } else {
      for (const byte of encoder.encode(ch)) bytes.push(byte);
    }
  }
  try {
    return decoder.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

/** PHP `rawurldecode`; null when the bytes are not UTF-8. */
export function rawUrlDecodeStrict(text: string): string | null {
  return decodeBytes(text, false);
}

/** PHP `rawurldecode`, keeping `%XX` sequences that would not form UTF-8 text. */
export function rawUrlDecode(text: string): string {
  return decodeBytes(text, false) ?? text;
}

/** PHP `urldecode` (`+` is a space), keeping the text as it was when it would not be UTF-8. */
export function urlDecode(text: string): string {
  return decodeBytes(text, true) ?? text;
}

/** PHP `urlencode`: like rawurlencode, but a space is `+` and `~` is encoded. */
export function urlEncode(text: string): string {
  return rawUrlEncode(text).replace(/%20/g, '+').replace(/~/g, '%7E');
}

/** Removes everything from the first CR, LF or TAB on, and control characters (Redirection's URL cleaning). */
export function cleanUrlText(text: string): string {
  // Printable ASCII holds no line break and no control character: the common case costs one test.
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  return text.replace(/[\r\n\t][\s\S]*$/, '').replace(/[^\P{C}\s]/gu, '');
}
