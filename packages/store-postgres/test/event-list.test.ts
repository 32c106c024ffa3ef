import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventQuery } from '@siterest/core';
import { newEvent, taxonomies } from '@siterest/core/testing';
import { useMigratedStore } from './support/database.js';
import { at, DAY, eventStart, eventTimes, STATUSES, windowAndPage } from './support/windows.js';

const migrated = useMigratedStore('list');

describe('event lists filtered by terms', () => {
  it('never include another post type that shares the taxonomy (post_tag)', async () => {
    const { store, schema } = migrated;
    const tag = await store.terms.create({ taxonomy: taxonomies.tag, name: 'Shared', slug: 'shared', description: '', parentId: 0 });
    const event = await store.events.create(newEvent({ tagIds: [tag.id], startDateUtc: '2027-01-01 10:00:00' }));
    // A WordPress post tagged with the same term, written as a later post type would write it.
    const s = `"${schema}"`;
    const [post] = await store.sql.query<{ id: number }>(
      `INSERT INTO ${s}.posts (type, status, post_date, post_date_gmt, post_modified, post_modified_gmt)
       VALUES ('post', 'publish', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2026-01-01 00:00:00', '2026-01-01 00:00:00') RETURNING id`,
    );
    await store.sql.query(
      `INSERT INTO ${s}.term_relationships (object_id, term_id, taxonomy, object_type, status, start_utc) VALUES ($1, $2, 'post_tag', 'post', 'publish', '2027-01-01 09:00:00')`,
      [post!.id, tag.id],
    );
    // limit 1: the post starts first, and a full page makes the store count rather than infer the total.
    for (const tagIds of [[tag.id], [tag.id, tag.id + 1000]]) {
      const page = await store.events.list({ statuses: ['publish'], tagIds, orderBy: 'start', offset: 0, limit: 1 });
      expect(page).toMatchObject({ total: 1, items: [{ id: event.id }] });
    }
  });

  it('bound the end from the term rows\' copy, which follows the event\'s end when it moves', async () => {
    const { store } = migrated;
    const category = await store.terms.create({ taxonomy: taxonomies.category, name: 'Ends', slug: 'ends', description: '', parentId: 0 });
    const other = await store.terms.create({ taxonomy: taxonomies.category, name: 'Other', slug: 'other', description: '', parentId: 0 });
    const event = await store.events.create(newEvent({ categoryIds: [category.id], startDateUtc: '2027-02-01 10:00:00', endDateUtc: '2027-02-01 12:00:00' }));
    const endingBy = (endsBefore: string, categoryIds = [category.id]) =>
      store.events.list({ statuses: ['publish'], categoryIds, endsBefore, endsAfter: '2027-02-01 11:00:00', orderBy: 'start', offset: 0, limit: 1 });
    expect((await endingBy('2027-02-01 23:59:59')).total).toBe(1);
    await store.events.update(event.id, { endDateUtc: '2027-02-03 12:00:00' });
    expect((await endingBy('2027-02-01 23:59:59')).total).toBe(0);
    expect((await endingBy('2027-02-03 23:59:59', [category.id, other.id])).items.map((item) => item.id)).toEqual([event.id]);
    await store.events.update(event.id, { endDateUtc: '2027-02-01 10:30:00' });
    expect((await endingBy('2027-02-03 23:59:59', [category.id, other.id])).total).toBe(0);
  });

  it('give totals and pages equal to the plain query over random events, terms and windows, events ending before they start included', async () => {
    const { store, db, schema } = migrated;
    const s = `"${schema}"`;
    const term = (taxonomy: string, slug: string) => store.terms.create({ taxonomy, name: slug, slug, description: '', parentId: 0 });
    const categories = [await term(taxonomies.category, 'c-one'), await term(taxonomies.category, 'c-two'), await term(taxonomies.category, 'c-three')].map((t) => t.id);
    const tags = [await term(taxonomies.tag, 't-one'), await term(taxonomies.tag, 't-two')].map((t) => t.id);
    const minute = fc.integer({ min: -DAY, max: 4 * DAY });
    const event = fc.record({
      start: eventStart(minute),
      // Some end before they start: an end bound bounds only the others' start.
      duration: fc.oneof(fc.integer({ min: 0, max: 3 * DAY }), fc.integer({ min: -3 * DAY, max: 0 })),
      status: fc.constantFrom(...STATUSES),
      hidden: fc.boolean(),
      categories: fc.subarray(categories),
      tags: fc.subarray(tags),
    });
    const query = fc.record({
      statuses: fc.constantFrom<EventQuery['statuses']>(['publish'], ['publish', 'private'], 'any'),
      excludeHidden: fc.boolean(),
      ...windowAndPage(minute),
      categoryIds: fc.option(fc.subarray(categories, { minLength: 1 }), { nil: undefined }),
      tagIds: fc.option(fc.subarray(tags, { minLength: 1 }), { nil: undefined }),
      featured: fc.option(fc.boolean(), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 30 }), fc.array(query, { minLength: 1, maxLength: 10 }), async (events, queries) => {
        await db.admin(`DELETE FROM ${s}.posts`);
        for (const e of events) {
          await store.events.create(
            newEvent({ ...eventTimes(e.start, e.duration), status: e.status, hideFromListings: e.hidden, categoryIds: e.categories, tagIds: e.tags, featured: e.duration % 2 === 0 }),
          );
        }
        for (const fields of queries) {
          const q: EventQuery = { ...fields, categoryIds: fields.categoryIds ?? (fields.tagIds ? undefined : [categories[0]!]), orderBy: 'start' };
          const { total, items } = await store.events.list(q);
          const [plain] = await db.admin(
            `SELECT count(*)::int AS n, COALESCE((SELECT array_agg(id ORDER BY k, id) FROM (SELECT post_id::int AS id, start_utc AS k FROM matching ORDER BY k, id LIMIT $9 OFFSET $8) page), '{}') AS ids
               FROM matching`.replace(/matching/g, `(SELECT * FROM ${s}.events e
              WHERE CASE WHEN $1::text[] IS NULL THEN status NOT IN ('trash', 'auto-draft') ELSE status = ANY($1::text[]) END
                AND NOT ($2::boolean AND hide_from_listings)
                AND ($3::timestamp IS NULL OR start_utc >= $3) AND ($4::timestamp IS NULL OR start_utc <= $4)
                AND ($5::timestamp IS NULL OR end_utc >= $5) AND ($6::timestamp IS NULL OR end_utc <= $6)
                AND ($7::boolean IS NULL OR featured = $7)
                AND ($10::bigint[] IS NULL OR EXISTS (SELECT 1 FROM ${s}.term_relationships r WHERE r.object_id = e.post_id AND r.taxonomy = 'cal_events_cat' AND r.term_id = ANY($10)))
                AND ($11::bigint[] IS NULL OR EXISTS (SELECT 1 FROM ${s}.term_relationships r WHERE r.object_id = e.post_id AND r.taxonomy = 'post_tag' AND r.term_id = ANY($11)))) m`),
            [q.statuses === 'any' ? null : q.statuses, q.excludeHidden, q.startsAfter ?? null, q.startsBefore ?? null, q.endsAfter ?? null, q.endsBefore ?? null, q.featured ?? null, q.offset, q.limit, q.categoryIds ?? null, q.tagIds ?? null],
          );
          expect({ query: q, total, ids: items.map((item) => item.id) }).toEqual({ query: q, total: plain!.n, ids: plain!.ids });
        }
      }),
      {
        numRuns: 40,
        // Events ending before they start, after the end bound, in each way a term list is read: one term, two terms
        // of one list, terms of both lists. Random windows seldom make them (a few queries in two hundred).
        examples: [
          [
            [
              { start: DAY + 60, duration: 60, status: 'publish', hidden: false, categories: categories.slice(0, 1), tags: tags.slice(0, 1) },
              { start: 5 * DAY, duration: -5 * DAY + 60, status: 'publish', hidden: false, categories: categories.slice(1, 2), tags: tags.slice(0, 1) },
              { start: 4 * DAY, duration: -3 * DAY, status: 'publish', hidden: false, categories: categories.slice(0, 2), tags: [] },
            ],
            [categories.slice(1, 2), categories.slice(0, 2), categories].flatMap((categoryIds) =>
              [undefined, tags.slice(0, 1)].flatMap((tagIds) =>
                [0, 1, 2].map((offset) => ({
                  statuses: ['publish'] as EventQuery['statuses'],
                  excludeHidden: true,
                  startsAfter: at(0),
                  startsBefore: undefined,
                  endsAfter: undefined,
                  endsBefore: `${at(2 * DAY).slice(0, 10)} 23:59:59`,
                  offset,
                  limit: 1,
                  categoryIds,
                  tagIds,
                  featured: undefined,
                })),
              ),
            ),
          ],
          // Events starting at the end bound itself, one ending there too and one ending before it starts (the bound
          // on the start of the rows read first is inclusive, that of the others strict), beside one ending before it
          // starts just after the bound.
          [
            [
              { start: 3 * DAY, duration: 0, status: 'publish', hidden: false, categories: categories.slice(0, 1), tags: tags.slice(0, 1) },
              { start: 3 * DAY, duration: -60, status: 'publish', hidden: false, categories: categories.slice(1, 2), tags: tags.slice(0, 1) },
              { start: 3 * DAY + 60, duration: -120, status: 'publish', hidden: false, categories: categories.slice(0, 2), tags: tags.slice(0, 1) },
            ],
            [categories.slice(0, 1), categories.slice(0, 2)].flatMap((categoryIds) =>
              [undefined, tags.slice(0, 1)].map((tagIds) => ({
                statuses: ['publish'] as EventQuery['statuses'],
                excludeHidden: true,
                startsAfter: at(0),
                startsBefore: undefined,
                endsAfter: undefined,
                endsBefore: at(3 * DAY),
                offset: 0,
                limit: 2,
                categoryIds,
                tagIds,
                featured: undefined,
              })),
            ),
          ],
        ],
      },
    );
  });
});
