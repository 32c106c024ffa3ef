/*
 * WordPress `antispambot()` (wp-includes/formatting.php): each byte of the address is, at random, kept as is
 * or written as a decimal entity (`&#106;`); with hex encoding a third choice is `%6a`. `@` always ends up as
 * `&#64;`. The output differs on every call, so compare addresses decoded (see `decodeAntispambot`).
 */

export type RandomSource = () => number;

/** PHP `rand(0, max)` from a [0, 1) source. */
function randInt(max: number, random: RandomSource): number {
  return Math.min(max, Math.floor(random() * (max + 1)));
}

export function antispambot(email: string, options: { hexEncoding?: boolean; random?: RandomSource } = {}): string {
  const random = options.random ?? Math.random;
  const max = options.hexEncoding ? 2 : 1;
  let out = '';
  for (const ch of email) {
    const code = ch.codePointAt(0)!;
    if (code > 0x7f) {
      // PHP works on bytes; a multi-byte character is either kept whole or written as one entity per byte so
      // the result stays valid UTF-8 (PHP could split it, which json_encode would then reject).
      const bytes = new TextEncoder().encode(ch);
      out += randInt(1, random) === 0 ? Array.from(bytes, (b) => `&#${b};`).join('') : ch;
      continue;
    }
    const choice = randInt(max, random);
    if (choice === 0) out += `&#${code};`;
    else if (choice === 1) out += ch;
    else out += `%${code.toString(16).padStart(2, '0')}`;
  }
  return out.split('@').join('&#64;');
}

/** Undoes `antispambot` (decimal/hex entities and `%xx` escapes), for comparisons. */
export function decodeAntispambot(encoded: string): string {
  const bytes: number[] = [];
  const re = /&#(x[0-9a-f]+|\d+);|%([0-9a-f]{2})|([\s\S])/gi;
  for (const m of encoded.matchAll(re)) {
    if (m[1] !== undefined) {
      const value = m[1][0]!.toLowerCase() === 'x' ? parseInt(m[1].slice(1), 16) : parseInt(m[1], 10);
      if (value <= 0xff) bytes.push(value);
      else bytes.push(...new TextEncoder().encode(String.fromCodePoint(value)));
    } else if (m[2] !== undefined) {
      bytes.push(parseInt(m[2], 16));
    } else {
      bytes.push(...new TextEncoder().encode(m[3]!));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
