import type { ReadVisibility } from './queries.js';

/**
 * Whether a record passes a query's read clause (see `ReadVisibility`): what every store applies, in memory
 * or as SQL, on top of the status filter.
 */
export function passesVisibility(visibility: ReadVisibility | undefined, record: { status: string; authorId: number }): boolean {
  if (!visibility) return true;
  if (visibility.statuses.includes(record.status)) return true;
  return (
    visibility.authorId !== undefined &&
    record.authorId === visibility.authorId &&
    (visibility.ownStatuses?.includes(record.status) ?? false)
  );
}
