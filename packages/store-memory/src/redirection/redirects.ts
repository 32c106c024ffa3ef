import { StoreError, type NewRedirect, type RedirectFilter, type RedirectRecord, type RedirectRepository } from '@siterest/core';
import { freeze, takeId, type MemoryContext } from '../db.js';
import type { Journal } from '../journal.js';
import { contains, page, sortBy } from './compare.js';
import type { RedirectionTables } from './tables.js';
import { redirectionWrite } from './write.js';

function redirectMatches(t: RedirectionTables, r: RedirectRecord, f: RedirectFilter): boolean {
  if (f.ids && !f.ids.includes(r.id)) return false;
  if (f.status !== undefined && r.status !== f.status) return false;
  if (f.regex !== undefined && r.regex !== f.regex) return false;
  if (f.id !== undefined && r.id !== f.id) return false;
  if (f.groupId !== undefined && r.groupId !== f.groupId) return false;
  if (f.moduleId !== undefined) {
    const group = t.groups.get(r.groupId);
    if (!group || group.moduleId !== f.moduleId) return false;
    if (f.enabledGroups && group.status !== 'enabled') return false;
  }
  if (f.matchType !== undefined && r.matchType !== f.matchType) return false;
  if (f.actionType !== undefined && r.actionType !== f.actionType) return false;
  if (f.actionCode !== undefined && r.actionCode !== f.actionCode) return false;
  if (f.lastAccessBefore !== undefined && !(r.lastAccess < f.lastAccessBefore)) return false;
  if (f.neverAccessed && r.lastAccess !== 0) return false;
  if (f.url !== undefined && !contains(r.url, f.url)) return false;
  if (f.title !== undefined && !contains(r.title, f.title)) return false;
  if (f.target !== undefined && !contains(r.actionData ? JSON.stringify(r.actionData) : '', f.target)) return false;
  return true;
}

const ORDER_KEYS = {
  id: (r: RedirectRecord) => r.id,
  url: (r: RedirectRecord) => r.url.toLowerCase(),
  hits: (r: RedirectRecord) => r.hits,
  lastAccess: (r: RedirectRecord) => r.lastAccess,
  position: (r: RedirectRecord) => r.position,
} as const;

export function store(t: RedirectionTables, record: RedirectRecord, journal: Journal): RedirectRecord {
  const frozen = freeze(structuredClone(record));
  t.redirects.set(record.id, frozen, journal);
  return frozen;
}

export function insertRedirect(t: RedirectionTables, input: NewRedirect, appendPosition: boolean, journal: Journal): RedirectRecord {
  if (!t.groups.has(input.groupId)) throw new StoreError('not_found', `No redirect group ${input.groupId}.`);
  let position = input.position;
  if (appendPosition) {
    position = 0;
    for (const r of t.redirects.values()) if (r.groupId === input.groupId) position++;
  }
  return store(t, { ...input, position, id: takeId(t.nextRedirectId, journal) }, journal);
}

export function removeRedirects(t: RedirectionTables, predicate: (r: RedirectRecord) => boolean, journal: Journal): number {
  let n = 0;
  for (const r of [...t.redirects.values()]) if (predicate(r) && t.redirects.delete(r.id, journal)) n++;
  return n;
}

export function redirectRepository(context: MemoryContext, t: RedirectionTables): RedirectRepository {
  const select = (filter: RedirectFilter) => [...t.redirects.values()].filter((r) => redirectMatches(t, r, filter));
  const change = (filter: RedirectFilter, patch: Partial<RedirectRecord>) =>
    redirectionWrite(context, (j) => {
      let n = 0;
      for (const r of select(filter)) {
        store(t, { ...r, ...patch }, j);
        n++;
      }
      return n;
    });
  return {
    get: async (id) => t.redirects.get(id) ?? null,
    list: async (query) => page(sortBy(select(query.filter), ORDER_KEYS[query.orderBy], query.direction), query.offset, query.limit),
    all: async (filter) => sortBy(select(filter), (r) => r.position, 'asc'),
    create: (input, options) => redirectionWrite(context, (j) => insertRedirect(t, input, options.appendPosition, j)),
    update: (id, patch) =>
      redirectionWrite(context, (j) => {
        const current = t.redirects.get(id);
        if (!current) return null;
        if (patch.groupId !== undefined && !t.groups.has(patch.groupId)) throw new StoreError('not_found', `No redirect group ${patch.groupId}.`);
        const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
        return store(t, { ...current, ...defined, id }, j);
      }),
    setStatus: (filter, status) => change(filter, { status }),
    resetHits: (filter) => change(filter, { hits: 0, lastAccess: 0 }),
    delete: (filter) => redirectionWrite(context, (j) => removeRedirects(t, (r) => redirectMatches(t, r, filter), j)),
    countByGroup: async () => {
      const counts = new Map<number, number>();
      for (const r of t.redirects.values()) counts.set(r.groupId, (counts.get(r.groupId) ?? 0) + 1);
      return counts;
    },
    recordHits: (hits) =>
      redirectionWrite(context, (j) => {
        for (const hit of hits) {
          const r = t.redirects.get(hit.id);
          if (r) store(t, { ...r, hits: r.hits + hit.count, lastAccess: Math.max(r.lastAccess, hit.at) }, j);
        }
      }),
  };
}
