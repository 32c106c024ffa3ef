import type { LogFilter, RedirectLogRecord, RedirectLogRepository } from '@siterest/core';
import { freeze, takeId, type Counter, type MemoryContext } from '../db.js';
import type { LogRows } from './tables.js';
import { contains, page, sortBy } from './compare.js';
import { redirectionWrite } from './write.js';

function logMatches(row: RedirectLogRecord, f: LogFilter): boolean {
  if (f.ids && !f.ids.includes(row.id)) return false;
  if (f.ip !== undefined && row.ip !== f.ip) return false;
  if (f.ipContains !== undefined && !contains(row.ip, f.ipContains)) return false;
  if (f.urlExact !== undefined && row.url !== f.urlExact) return false;
  if (f.url !== undefined && !contains(row.url, f.url)) return false;
  if (f.referrer !== undefined && !contains(row.referrer, f.referrer)) return false;
  if (f.agent !== undefined && !contains(row.agent, f.agent)) return false;
  if (f.domain !== undefined && !contains(row.domain, f.domain)) return false;
  if (f.target !== undefined && !contains(row.sentTo, f.target)) return false;
  if (f.method !== undefined && row.requestMethod !== f.method) return false;
  if (f.httpCode !== undefined && row.httpCode !== f.httpCode) return false;
  if (f.redirectBy !== undefined && row.redirectBy !== f.redirectBy) return false;
  if (f.fieldIn && !f.fieldIn.values.includes(row[f.fieldIn.field] ?? '')) return false;
  return true;
}

/**
 * The redirect log or the 404 log: the same shape of rows in a map of their own, holding at most `maxBytes` of
 * rows (the oldest go first). Rows are otherwise kept for Redirection's days (`expire_redirect`, `expire_404`),
 * which anonymous requests could fill with process memory long before.
 */
export function logRepository(context: MemoryContext, rows: LogRows, nextId: Counter, maxBytes: number): RedirectLogRepository {
  const select = (filter: LogFilter) => [...rows.values()].filter((row) => logMatches(row, filter));
  const remove = (predicate: (row: RedirectLogRecord) => boolean, limit = Infinity) =>
    redirectionWrite(context, (j) => {
      let n = 0;
      for (const row of [...rows.values()]) {
        if (n >= limit) break;
        if (predicate(row) && rows.delete(row.id, j)) n++;
      }
      return n;
    });
  return {
    insert: (input) =>
      redirectionWrite(context, (j) => {
        for (const row of input) {
          const record = freeze({ ...structuredClone(row), id: takeId(nextId, j) });
          rows.set(record.id, record, j);
        }
        while (rows.bytes > maxBytes && rows.size > 0) rows.delete(rows.map.keys().next().value!, j);
      }),
    list: async (query) => {
      const key = query.orderBy === 'id' ? (r: RedirectLogRecord) => r.id : (r: RedirectLogRecord) => r[query.orderBy];
      return page(sortBy(select(query.filter), key, query.direction), query.offset, query.limit);
    },
    groups: async (query) => {
      const counts = new Map<string, number>();
      for (const row of select(query.filter)) {
        const value = row[query.field] ?? '';
        counts.set(value, (counts.get(value) ?? 0) + 1);
      }
      const sign = query.direction === 'asc' ? 1 : -1;
      const grouped = [...counts].map(([value, count]) => ({ value, count }));
      grouped.sort((a, b) => (a.count - b.count) * sign || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
      return page(grouped, query.offset, query.limit);
    },
    delete: (filter) => remove((row) => logMatches(row, filter)),
    expire: (before, limit) => remove((row) => row.created < before, limit),
  };
}
