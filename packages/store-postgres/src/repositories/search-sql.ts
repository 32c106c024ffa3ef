import { searchTerms } from '@siterest/core';
import { containsPattern } from '../sql/like.js';
import { hasNul, type Params } from '../sql/params.js';

/**
 * WordPress search (core's searchTerms: at most nine terms, the text bounded): every term appears,
 * case-insensitively, in one of `columns`, and an excluded (`-word`) term in none. ILIKE '%term%' per column is
 * what the trigram indexes serve. A term with a NUL character cannot appear in stored text (see params.ts).
 * `joinedIndex: false` leaves out the joined text's test, for rows already narrowed by another index (a day of
 * events, see countedSearchPageSql), which the planner should not trade for the word's whole posting list.
 */
export function searchConditions(params: Params, search: string | undefined, columns: readonly string[], options: { joinedIndex?: boolean } = {}): string[] {
  if (!search) return [];
  const combined =
    options.joinedIndex !== false && POST_TEXT_COLUMNS.every((column, i) => columns[i] === `p.${column}`) && columns.length === POST_TEXT_COLUMNS.length;
  return searchTerms(search).map((term) => {
    if (hasNul(term.text)) return term.exclude ? 'TRUE' : 'FALSE';
    const pattern = params.add(containsPattern(term.text), 'text');
    const anywhere = `(${columns.map((c) => `${c} ILIKE ${pattern}`).join(' OR ')})`;
    if (term.exclude) return `NOT ${anywhere}`;
    // Implied by the columns' test (a term in one column is in the three joined), so it changes no answer; it
    // lets the planner use the joined text's trigram index, the columns' test then rechecks the rows found.
    return combined ? `(${SEARCH_TEXT} ILIKE ${pattern} AND ${anywhere})` : anywhere;
  });
}

/**
 * The same search over a row of event_search (migration 014), whose `body` holds title, content and excerpt, each
 * lower-cased, joined with single spaces. ILIKE in a multibyte database is lower(text) LIKE lower(pattern), so for
 * a term without a space `body LIKE lower(pattern)` holds exactly when the term is in one of the three: a match
 * cannot take in a joining space. A term with a space (a quoted phrase) could match across two columns: it is
 * tested against `columns` as well, and `needsColumns` says the caller must join them.
 */
export function eventSearchConditions(params: Params, search: string | undefined, body: string, columns: readonly string[]): { conditions: string[]; needsColumns: boolean } {
  if (!search) return { conditions: [], needsColumns: false };
  let needsColumns = false;
  const conditions = searchTerms(search).map((term) => {
    if (hasNul(term.text)) return term.exclude ? 'TRUE' : 'FALSE';
    const pattern = params.add(containsPattern(term.text), 'text');
    let found = `${body} LIKE lower(${pattern})`;
    if (term.text.includes(' ')) {
      needsColumns = true;
      found = `(${found} AND (${columns.map((c) => `${c} ILIKE ${pattern}`).join(' OR ')}))`;
    }
    return term.exclude ? `NOT ${found}` : found;
  });
  return { conditions, needsColumns };
}

/** A post's searched columns (posts `p`), in the order SEARCH_TEXT joins them. */
const POST_TEXT_COLUMNS = ['title', 'content', 'excerpt'] as const;

/** The expression of the joined-text trigram index (migration 011), as the index has it. */
const SEARCH_TEXT = `(p.title || ' ' || p.content || ' ' || p.excerpt)`;

/** `column` in `statuses`, where 'any' is every status but trash and auto-draft. One status stays an equality so index order survives. */
export function statusCondition(params: Params, column: string, statuses: readonly string[] | 'any'): string {
  if (statuses === 'any') return `${column} NOT IN ('trash', 'auto-draft')`;
  if (statuses.length === 1) return `${column} = ${params.add(statuses[0], 'text')}`;
  return `${column} = ANY(${params.add([...statuses], 'text[]')})`;
}
