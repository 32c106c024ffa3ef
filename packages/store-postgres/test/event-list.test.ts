import { describe, expect, it } from 'vitest';
import { newEvent, taxonomies } from '@siterest/core/testing';
import { useMigratedStore } from './support/database.js';

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
});
