import { searchTerms } from '@siterest/core';
import { containsPattern } from '../sql/like.js';
import type { Params } from '../sql/params.js';

/**
 * WordPress search: every word or "quoted phrase" appears, case-insensitively, in one of `columns`.
 * ILIKE '%term%' per column is what the trigram indexes serve.
 */
export function searchConditions(params: Params, search: string | undefined, columns: readonly string[]): string[] {
  if (!search) return [];
  return searchTerms(search).map((term) => {
    const pattern = params.add(containsPattern(term), 'text');
    return `(${columns.map((c) => `${c} ILIKE ${pattern}`).join(' OR ')})`;
  });
}

/** `column` in `statuses`, where 'any' is every status but trash and auto-draft. One status stays an equality so index order survives. */
export function statusCondition(params: Params, column: string, statuses: readonly string[] | 'any'): string {
  if (statuses === 'any') return `${column} NOT IN ('trash', 'auto-draft')`;
  if (statuses.length === 1) return `${column} = ${params.add(statuses[0], 'text')}`;
  return `${column} = ANY(${params.add([...statuses], 'text[]')})`;
}
