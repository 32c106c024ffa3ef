import {
  matchesSearch,
  searchTerms,
  statusMatches,
  StoreError,
  type AttachmentQuery,
  type AttachmentRecord,
  type AttachmentRepository,
  type ImageUsageQuery,
  type NewAttachment,
  type Page,
  type Patch,
  type PostRecord,
  type SearchTerm,
} from '@siterest/core';
import { postMap } from '../calendar/posts.js';
import { freeze, many, stripUndefined, takeId, type MemoryContext } from '../db.js';
import { mediaWrite } from './write.js';

/** Fields a calendar answer shows (an event's `image`): changing them advances the change version. */
const SHOWN = ['metadata', 'file', 'mimeType'] as const;

function compare(a: AttachmentRecord, b: AttachmentRecord, query: AttachmentQuery, include: readonly number[] | undefined): number {
  const key = (r: AttachmentRecord): string | number => {
    switch (query.orderBy) {
      case 'id':
        return r.id;
      case 'title':
        return r.title.toLowerCase();
      case 'slug':
        return r.slug;
      case 'modified':
        return r.modified;
      case 'author':
        return r.authorId;
      case 'parent':
        return r.parentId;
      case 'include':
        return include ? include.indexOf(r.id) : r.id;
      default:
        return r.date;
    }
  };
  const ka = key(a);
  const kb = key(b);
  const order = ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
  return query.order === 'asc' || query.orderBy === 'include' ? order : -order;
}

function matches(record: AttachmentRecord, query: AttachmentQuery, words: readonly SearchTerm[]): boolean {
  if (!statusMatches(query.statuses, record.status)) return false;
  if (query.include && !query.include.includes(record.id)) return false;
  if (query.exclude?.includes(record.id)) return false;
  if (query.parentIds && !query.parentIds.includes(record.parentId)) return false;
  if (query.authorIds && !query.authorIds.includes(record.authorId)) return false;
  if (query.excludeParentIds?.includes(record.parentId)) return false;
  if (query.excludeAuthorIds?.includes(record.authorId)) return false;
  if (query.modifiedAfter !== undefined && !(record.modified > query.modifiedAfter)) return false;
  if (query.modifiedBefore !== undefined && !(record.modified < query.modifiedBefore)) return false;
  if (query.slugs && !query.slugs.includes(record.slug)) return false;
  if (query.after !== undefined && !(record.date > query.after)) return false;
  if (query.before !== undefined && !(record.date < query.before)) return false;
  if (query.mimeTypes && !query.mimeTypes.some((m) => (m.endsWith('/') ? record.mimeType.startsWith(m) : record.mimeType === m))) return false;
  if (words.length && !matchesSearch(words, [record.title, record.content, record.excerpt, record.file.split('/').pop() ?? ''])) return false;
  return true;
}

export function attachmentRepository(context: MemoryContext): AttachmentRepository {
  const { db } = context;
  const map = db.attachments;
  return {
    get: async (id) => map.get(id) ?? null,
    getMany: async (ids) => many(map, ids),
    create: (input: NewAttachment) =>
      mediaWrite(
        context,
        (journal) => {
          const id = takeId(db.nextPostId, journal);
          const record = freeze({ ...structuredClone(input), id } as AttachmentRecord);
          db.postTypes.set(id, record.type, journal);
          map.set(id, record, journal);
          return record;
        },
        () => false,
      ),
    update: (id: number, patch: Patch<AttachmentRecord>) =>
      mediaWrite(
        context,
        (journal) => {
          const current = map.get(id);
          if (!current) throw new StoreError('not_found', `No attachment ${id}.`);
          const next = freeze({ ...current, ...structuredClone(stripUndefined(patch)), id, type: current.type } as AttachmentRecord);
          map.set(id, next, journal);
          return next;
        },
        () => SHOWN.some((field) => patch[field] !== undefined),
      ),
    delete: (id: number) =>
      mediaWrite(
        context,
        (journal) => {
          if (!map.delete(id, journal)) return false;
          db.postTypes.delete(id, journal);
          return true;
        },
        (deleted) => deleted,
      ),
    list: async (query: AttachmentQuery): Promise<Page<AttachmentRecord>> => {
      const words = query.search ? searchTerms(query.search) : [];
      const found = [...map.values()].filter((record) => matches(record, query, words));
      found.sort((a, b) => compare(a, b, query, query.include));
      return { items: found.slice(query.offset, query.offset + query.limit), total: found.length };
    },
    findByUrl: async (url) => {
      for (const record of map.values()) if (record.sourceUrl === url || record.guid === url) return record;
      return null;
    },
    filesIn: async (folder) => [...map.values()].map((r) => r.file).filter((file) => file.startsWith(folder) && !file.slice(folder.length).includes('/')),
    featuredImages: async (offset, limit) => {
      const firstUse = new Map<number, number>();
      for (const [id, type] of db.postTypes.map) {
        const post = (postMap(db, type)?.get(id) ?? map.get(id)) as PostRecord | undefined;
        if (!post || !post.imageId) continue;
        const seen = firstUse.get(post.imageId);
        if (seen === undefined || id < seen) firstUse.set(post.imageId, id);
      }
      const ordered = [...firstUse].sort((a, b) => a[1] - b[1]).map(([imageId]) => imageId);
      return { items: ordered.slice(offset, offset + limit), total: ordered.length };
    },
    postsUsingImage: async (query: ImageUsageQuery) => {
      const needle = `wp-image-${query.attachmentId}`;
      const found: Array<{ id: number; type: string }> = [];
      for (const [id, type] of db.postTypes.map) {
        if (query.types && !query.types.includes(type)) continue;
        if (query.ids && query.ids.length && !query.ids.includes(id)) continue;
        const post = postMap(db, type)?.get(id);
        if (post && post.content.toLowerCase().includes(needle)) found.push({ id, type });
      }
      found.sort((a, b) => a.id - b.id);
      return found.slice(query.offset, query.offset + query.limit);
    },
  };
}
