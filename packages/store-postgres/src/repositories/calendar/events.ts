import { StoreError, type EventRecord, type EventRepository, type NewEvent, type Patch } from '@siterest/core';
import { atomically, type Db } from '../db.js';
import { listEvents } from './event-list.js';
import { adjustTermCounts, afterReplace, countDeltas, EVENT_TERMS, LIST_KEY_FIELDS, replaceEventTerms, syncEventTermKeys } from './event-terms.js';
import { insertPost, readPost, readPosts, updatePost } from '../post-rows.js';
import { EVENT } from '../post-types.js';

const PUBLISHED = 'publish';

/** Events: a post, its `events` row and its term assignments, always written together with the term counts. */
export function eventRepository(db: Db): EventRepository {
  const get = (d: Db, id: number) => readPost<EventRecord>(d, EVENT, id, EVENT_TERMS);
  return {
    get: (id) => get(db, id),
    getMany: (ids) => readPosts<EventRecord>(db, EVENT, ids, EVENT_TERMS),
    list: (query) => listEvents(db, query),

    create: (input: NewEvent) =>
      atomically(db, async (tx) => {
        const id = await insertPost(tx, EVENT, { ...input, categoryIds: undefined, tagIds: undefined });
        const { added } = await replaceEventTerms(tx, id, { categoryIds: input.categoryIds, tagIds: input.tagIds });
        await adjustTermCounts(tx, countDeltas({ published: false, termIds: [] }, { published: input.status === PUBLISHED, termIds: added }));
        return (await get(tx, id))!;
      }),

    update: (id: number, patch: Patch<EventRecord>) =>
      atomically(db, async (tx) => {
        // The row lock serialises writers of one event, so the counts below start from what is really stored.
        const [before] = await tx.sql.query<{ status: string; term_ids: unknown[] }>(
          `SELECT e.status, ARRAY(SELECT r.term_id FROM ${tx.t.termRelationships} r WHERE r.object_id = e.post_id) AS term_ids
             FROM ${tx.t.events} e WHERE e.post_id = $1::bigint FOR UPDATE`,
          [id],
        );
        if (!before) throw new StoreError('not_found', `No event ${id}.`);
        await updatePost(tx, EVENT, id, { ...patch, categoryIds: undefined, tagIds: undefined });
        if (LIST_KEY_FIELDS.some((field) => patch[field] !== undefined)) await syncEventTermKeys(tx, id);
        const { removed, added } = await replaceEventTerms(tx, id, { categoryIds: patch.categoryIds, tagIds: patch.tagIds });
        const termIds = before.term_ids.map(Number);
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
