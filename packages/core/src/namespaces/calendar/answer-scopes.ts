import type { ApiRequest } from '../../http/api-request.js';
import type { ChangeScope } from '../../store/change-scopes.js';

/** What the calendar's list answers are computed from: its records, and the site's settings (formats, zone). */
export const CALENDAR_ANSWER_SCOPES: readonly ChangeScope[] = ['calendar', 'options'];

/**
 * The change version of the calendar's data, read before any of it (see fragment-cache.ts); undefined when
 * fragments are off or the store cannot vouch for its version.
 */
export async function calendarVersion(request: ApiRequest): Promise<number | undefined> {
  const store = request.site.store;
  if (!request.site.fragments || !store.changeVersion) return undefined;
  try {
    return await store.changeVersion(CALENDAR_ANSWER_SCOPES);
  } catch {
    return undefined;
  }
}
