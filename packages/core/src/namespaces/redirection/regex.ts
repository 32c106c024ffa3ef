import { RE2JS } from 're2js';
import { LIMITS } from './constants.js';

/*
 * Regex redirects run on RE2 (re2js, a linear-time engine): no pattern, however hostile, can stall a request.
 * Patterns are Redirection's PCRE; what RE2 cannot express (backreferences, lookahead) does not compile and,
 * as in Redirection, a pattern that does not compile never matches. Patterns are tested unanchored, with dot-all
 * and, when the redirect ignores case, case-insensitively.
 */

export interface CompiledPattern {
  test(text: string): boolean;
  /** PHP preg_replace: every match replaced, `$n`, `${n}` and `\n` naming groups; the text unchanged on failure. */
  replace(text: string, replacement: string): string;
  /** Lower-cased texts every match contains (the matcher's pre-filter); empty when none is known. */
  readonly literals: readonly string[];
}

const cache = new Map<string, CompiledPattern | null>();
const CACHE_LIMIT = 20_000;

/** Compiles a pattern; null when it does not compile (or is longer than the limit). Compilations are shared. */
export function compilePattern(pattern: string, ignoreCase: boolean): CompiledPattern | null {
  const key = `${ignoreCase ? 'i' : 's'}${pattern}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const compiled = compile(pattern, ignoreCase);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

function compile(pattern: string, ignoreCase: boolean): CompiledPattern | null {
  if (pattern.length > LIMITS.pattern) return null;
  let flags = RE2JS.DOTALL;
  if (ignoreCase) flags |= RE2JS.CASE_INSENSITIVE;
  if (/\(\?<[=!]/.test(pattern)) flags |= RE2JS.LOOKBEHINDS;
  let re: RE2JS;
  try {
    // PHP writes named groups (?P<name>…) and (?<name>…); RE2 reads both.
    re = RE2JS.compile(pattern, flags);
  } catch {
    return null;
  }
  // Linear time is not enough when the program is huge: such patterns count as not compiling.
  if (re.programSize() > LIMITS.programSize) return null;
  const groupCount = re.groupCount();
  return {
    literals: requiredLiterals(pattern),
    test: (text) => {
      // Texts longer than any URL a redirect is made for are not searched (the cost stays bounded).
      if (text.length > LIMITS.url) return false;
      try {
        return re.matcher(text).find();
      } catch {
        return false;
      }
    },
    replace: (text, replacement) => {
      if (text.length > LIMITS.url) return text;
      try {
        const parts = parseReplacement(replacement);
        const matcher = re.matcher(text);
        let out = '';
        let last = 0;
        let guard = text.length + 1;
        while (guard-- > 0 && matcher.find()) {
          out += text.slice(last, matcher.start());
          for (const part of parts) {
            if (typeof part === 'string') out += part;
            else if (part <= groupCount) out += matcher.group(part) ?? '';
          }
          last = matcher.end();
        }
        return out + text.slice(last);
      } catch {
        return text;
      }
    },
  };
}

/** A PHP replacement string as literal parts and group numbers. */
function parseReplacement(replacement: string): Array<string | number> {
  const parts: Array<string | number> = [];
  let literal = '';
  const flush = () => {
    if (literal) parts.push(literal);
    literal = '';
  };
  const reference = /^(?:\\(\d{1,2})|\$(\d{1,2})|\$\{(\d{1,2})\})/;
  for (let i = 0; i < replacement.length; ) {
    const ch = replacement[i]!;
    if (ch === '\\' || ch === '$') {
      const m = reference.exec(replacement.slice(i));
      if (m) {
        flush();
        parts.push(Number(m[1] ?? m[2] ?? m[3]));
        i += m[0].length;
        continue;
      }
      if (ch === '\\' && replacement[i + 1] === '\\') {
        literal += '\\';
        i += 2;
        continue;
      }
    }
    literal += ch;
    i++;
  }
  flush();
  return parts;
}

/**
 * Texts a pattern's every match must contain, lower-cased: runs of plain ASCII characters at the top level of a
 * pattern without alternation. Anything not understood ends a run, so the result is always safe (maybe empty).
 */
export function requiredLiterals(pattern: string): string[] {
  if (pattern.includes('\\Q')) return [];
  const runs: string[] = [];
  let run = '';
  let depth = 0;
  const end = () => {
    if (run) runs.push(run);
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '|' && depth === 0) return [];
    if (ch === '(') {
      depth++;
      end();
      continue;
    }
    if (ch === ')') {
      depth = Math.max(0, depth - 1);
      end();
      // A quantified group adds nothing required; the run already ended.
      continue;
    }
    if (depth > 0) {
      if (ch === '\\') i++;
      else if (ch === '[') i = skipClass(pattern, i);
      continue;
    }
    let literal: string | null = null;
    let next = i;
    if (ch === '\\') {
      const escaped = pattern[i + 1];
      next = i + 1;
      if (escaped !== undefined && /[^A-Za-z0-9]/.test(escaped) && escaped.charCodeAt(0) < 128) literal = escaped;
    } else if (ch === '[') {
      next = skipClass(pattern, i);
    } else if (!'.^$*+?{}'.includes(ch) && ch.charCodeAt(0) < 128 && ch.charCodeAt(0) >= 32) {
      literal = ch;
    }
    const quantifier = pattern[next + 1];
    if (literal !== null && quantifier !== undefined && '*?{'.includes(quantifier)) {
      // Optional (or counted) characters are not required.
      end();
      i = next;
      continue;
    }
    if (literal === null) {
      end();
    } else {
      run += literal.toLowerCase();
      if (quantifier === '+') end();
    }
    i = next;
  }
  end();
  return runs.filter((r) => r.length >= 3);
}

function skipClass(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length;
}

/** Lower-cases a URL for the pre-filter the way RE2's case folding sees it (ſ and K fold to s and k). */
export function foldForFilter(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('ſ') ? lower.replace(/ſ/g, 's') : lower;
}
