import type { RedirectRecord } from '../../../store/redirection.js';
import { effectiveFlags, type SourceFlags } from '../flags.js';
import { compilePattern, foldForFilter, type CompiledPattern } from '../regex.js';
import { matchUrl, matchUrlWithQuery, pathMatches } from '../url/path.js';
import { queryMatches } from '../url/query.js';

/** An enabled redirect ready for requests: flags resolved, pattern compiled once. */
export interface CompiledRedirect {
  record: RedirectRecord;
  flags: SourceFlags;
  /** null for plain redirects, and for regex redirects whose pattern does not compile (they never match). */
  pattern: CompiledPattern | null;
}

/** Pre-filter grams are this long: short enough for most literals, long enough to be selective. */
const GRAM = 3;

const byPosition = (a: CompiledRedirect, b: CompiledRedirect) => a.record.position - b.record.position || a.record.id - b.record.id;

/**
 * The redirects compiled for lookups (Redirection's Red_Item::get_for_matched_url, without a database round
 * trip): plain redirects in a hash map by lookup key; regex redirects indexed by a 3-character slice of a text
 * every match must contain, so a request tests only the patterns whose text it contains (plus the few patterns
 * without such a text). Candidates come back in position order, ties by id.
 */
export class RedirectMatcher {
  private readonly exact = new Map<string, CompiledRedirect[]>();
  private readonly byGram = new Map<string, Array<{ literal: string; redirect: CompiledRedirect }>>();
  private readonly unfiltered: CompiledRedirect[] = [];
  readonly size: number;
  readonly hasPageRedirects: boolean;
  /** Some plain redirect's key carries a query (flag_query exactorder): only then is the request's key with query needed. */
  private readonly queryKeys: boolean;

  constructor(records: readonly RedirectRecord[], siteFlags: SourceFlags) {
    let pages = false;
    const gramCounts = new Map<string, number>();
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
      let best = '';
      let bestCount = Infinity;
      for (const gram of grams(literal)) {
        const count = gramCounts.get(gram) ?? 0;
        if (count < bestCount) [best, bestCount] = [gram, count];
      }
      const list = this.byGram.get(best) ?? [];
      list.push({ literal, redirect });
      this.byGram.set(best, list);
    }
    this.size = records.length;
    this.hasPageRedirects = pages;
    this.queryKeys = [...this.exact.keys()].some((key) => key.includes('?'));
  }

  /** Redirects that may match the (decoded) request URL, in the order Redirection tries them. */
  candidates(decodedUrl: string): CompiledRedirect[] {
    const out: CompiledRedirect[] = [];
    const key = matchUrl(decodedUrl);
    for (const r of this.exact.get(key) ?? []) out.push(r);
    if (this.queryKeys && decodedUrl.includes('?')) {
      const withQuery = matchUrlWithQuery(decodedUrl);
      if (withQuery !== key) for (const r of this.exact.get(withQuery) ?? []) out.push(r);
    }
    if (this.byGram.size) {
      const folded = foldForFilter(decodedUrl);
      let found: Set<CompiledRedirect> | null = null;
      for (let i = 0; i + GRAM <= folded.length; i++) {
        const entries = this.byGram.get(folded.slice(i, i + GRAM));
        if (!entries) continue;
        // A gram that occurs twice in the URL names its redirects twice: the set keeps each once.
        for (const entry of entries) if (folded.includes(entry.literal)) (found ??= new Set()).add(entry.redirect);
      }
      if (found) for (const r of found) out.push(r);
    }
    for (const r of this.unfiltered) out.push(r);
    return out.length > 1 ? out.sort(byPosition) : out;
  }
}

function grams(literal: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + GRAM <= literal.length; i++) out.push(literal.slice(i, i + GRAM));
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
