import type { RedirectRecord } from '../../../store/redirection.js';
import { effectiveFlags, type SourceFlags } from '../flags.js';
import { compilePattern, foldForFilter, type CompiledPattern } from '../regex.js';
import { matchUrl, matchUrlWithQuery, pathMatches } from '../url/path.js';
import { queryMatches } from '../url/query.js';
import { LIMITS } from '../constants.js';

/** An enabled redirect ready for requests: flags resolved, pattern compiled once. */
export interface CompiledRedirect {
  record: RedirectRecord;
  flags: SourceFlags;
  /** null for plain redirects, and for regex redirects whose pattern does not compile (they never match). */
  pattern: CompiledPattern | null;
}

/**
 * Pre-filter grams are 3 characters: short enough for most literals, long enough to be selective. Literals are
 * printable ASCII (regex.ts), so a gram packs into 21 bits (7 per character): the request URL is scanned with a
 * rolling integer, with no string made per position.
 */
const GRAM = 3;
const GRAM_MASK = (1 << (7 * GRAM)) - 1;
/**
 * Before a gram is looked up, its bit in a small filter is tested: 32,768 bits (4 KB, which stays in the CPU's
 * nearest cache between requests, where a bit per possible gram would take 256 KB and miss it) leave about 3 %
 * false lookups with 1,000 indexed grams.
 */
const FILTER_SHIFT = 17;
const filterBit = (gram: number) => Math.imul(gram, 0x9e3779b1) >>> FILTER_SHIFT;

function gramKey(text: string, at: number): number {
  let key = 0;
  for (let i = at; i < at + GRAM; i++) key = (key << 7) | text.charCodeAt(i);
  return key;
}

const NONE: readonly CompiledRedirect[] = Object.freeze([]);

/** Characters a plain path may hold for its lookup key to be itself lower-cased (matchUrl's fast path). */
const PLAIN_PATH = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~/:@,;()[]') PLAIN_PATH[ch.charCodeAt(0)] = 1;

/** FNV-1a over UTF-16 code units, for the lookup-key filter. */
const FNV_OFFSET = 0x811c9dc5;
const fnvStep = (hash: number, code: number) => Math.imul(hash ^ code, 0x01000193);
function fnv(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) hash = fnvStep(hash, text.charCodeAt(i));
  return hash;
}

const byPosition = (a: CompiledRedirect, b: CompiledRedirect) => a.record.position - b.record.position || a.record.id - b.record.id;

/**
 * The redirects compiled for lookups (Redirection's Red_Item::get_for_matched_url, without a database round
 * trip): plain redirects in a hash map by lookup key; regex redirects indexed by a 3-character slice of a text
 * every match must contain, so a request tests only the patterns whose text it contains (plus the few patterns
 * without such a text). Candidates come back in position order, ties by id.
 */
export class RedirectMatcher {
  private readonly exact = new Map<string, CompiledRedirect[]>();
  private readonly byGram = new Map<number, Array<{ literal: string; redirect: CompiledRedirect }>>();
  /** The grams of byGram hashed into a small bit set: most of a URL's grams are in no pattern. */
  private readonly gramFilter = new Uint8Array(1 << (32 - FILTER_SHIFT - 3));
  private readonly unfiltered: CompiledRedirect[] = [];
  /** The lookup keys of `exact` hashed into a bit set of 16 bits per key or more (a false "maybe" in about 6 %). */
  private readonly keyFilter: Uint8Array;
  private readonly keyShift: number;
  readonly size: number;
  readonly hasPageRedirects: boolean;
  /** Some plain redirect's key carries a query (flag_query exactorder): only then is the request's key with query needed. */
  private readonly queryKeys: boolean;

  constructor(records: readonly RedirectRecord[], siteFlags: SourceFlags) {
    let pages = false;
    const gramCounts = new Map<number, number>();
    const regexes: Array<{ redirect: CompiledRedirect; literals: readonly string[] }> = [];
    for (const record of records) {
      const flags = effectiveFlags(record.matchData?.source, siteFlags, record.regex);
      if (record.matchType === 'page') pages = true;
      if (record.regex) {
        const pattern = compilePattern(record.url, flags.flag_case);
        if (!pattern) continue;
        const redirect = { record, flags, pattern };
        regexes.push({ redirect, literals: pattern.literals });
        for (const literal of pattern.literals) for (const gram of grams(literal)) gramCounts.set(gram, (gramCounts.get(gram) ?? 0) + 1);
      } else {
        const redirect = { record, flags, pattern: null };
        const list = this.exact.get(record.matchUrl) ?? [];
        list.push(redirect);
        this.exact.set(record.matchUrl, list);
      }
    }
    for (const { redirect, literals } of regexes) {
      if (!literals.length) {
        this.unfiltered.push(redirect);
        continue;
      }
      // The rarest gram of the longest literal: the fewest false candidates.
      const literal = literals.reduce((a, b) => (b.length > a.length ? b : a));
      let best = 0;
      let bestCount = Infinity;
      for (const gram of grams(literal)) {
        const count = gramCounts.get(gram) ?? 0;
        if (count < bestCount) [best, bestCount] = [gram, count];
      }
      const list = this.byGram.get(best) ?? [];
      list.push({ literal, redirect });
      this.byGram.set(best, list);
      const bit = filterBit(best);
      this.gramFilter[bit >> 3]! |= 1 << (bit & 7);
    }
    this.size = records.length;
    this.hasPageRedirects = pages;
    this.queryKeys = [...this.exact.keys()].some((key) => key.includes('?'));
    const bits = Math.max(12, Math.ceil(Math.log2(this.exact.size * 16 + 1)));
    this.keyShift = 32 - bits;
    this.keyFilter = new Uint8Array(1 << (bits - 3));
    for (const key of this.exact.keys()) {
      const bit = fnv(key) >>> this.keyShift;
      this.keyFilter[bit >> 3]! |= 1 << (bit & 7);
    }
  }

  /**
   * Whether the raw request URL is certainly no redirect's, decided in one pass over its characters with nothing
   * allocated: true only for a plain URL (printable ASCII without `%` or `\`, so that cleaning and decoding leave it
   * as it is, and a path whose lookup key is itself lower-cased) whose key is in no redirect's key filter and
   * that holds no regex redirect's pre-filter text. False means "look closer" (`candidates`), never "no".
   */
  plainMiss(url: string): boolean {
    const length = url.length;
    if (length === 0 || length > LIMITS.url || url.charCodeAt(0) !== 0x2f || this.unfiltered.length) return false;
    const grams = this.byGram.size !== 0;
    let key = FNV_OFFSET;
    let keyBefore = key;
    let pathEnd = -1;
    let gram = 0;
    let folded: string | null = null;
    for (let i = 0; i < length; i++) {
      let code = url.charCodeAt(i);
      if (code < 0x20 || code > 0x7e || code === 0x25 || code === 0x5c) return false;
      if (code >= 0x41 && code <= 0x5a) code += 0x20;
      if (pathEnd === -1) {
        if (code === 0x3f) {
          if (this.queryKeys) return false;
          pathEnd = i;
        } else {
          if (!PLAIN_PATH[code]) return false;
          keyBefore = key;
          key = fnvStep(key, code);
        }
      }
      if (!grams) continue;
      gram = ((gram << 7) | code) & GRAM_MASK;
      if (i < GRAM - 1) continue;
      const bit = filterBit(gram);
      if (!(this.gramFilter[bit >> 3]! & (1 << (bit & 7)))) continue;
      const entries = this.byGram.get(gram);
      if (!entries) continue;
      folded ??= url.toLowerCase();
      for (const entry of entries) if (folded.includes(entry.literal)) return false;
    }
    if (pathEnd === -1) pathEnd = length;
    // The key drops one trailing slash of a longer path.
    if (pathEnd > 1 && url.charCodeAt(pathEnd - 1) === 0x2f) key = keyBefore;
    const bit = key >>> this.keyShift;
    return this.exact.size === 0 || !(this.keyFilter[bit >> 3]! & (1 << (bit & 7)));
  }

  /** Redirects that may match the (decoded) request URL, in the order Redirection tries them. */
  candidates(decodedUrl: string): readonly CompiledRedirect[] {
    // Most URLs are no redirect's: they get the shared empty list, and nothing is allocated for them.
    let out: CompiledRedirect[] | null = null;
    const key = matchUrl(decodedUrl);
    const exact = this.exact.get(key);
    if (exact) out = [...exact];
    if (this.queryKeys && decodedUrl.includes('?')) {
      const withQuery = matchUrlWithQuery(decodedUrl);
      const more = withQuery !== key ? this.exact.get(withQuery) : undefined;
      if (more) (out ??= []).push(...more);
    }
    if (this.byGram.size) {
      const folded = foldForFilter(decodedUrl);
      let found: Set<CompiledRedirect> | null = null;
      let gram = 0;
      let run = 0;
      for (let i = 0; i < folded.length; i++) {
        const code = folded.charCodeAt(i);
        // No literal holds a character past ASCII: no gram spanning one can be indexed.
        if (code > 0x7f) {
          run = 0;
          continue;
        }
        gram = ((gram << 7) | code) & GRAM_MASK;
        if (++run < GRAM) continue;
        const bit = filterBit(gram);
        if (!(this.gramFilter[bit >> 3]! & (1 << (bit & 7)))) continue;
        const entries = this.byGram.get(gram);
        if (!entries) continue;
        // A gram that occurs twice in the URL names its redirects twice: the set keeps each once.
        for (const entry of entries) if (folded.includes(entry.literal)) (found ??= new Set()).add(entry.redirect);
      }
      if (found) (out ??= []).push(...found);
    }
    if (this.unfiltered.length) (out ??= []).push(...this.unfiltered);
    if (!out) return NONE;
    return out.length > 1 ? out.sort(byPosition) : out;
  }
}

function grams(literal: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + GRAM <= literal.length; i++) out.push(gramKey(literal, i));
  return out;
}

/** Whether a redirect's source matches the decoded request URL (Red_Url::is_match). */
export function sourceMatches(redirect: CompiledRedirect, decodedUrl: string): boolean {
  if (redirect.record.regex) return redirect.pattern?.test(decodedUrl) ?? false;
  const { flags } = redirect;
  const options = { ignoreTrailing: flags.flag_trailing, ignoreCase: flags.flag_case };
  return (
    pathMatches(redirect.record.url, decodedUrl, options) &&
    queryMatches(redirect.record.url, decodedUrl, { ignoreCase: flags.flag_case, allowExtra: flags.flag_query === 'ignore' || flags.flag_query === 'pass' })
  );
}
