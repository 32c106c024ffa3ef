import type { NewPopup, PopupCounts, PopupRecord, PopupRepository } from '@siterest/core';
import { statusMatches } from '@siterest/core';
import { insertPost } from '../calendar/posts.js';
import { freeze, stripUndefined, type MemoryContext } from '../db.js';

const UNVERSIONED = { versioned: false } as const;

const counts = (p: PopupRecord): PopupCounts => ({ id: p.id, openCount: p.openCount, openCountTotal: p.openCountTotal, lastOpened: p.lastOpened });

/** Popups over the shared MemoryDb. An open is one step under the write lock, so concurrent opens never lose one. */
export function popupRepository({ db, write }: MemoryContext): PopupRepository {
  return {
    get: async (id) => db.popups.get(id) ?? null,
    list: async (query) => {
      const matching = [...db.popups.values()].filter((p) => statusMatches(query.statuses, p.status)).sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
      return { items: matching.slice(query.offset, query.offset + query.limit), total: matching.length };
    },
    create: (input: NewPopup) =>
      write(
        (journal) =>
          insertPost(db, db.popups, { ...input, openCount: input.openCount ?? 0, openCountTotal: input.openCountTotal ?? 0, lastOpened: input.lastOpened ?? 0 }, journal),
        UNVERSIONED,
      ),
    update: (id, patch) =>
      write((journal) => {
        const current = db.popups.get(id);
        if (!current) return null;
        const next = freeze({ ...current, ...stripUndefined(patch), id, type: current.type });
        db.popups.set(id, next, journal);
        return next;
      }, UNVERSIONED),
    delete: (id) =>
      write((journal) => {
        if (!db.popups.has(id)) return false;
        db.popups.delete(id, journal);
        db.postTypes.delete(id, journal);
        return true;
      }, UNVERSIONED),
    recordOpen: (id, localTimestamp) =>
      write((journal) => {
        const current = db.popups.get(id);
        if (!current || current.status === 'trash') return null;
        const next = freeze({ ...current, openCount: current.openCount + 1, openCountTotal: current.openCountTotal + 1, lastOpened: localTimestamp });
        db.popups.set(id, next, journal);
        db.popupOpens.value++;
        journal.record(() => {
          db.popupOpens.value--;
        });
        return counts(next);
      }, UNVERSIONED),
    resetCount: (id) =>
      write((journal) => {
        const current = db.popups.get(id);
        if (!current) return null;
        const next = freeze({ ...current, openCount: 0 });
        db.popups.set(id, next, journal);
        return counts(next);
      }, UNVERSIONED),
    totalOpens: async () => db.popupOpens.value,
  };
}
