import type { ContentRecord, ContentRepository, NewContent, SeoRankCounts } from '@siterest/core';
import { statusMatches } from '@siterest/core';
import { insertPost } from '../calendar/posts.js';
import { freeze, stripUndefined, type MemoryContext } from '../db.js';

// Content never shows in an answer the list cache keeps: its writes leave the change version alone.
const UNVERSIONED = { versioned: false } as const;

const newestFirst = (a: ContentRecord, b: ContentRecord) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1);

/** Articles and videos over the shared MemoryDb. */
export function contentRepository({ db, write }: MemoryContext): ContentRepository {
  return {
    get: async (id) => db.content.get(id) ?? null,
    list: async (query) => {
      const types = new Set(query.types);
      const categories = query.categoryIds ? new Set(query.categoryIds) : null;
      const matching: ContentRecord[] = [];
      for (const record of db.content.values()) {
        if (!types.has(record.type) || !statusMatches(query.statuses, record.status)) continue;
        if (query.withoutPassword && record.password !== '') continue;
        if (categories && !record.categoryIds.some((id) => categories.has(id))) continue;
        matching.push(record);
      }
      matching.sort(newestFirst);
      return { items: matching.slice(query.offset, query.offset + query.limit), total: matching.length };
    },
    create: (input: NewContent) => write((journal) => insertPost(db, db.content, { ...input, categoryIds: [...input.categoryIds] }, journal), UNVERSIONED),
    update: (id, patch) =>
      write((journal) => {
        const current = db.content.get(id);
        if (!current) return null;
        const next = freeze({ ...current, ...stripUndefined(patch), id, type: current.type });
        db.content.set(id, next, journal);
        return next;
      }, UNVERSIONED),
    delete: (id) =>
      write((journal) => {
        if (!db.content.has(id)) return false;
        db.content.delete(id, journal);
        db.postTypes.delete(id, journal);
        return true;
      }, UNVERSIONED),
    seoRankCounts: async (query) => {
      const counts: SeoRankCounts = { bad: 0, ok: 0, good: 0, na: 0, noindex: 0 };
      for (const record of db.content.values()) {
        if (record.type !== query.type || record.status !== query.status) continue;
        if (query.authorId !== undefined && record.authorId !== query.authorId) continue;
        if (record.seoScore >= 1 && record.seoScore <= 40) counts.bad++;
        else if (record.seoScore >= 41 && record.seoScore <= 70) counts.ok++;
        else if (record.seoScore >= 71 && record.seoScore <= 100) counts.good++;
        if (record.focusKeyphrase === '') counts.na++;
        if (record.noindex) counts.noindex++;
      }
      return counts;
    },
    linksPending: async (limit) => {
      const pending: ContentRecord[] = [];
      for (const record of db.content.values()) {
        if (record.status === 'publish' && record.linkCount === null) pending.push(record);
      }
      return pending.sort((a, b) => a.id - b.id).slice(0, limit);
    },
    setLinkCount: (id, count, content) =>
      write((journal) => {
        const current = db.content.get(id);
        if (!current || current.content !== content) return false;
        db.content.set(id, freeze({ ...current, linkCount: count }), journal);
        return true;
      }, UNVERSIONED),
  };
}
