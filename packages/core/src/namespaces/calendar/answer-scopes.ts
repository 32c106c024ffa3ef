import type { ApiRequest } from '../../http/api-request.js';
import type { ChangeScope } from '../../store/change-scopes.js';
import type { Maybe } from '../../util/maybe.js';

/** What the calendar's list answers are computed from: its records, and the site's settings (formats, zone). */
export const CALENDAR_ANSWER_SCOPES: readonly ChangeScope[] = ['calendar', 'options'];

/**
 * The change version of the calendar's data, read before any of it (see fragment-cache.ts); undefined when
 * fragments are off or the store cannot vouch for its version.
 */
export function calendarVersion(request: ApiRequest): Maybe<number | undefined> {
  const store = request.site.store;
  if (!request.site.fragments || !store.changeVersion) return undefined;
  // Known at once on a store whose every write happens in this process (memory): nothing to wait for.
  if (store.knownChangeVersion) return store.knownChangeVersion(CALENDAR_ANSWER_SCOPES);
  return store.changeVersion(CALENDAR_ANSWER_SCOPES).then(
    (version) => version,
    () => undefined,
  );
}
