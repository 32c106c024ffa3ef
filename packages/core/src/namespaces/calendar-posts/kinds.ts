import type { PostRecord } from '../../store/records.js';
import type { SiteStore } from '../../store/repositories.js';
import { CATEGORY_TAXONOMY, TAG_TAXONOMY } from '../calendar/constants.js';
import { EVENTS } from '../calendar/events/kind.js';
import { ORGANIZERS, VENUES } from '../calendar/linked/kinds.js';
import type { PostTypeConfig } from '../calendar/posts/types.js';

/** One calendar post type as WordPress's posts controller serves it under `wp/v2/<type>`. */
export interface CalendarPostKind extends PostTypeConfig {
  /** Reads and writes the type's records (the post fields are common to all three). */
  get(store: SiteStore, id: number): Promise<PostRecord | null>;
  update(store: SiteStore, id: number, patch: Partial<PostRecord>): Promise<PostRecord>;
  /** Taxonomies shown in the answer (`tags`, then the categories), with their rest base and record field. */
  taxonomies: ReadonlyArray<{ restBase: string; taxonomy: string; field: 'tagIds' | 'categoryIds' }>;
}

/** In WordPress's registration order: TEC registers venues, organizers, then events. */
export const CALENDAR_POST_KINDS: readonly CalendarPostKind[] = [
  {
    ...VENUES,
    get: (store, id) => VENUES.repository(store).get(id),
    update: (store, id, patch) => VENUES.repository(store).update(id, patch as never),
    taxonomies: [],
  },
  {
    ...ORGANIZERS,
    get: (store, id) => ORGANIZERS.repository(store).get(id),
    update: (store, id, patch) => ORGANIZERS.repository(store).update(id, patch as never),
    taxonomies: [],
  },
  {
    ...EVENTS,
    get: (store, id) => store.events.get(id),
    update: (store, id, patch) => store.events.update(id, patch as never),
    taxonomies: [
      { restBase: 'tags', taxonomy: TAG_TAXONOMY, field: 'tagIds' },
      { restBase: CATEGORY_TAXONOMY, taxonomy: CATEGORY_TAXONOMY, field: 'categoryIds' },
    ],
  },
];
