import { randomBytes } from 'node:crypto';
import {
  matchesSearch,
  searchTerms,
  type ContactFormOrderKey,
  type ContactFormQuery,
  type ContactFormRecord,
  type ContactFormRepository,
  type NewContactForm,
} from '@siterest/core';
import { insertPost } from '../calendar/posts.js';
import { freeze, stripUndefined, type MemoryContext } from '../db.js';
import { outboxRepository, submissionRepository } from './submissions.js';

/** Most addresses whose feedback posts are counted in one window (about 100 bytes each). */
const MAX_RATE_KEYS = 100_000;

const UNVERSIONED = { versioned: false } as const;


const SORTERS: Record<ContactFormOrderKey, (a: ContactFormRecord, b: ContactFormRecord) => number> = {
  id: (a, b) => a.id - b.id,
  title: (a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0),
  slug: (a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0),
  date: (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0),
  modified: (a, b) => (a.modified < b.modified ? -1 : a.modified > b.modified ? 1 : 0),
  author: (a, b) => a.authorId - b.authorId,
  menu_order: (a, b) => a.menuOrder - b.menuOrder,
  parent: (a, b) => a.parentId - b.parentId,
};

/** Contact forms over the shared MemoryDb; writes never advance the change version. */
export function contactFormRepository(context: MemoryContext): ContactFormRepository {
  const { db, write } = context;
  return {
    get: async (id) => db.contactForms.get(id) ?? null,
    list: async (query: ContactFormQuery) => {
      const terms = query.search ? searchTerms(query.search) : [];
      const sign = query.order === 'asc' ? 1 : -1;
      const items = [...db.contactForms.values()]
        .filter((f) => f.status !== 'trash' && f.status !== 'auto-draft')
        .filter((f) => !terms.length || matchesSearch(terms, [f.title, f.content, f.excerpt]))
        .sort((a, b) => {
          for (const key of query.orderBy) {
            const d = SORTERS[key](a, b);
            if (d !== 0) return d * sign;
          }
          return (a.id - b.id) * sign;
        });
      return query.limit === null ? items.slice(query.offset) : items.slice(query.offset, query.offset + query.limit);
    },
    create: (input: NewContactForm) =>
      write((journal) => {
        const base = input.slug || 'untitled';
        const taken = new Set([...db.contactForms.values()].map((f) => f.slug));
        let slug = base;
        for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
        return insertPost(db, db.contactForms, { ...input, slug }, journal);
      }, UNVERSIONED),
    update: (id, patch) =>
      write((journal) => {
        const current = db.contactForms.get(id);
        if (!current) return null;
        const next = freeze({ ...current, ...stripUndefined(patch), id, type: current.type, slug: current.slug, hash: current.hash });
        db.contactForms.set(id, next, journal);
        return next;
      }, UNVERSIONED),
    delete: (id) =>
      write((journal) => {
        if (!db.contactForms.has(id)) return false;
        db.contactForms.delete(id, journal);
        db.postTypes.delete(id, journal);
        return true;
      }, UNVERSIONED),
    submissions: submissionRepository(context),
    outbox: outboxRepository(context),
    countHit: (key, windowStart) =>
      write(() => {
        // Earlier windows' hits count no more: dropped at once when a later window starts, never by scanning.
        if (windowStart > db.rateWindow) {
          db.rateHits.clear();
          db.rateWindow = windowStart;
        }
        const current = db.rateHits.get(key);
        const next = current && current.window === windowStart ? { window: windowStart, count: current.count + 1 } : { window: windowStart, count: 1 };
        db.rateHits.delete(key);
        db.rateHits.set(key, next);
        // Senders with more addresses than this in one window are past any per-address limit anyway: the key
        // counted longest ago is forgotten, so the map stays bounded.
        if (db.rateHits.size > MAX_RATE_KEYS) db.rateHits.delete(db.rateHits.keys().next().value!);
        return next.count;
      }, UNVERSIONED),
    secret: () =>
      write(() => {
        db.secrets.contactForms ??= randomBytes(32).toString('base64url');
        return db.secrets.contactForms;
      }, UNVERSIONED),
  };
}
