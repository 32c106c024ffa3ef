import { StoreError, type Asked, type EventRecord, type EventRepository, type NewEvent, type Patch } from '@siterest/core';
import { idValue } from '../../sql/params.js';
import { atomically, type Db } from '../db.js';
import type { CountedSearches } from './counted-searches.js';
import { listEvents } from './event-list.js';
import { adjustTermCounts, afterReplace, countDeltas, EVENT_TERMS, replaceEventTerms } from './event-terms.js';
import { insertPost, readPost, readPosts, updatePost } from '../post-rows.js';
import { EVENT } from '../post-types.js';

const PUBLISHED = 'publish';

/** Events: a post, its `events` row and its term assignments, always written together with the term counts. */
export function eventRepository(db: Db, counted?: CountedSearches): Asked<EventRepository> {
  const get = (d: Db, id: number) => readPost<EventRecord>(d, EVENT, id, EVENT_TERMS);
  return {
    get: (id) => get(db, id),
    getMany: (ids) => readPosts<EventRecord>(db, EVENT, ids, EVENT_TERMS),
    list: (query) => listEvents(db, query, counted),

    create: (input: NewEvent) =>
      atomically(db, async (tx) => {
        const id = await insertPost(tx, EVENT, { ...input, categoryIds: undefined, tagIds: undefined });
        const { added } = await replaceEventTerms(tx, id, { categoryIds: input.categoryIds, tagIds: input.tagIds });
        await adjustTermCounts(tx, countDeltas({ published: false, termIds: [] }, { published: input.status === PUBLISHED, termIds: added }));
        return (await get(tx, id))!;
      }),

    update: (id: number, patch: Patch<EventRecord>) =>
      atomically(db, async (tx) => {
        // The row lock serialises writers of one event, so the counts below start from what is really stored. The
        // terms are read by a statement of their own, after the lock is held: a subquery of the locking statement
        // would read them from that statement's snapshot, taken before a writer it waited for had committed.
        // The post's row is locked first (as its UPDATE would: no wait for foreign key checks), in the order an
        // UPDATE of posts made by any other tool reaches events through its trigger (migration 63): taken the
        // other way round, the two writers could deadlock.
        await tx.sql.query(`SELECT 1 FROM ${tx.t.posts} WHERE id = $1::bigint FOR NO KEY UPDATE`, [idValue(id)]);
        const [before] = await tx.sql.query<{ status: string }>(`SELECT e.status FROM ${tx.t.events} e WHERE e.post_id = $1::bigint FOR UPDATE`, [
          idValue(id),
        ]);
        if (!before) throw new StoreError('not_found', `No event ${id}.`);
        const termIds = (
          await tx.sql.query<{ term_id: unknown }>(`SELECT r.term_id FROM ${tx.t.termRelationships} r WHERE r.object_id = $1::bigint`, [id])
        ).map((row) => Number(row.term_id));
        // The copies of the list keys in term_relationships follow by trigger (migration 63).
        await updatePost(tx, EVENT, id, { ...patch, categoryIds: undefined, tagIds: undefined });
        const { removed, added } = await replaceEventTerms(tx, id, { categoryIds: patch.categoryIds, tagIds: patch.tagIds });
        await adjustTermCounts(
          tx,
          countDeltas(
            { published: before.status === PUBLISHED, termIds },
            { published: (patch.status ?? before.status) === PUBLISHED, termIds: afterReplace(termIds, removed, added) },
          ),
        );
        return (await get(tx, id))!;
      }),
  };
}
