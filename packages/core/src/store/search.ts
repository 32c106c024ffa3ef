/** The longest search text that is looked at; the rest is ignored (WordPress has no bound, see docs/security.md). */
export const MAX_SEARCH_LENGTH = 200;

/** WordPress matches at most this many words or phrases one by one; a longer search is matched as one phrase. */
export const MAX_SEARCH_TERMS = 9;

/** WordPress's English search stopwords (WP_Query::get_search_stopwords), left out of the terms. */
const STOPWORDS: ReadonlySet<string> = new Set(
  'about,an,are,as,at,be,by,com,for,from,how,in,is,it,of,on,or,that,the,this,to,was,what,when,where,who,will,with,www'.split(','),
);

/** One search condition: `text` (lower case) appears in one of the searched fields, or, when `exclude`, in none. */
export interface SearchTerm {
  readonly text: string;
  readonly exclude: boolean;
}

/** The first MAX_SEARCH_LENGTH characters (UTF-16 units, never ending in half a surrogate pair). */
export function boundedSearch(search: string): string {
  if (search.length <= MAX_SEARCH_LENGTH) return search;
  const cut = search.slice(0, MAX_SEARCH_LENGTH);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** PHP trim() with a character list. */
function trimChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** WP_Query::parse_search_terms: quotes trimmed, single letters and dashes, "0" and stopwords left out. */
function checkedTerms(words: readonly string[]): string[] {
  const checked: string[] = [];
  for (const word of words) {
    const term = /^"[^\n]+"$/.test(word) ? trimChars(word, `"'`) : trimChars(word, `"' `);
    if (term === '' || term === '0' || /^[a-z-]$/i.test(term)) continue;
    if (STOPWORDS.has(term.toLowerCase())) continue;
    checked.push(term);
  }
  return checked;
}

/**
 * How `search` is understood by every store: WordPress's WP_Query::parse_search. Words and "quoted phrases"
 * (separated by spaces, tabs, commas or plus signs), without single letters, dashes and stopwords; each must
 * appear, case-insensitively, in one of the searched fields, and a term written `-word` must appear in none. When
 * nothing is left, or more than nine terms (MAX_SEARCH_TERMS), the whole text is one phrase instead: a search
 * is never more than nine conditions. Only the first MAX_SEARCH_LENGTH characters are read.
 */
export function searchTerms(search: string): SearchTerm[] {
  const text = boundedSearch(search).replace(/[\r\n]/g, '');
  const words = text.match(/"[^\n]*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g) ?? [];
  let terms = checkedTerms(words);
  if (terms.length === 0 || terms.length > MAX_SEARCH_TERMS) terms = [text];
  return terms.map((term) =>
    term.startsWith('-') ? { text: term.slice(1).toLowerCase(), exclude: true } : { text: term.toLowerCase(), exclude: false },
  );
}

/** Every term is found in at least one of the texts, and no excluded term in any. */
export function matchesSearch(terms: readonly SearchTerm[], texts: readonly string[]): boolean {
  const lowered = texts.map((t) => t.toLowerCase());
  return terms.every((term) => lowered.some((text) => text.includes(term.text)) !== term.exclude);
}

/**
 * Great-circle distance in kilometres (venue `geoloc` filters), by the haversine. Its `a` lies in [0, 1], but
 * rounding can take it just past either end (at a point's antipode it reads 1.0000000000000002): held within them,
 * or the square root of a negative would be NaN here and an error in PostgreSQL (the store's own formula).
 */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 6371 * 2 * Math.asin(Math.sqrt(Math.min(1, Math.max(0, a))));
}

/** Statuses `'any'` stands for: everything but trash and auto-draft. */
export function statusMatches(filter: readonly string[] | 'any', status: string): boolean {
  return filter === 'any' ? status !== 'trash' && status !== 'auto-draft' : filter.includes(status);
}
