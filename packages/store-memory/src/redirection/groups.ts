import type { GroupFilter, RedirectGroupRecord, RedirectGroupRepository } from '@siterest/core';
import { freeze, takeId, type MemoryContext } from '../db.js';
import { contains, page, sortBy } from './compare.js';
import { removeRedirects, store } from './redirects.js';
import type { RedirectionTables } from './tables.js';
import { redirectionWrite } from './write.js';

function groupMatches(g: RedirectGroupRecord, f: GroupFilter): boolean {
  if (f.ids && !f.ids.includes(g.id)) return false;
  if (f.status !== undefined && g.status !== f.status) return false;
  if (f.moduleId !== undefined && g.moduleId !== f.moduleId) return false;
  if (f.name !== undefined && !contains(g.name, f.name)) return false;
  return true;
}

export function groupRepository(context: MemoryContext, t: RedirectionTables): RedirectGroupRepository {
  const select = (filter: GroupFilter) => [...t.groups.values()].filter((g) => groupMatches(g, filter));
  return {
    get: async (id) => t.groups.get(id) ?? null,
    list: async (query) =>
      page(sortBy(select(query.filter), query.orderBy === 'name' ? (g) => g.name.toLowerCase() : (g) => g.id, query.direction), query.offset, query.limit),
    all: async () => sortBy([...t.groups.values()], (g) => g.id, 'asc'),
    create: (input) =>
      redirectionWrite(context, (j) => {
        const record = freeze({ ...input, id: takeId(t.nextGroupId, j) });
        t.groups.set(record.id, record, j);
        return record;
      }),
    update: (id, patch) =>
      redirectionWrite(context, (j) => {
        const current = t.groups.get(id);
        if (!current) return null;
        const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
        const record = freeze({ ...current, ...defined, id });
        t.groups.set(id, record, j);
        return record;
      }),
    setStatus: (filter, status) =>
      redirectionWrite(context, (j) => {
        const groups = select(filter);
        for (const g of groups) {
          t.groups.set(g.id, freeze({ ...g, status }), j);
          for (const r of [...t.redirects.values()]) if (r.groupId === g.id) store(t, { ...r, status }, j);
        }
        return groups.length;
      }),
    delete: (filter) =>
      redirectionWrite(context, (j) => {
        const groups = select(filter);
        const ids = new Set(groups.map((g) => g.id));
        removeRedirects(t, (r) => ids.has(r.groupId), j);
        for (const g of groups) t.groups.delete(g.id, j);
        return groups.length;
      }),
  };
}
