import { describe, expect, it } from 'vitest';
import type { AttachmentQuery } from '@siterest/core';
import { useMigratedStore } from './support/database.js';
import { explainAnalyze, nodesOf, rowsRead, withStatements } from './support/plans.js';

/** How PostgreSQL reads a page of a large media library in the orders the media routes ask for. */
const migrated = useMigratedStore('media_plans');

const LIBRARY = 5_000;

describe('a page of the media library', () => {
  it('in title order reads the page from an index, not every attachment sorted first', async () => {
    const { store, schema } = migrated;
    const stamp = "'2026-01-01 00:00:00'";
    await store.sql.query(
      `INSERT INTO "${schema}".posts (id, type, status, title, post_date, post_date_gmt, post_modified, post_modified_gmt)
       SELECT 200000 + g, 'attachment', 'inherit', 'Photo ' || md5(g::text), ${stamp}, ${stamp}, ${stamp}, ${stamp} FROM generate_series(1, ${LIBRARY}) g`,
    );
    await store.sql.query(`INSERT INTO "${schema}".attachments (post_id, mime_type, file) SELECT id, 'image/jpeg', id || '.jpg' FROM "${schema}".posts WHERE type = 'attachment'`);
    await store.sql.query(`ANALYZE "${schema}".posts, "${schema}".attachments`);

    for (const order of ['asc', 'desc'] as const) {
      const query: AttachmentQuery = { statuses: ['inherit'], orderBy: 'title', order, offset: 0, limit: 10 };
      const { result: page, statements } = await withStatements(store, () => store.attachments.list(query));
      const titles = page.items.map((item) => item.title.toLowerCase());
      expect(titles).toEqual([...titles].sort((a, b) => (order === 'asc' ? (a < b ? -1 : 1) : a < b ? 1 : -1)));
      expect(page.total).toBe(LIBRARY);

      const [text, values] = statements.find(([statement]) => /ORDER BY/.test(statement))!;
      const plan = await explainAnalyze(store, text, values);
      // Without the index: a Sort over a scan that returns all 5,000 attachments.
      expect(nodesOf(plan).some((node) => node['Node Type'] === 'Sort'), JSON.stringify(plan)).toBe(false);
      const postsRead = rowsRead(plan, 'posts');
      expect(postsRead, JSON.stringify(plan)).toBeLessThan(100);
    }
  });
});
