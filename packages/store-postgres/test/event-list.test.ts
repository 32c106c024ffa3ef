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
});
