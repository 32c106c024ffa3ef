import type { EventQuery } from '@siterest/core';
import { postgresStore } from '../packages/store-postgres/src/index.js';
import { eventListSql } from '../packages/store-postgres/src/repositories/calendar/event-list.js';
import { tablesIn } from '../packages/store-postgres/src/tables.js';
const store = postgresStore({ connectionString: 'postgres://postgres@127.0.0.1:5432/siterest_bench_h1', schema: 'bench_1000000' });
const base = { excludeHidden: true, orderBy: 'start', offset: 0, limit: 10 } as const;
const cases: Record<string, EventQuery> = {
  default: { ...base, statuses: ['publish'], startsAfter: '2026-11-23 00:00:00', endsBefore: '2028-11-24 23:59:59' },
  page50: { ...base, offset: 490, statuses: ['publish'], startsAfter: '2026-11-23 00:00:00', endsBefore: '2028-11-24 23:59:59' },
  editor: { ...base, statuses: ['publish', 'private'], startsAfter: '2026-11-23 00:00:00', endsBefore: '2028-11-24 23:59:59' },
  month: { ...base, statuses: ['publish'], startsAfter: '2026-12-24 00:00:00', endsBefore: '2027-01-23 23:59:59' },
  week: { ...base, statuses: ['publish'], startsAfter: '2026-11-24 00:00:00', endsBefore: '2026-12-01 23:59:59' },
  weekLastPage: { ...base, offset: 2140, statuses: ['publish'], startsAfter: '2026-11-24 00:00:00', endsBefore: '2026-12-01 23:59:59' },
};
const which = process.argv[2];
for (const [name, q] of Object.entries(cases)) {
  if (which && which !== name) continue;
  const sql = eventListSql({ sql: store.sql, t: tablesIn('bench_1000000') }, q);
  for (const [kind, text, params] of [['count', sql.count, sql.countParams], ['page', sql.page, sql.pageParams]] as const) {
    for (let i = 0; i < 3; i++) await store.sql.query(text, params);
    const rows = await store.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    const plan = rows.map((r) => r['QUERY PLAN']);
    console.log(name, kind, plan.at(-1), process.env.PLAN ? '\n' + plan.join('\n') : '');
  }
}
await store.close();
