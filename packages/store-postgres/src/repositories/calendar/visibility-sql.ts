import type { ReadVisibility } from '@siterest/core';
import type { Params } from '../../sql/params.js';
import { statusCondition } from '../search-sql.js';

/** Whether a read clause needs the author column (only its own-records part does). */
export function needsAuthor(visibility: ReadVisibility | undefined): boolean {
  return visibility?.authorId !== undefined && (visibility.ownStatuses?.length ?? 0) > 0;
}

/**
 * A query's read clause (`ReadVisibility`) as SQL: the status is readable on anybody's posts, or the author is
 * the caller and the status one of those readable on their own posts. `authorColumn` is only read when the
 * clause has an own part.
 */
export function visibilityCondition(params: Params, statusColumn: string, authorColumn: string, visibility: ReadVisibility): string {
  const everyone = visibility.statuses.length ? statusCondition(params, statusColumn, visibility.statuses) : '';
  if (!needsAuthor(visibility)) return everyone || 'false';
  const own = `(${authorColumn} = ${params.add(visibility.authorId, 'bigint')} AND ${statusCondition(params, statusColumn, visibility.ownStatuses!)})`;
  return everyone ? `(${everyone} OR ${own})` : own;
}
