import { describe, expect, it } from 'vitest';
import type { AttachmentQuery } from '@siterest/core';
import { useMigratedStore } from './support/database.js';

/** How PostgreSQL reads a page of a large media library in the orders the media routes ask for. */
const migrated = useMigratedStore('media_plans');

const LIBRARY = 5_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

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
      const sql = store.sql;
      const run = sql.query;
      const seen: Array<[string, unknown[]]> = [];
      sql.query = ((text: string, values?: unknown[], ...rest: unknown[]) => {
        seen.push([text, values ?? []]);
        return (run as (...args: unknown[]) => Promise<unknown>).call(sql, text, values, ...rest);
      }) as typeof sql.query;
      let page: Awaited<ReturnType<typeof store.attachments.list>>;
      try {
        page = await store.attachments.list(query);
      } finally {
        sql.query = run;
      }
      const titles = page.items.map((item) => item.title.toLowerCase());
      expect(titles).toEqual([...titles].sort((a, b) => (order === 'asc' ? (a < b ? -1 : 1) : a < b ? 1 : -1)));
      expect(page.total).toBe(LIBRARY);

      const [text, values] = seen.find(([statement]) => /ORDER BY/.test(statement))!;
      const [row] = await store.sql.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
      const plan = (row!['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
      const nodes = nodesOf(plan);
      // Without the index: a Sort over a scan that returns all 5,000 attachments.
      expect(nodes.some((node) => node['Node Type'] === 'Sort'), JSON.stringify(plan)).toBe(false);
      const postsRead = nodes.filter((node) => node['Relation Name'] === 'posts').reduce((sum, node) => sum + (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1), 0);
      expect(postsRead, JSON.stringify(plan)).toBeLessThan(100);
    }
  });
});
