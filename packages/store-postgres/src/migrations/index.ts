import { initial } from './001_initial.js';
import { changeVersion } from './002_change_version.js';
import { uniqueSlugs } from './003_unique_slugs.js';
import { titleHashIndex } from './004_title_hash_index.js';
import { changeScopes } from './010_change_scopes.js';
import { searchTextIndex } from './011_search_text_index.js';
import { eventDayCounts } from './012_event_day_counts.js';
import { termListEnd } from './013_term_list_end.js';
import { eventSearch } from './014_event_search.js';
import { redirection } from './020_redirection.js';
import { contactForms } from './030_contact_forms.js';
import { popups } from './031_popups.js';
import { media } from './040_media.js';
import { content } from './050_content.js';
import { firstTermId } from './060_first_term_id.js';
import { postsTypeStatusId } from './061_posts_type_status_id.js';
import { attachmentsByTitle } from './062_attachments_by_title.js';
import { listKeyCopies } from './063_list_key_copies.js';
import { termRowKeysOnInsert } from './064_term_row_keys_on_insert.js';
import { eventLocated } from './065_event_located.js';
import { eventLocatedLock } from './066_event_located_lock.js';
import { eventSearchByQuarter } from './067_event_search_by_quarter.js';
import { eventSearchCounts } from './068_event_search_counts.js';
import { termRowsEndingBeforeStart } from './069_term_rows_ending_before_start.js';
import { eventSearchTerms } from './070_event_search_terms.js';
import type { Migration } from './migration.js';

/** Every migration, in order. Never edit a released one: add the next version. */
export const MIGRATIONS: readonly Migration[] = [initial, changeVersion, uniqueSlugs, titleHashIndex, changeScopes, searchTextIndex, eventDayCounts, termListEnd, eventSearch, redirection, contactForms, popups, media, content, firstTermId, postsTypeStatusId, attachmentsByTitle, listKeyCopies, termRowKeysOnInsert, eventLocated, eventLocatedLock, eventSearchByQuarter, eventSearchCounts, termRowsEndingBeforeStart, eventSearchTerms];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export type { Migration } from './migration.js';
