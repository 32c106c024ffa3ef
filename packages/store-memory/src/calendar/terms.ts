import { boundedSearch, StoreError, type NewTerm, type Page, type TermPatch, type TermQuery, type TermRecord, type TermRepository } from '@siterest/core';
import { freeze, lower, many, stripUndefined, takeId, type MemoryContext, type MemoryDb } from '../db.js';
import { reindex } from './events.js';

function withCount(db: MemoryDb, term: Omit<TermRecord, 'count'>): TermRecord {
  return { ...term, count: db.termCounts.get(term.id) ?? 0 };
}

export function termRepository({ db, write }: MemoryContext): TermRepository {
  return {
    // Reads answer at once (see Maybe in @siterest/core).
    get: (id: number) => {
      const term = db.terms.get(id);
      return term ? withCount(db, term) : null;
    },
    getMany: (ids: readonly number[]) => many(db.terms, ids).map((t) => withCount(db, t)),
    findBySlug: (taxonomy: string, slug: string) => {
      for (const term of db.terms.values()) {
        if (term.taxonomy === taxonomy && term.slug === slug) return withCount(db, term);
      }
      return null;
    },
    findByName: (taxonomy: string, name: string, parentId?: number) =>
      [...db.terms.values()]
        .filter((t) => t.taxonomy === taxonomy && lower(t.name) === lower(name) && (parentId === undefined || t.parentId === parentId))
        .sort((a, b) => a.id - b.id)
        .map((t) => withCount(db, t)),
    list: (query: TermQuery) => listTerms(db, query),
    create: (term: NewTerm) =>
      write((j) => {
        const id = takeId(db.nextTermId, j);
        const record = freeze({ ...term, termGroup: term.termGroup ?? 0, id });
        db.terms.set(id, record, j);
        db.termCounts.set(id, 0, j);
        return withCount(db, record);
      }),
    update: (id: number, patch: TermPatch) =>
      write((j) => {
        const current = db.terms.get(id);
        if (!current) throw new StoreError('not_found', `No term ${id}.`);
        const next = freeze({ ...current, ...stripUndefined(patch), id });
        db.terms.set(id, next, j);
        return withCount(db, next);
      }),
    delete: (id: number) =>
      write((j) => {
        const term = db.terms.get(id);
        if (!term) return false;
        for (const child of [...db.terms.values()]) {
          if (child.parentId === id) db.terms.set(child.id, freeze({ ...child, parentId: term.parentId }), j);
        }
        for (const event of [...db.events.values()]) {
          if (event.categoryIds.includes(id) || event.tagIds.includes(id)) {
            const next = freeze({ ...event, categoryIds: event.categoryIds.filter((t) => t !== id), tagIds: event.tagIds.filter((t) => t !== id) });
            db.events.set(event.id, next, j);
            reindex(db, event, next, j);
          }
        }
        db.terms.delete(id, j);
        db.termCounts.delete(id, j);
        return true;
      }),
  };
}

function listTerms(db: MemoryDb, query: TermQuery): Page<TermRecord> {
  const all = [...db.terms.values()].filter((t) => t.taxonomy === query.taxonomy).map((t) => withCount(db, t));
  let objectTerms: Set<number> | null = null;
  if (query.objectId !== undefined) {
    const event = db.events.get(query.objectId);
    objectTerms = new Set(event ? [...event.categoryIds, ...event.tagIds] : []);
  }
  const used = new Set(all.filter((t) => t.count > 0).map((t) => t.id));
  if (query.hideEmpty && query.hierarchical) {
    // An empty term stays listed while one of its descendants is used (WordPress get_terms).
    const byId = new Map(all.map((t) => [t.id, t]));
    for (const term of all.filter((t) => t.count > 0)) {
      let parent = byId.get(term.parentId);
      const seen = new Set<number>();
      while (parent && !seen.has(parent.id)) {
        seen.add(parent.id);
        used.add(parent.id);
        parent = byId.get(parent.parentId);
      }
    }
  }
  const needle = query.search ? boundedSearch(query.search).toLowerCase() : undefined;
  const matches = all.filter((t) => {
    if (query.include && !query.include.includes(t.id)) return false;
    if (query.exclude?.includes(t.id)) return false;
    if (query.slugs && !query.slugs.includes(t.slug)) return false;
    if (query.parentId !== undefined && t.parentId !== query.parentId) return false;
    if (objectTerms && !objectTerms.has(t.id)) return false;
    if (query.hideEmpty && !used.has(t.id)) return false;
    if (needle && !t.name.toLowerCase().includes(needle) && !t.slug.toLowerCase().includes(needle)) return false;
    return true;
  });
  const dir = query.order === 'desc' ? -1 : 1;
  const compare = (a: TermRecord, b: TermRecord): number => {
    switch (query.orderBy) {
      case 'none':
        return a.id - b.id;
      case 'include':
        return (query.include!.indexOf(a.id) - query.include!.indexOf(b.id)) * dir;
      case 'id':
        return (a.id - b.id) * dir;
      case 'count':
      case 'parent':
      case 'term_group': {
        const key = query.orderBy === 'count' ? 'count' : query.orderBy === 'parent' ? 'parentId' : 'termGroup';
        return (a[key] - b[key]) * dir || a.id - b.id;
      }
      default: {
        const key = query.orderBy === 'slug' ? 'slug' : query.orderBy === 'description' ? 'description' : 'name';
        const x = a[key].toLowerCase();
        const y = b[key].toLowerCase();
        return (x < y ? -1 : x > y ? 1 : 0) * dir || a.id - b.id;
      }
    }
  };
  matches.sort(compare);
  return { items: matches.slice(query.offset, query.offset + query.limit), total: matches.length };
}
