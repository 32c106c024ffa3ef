import { calendar, StoreError, type Patch, type PostIndex, type PostRecord } from '@siterest/core';
import { freeze, stripUndefined, takeId, type MemoryContext, type MemoryDb } from '../db.js';
import type { Journal, JournaledMap } from '../journal.js';

/** The map holding posts of a type, if the store knows the type. */
export function postMap(db: MemoryDb, type: string): JournaledMap<number, PostRecord> | undefined {
  if (type === calendar.EVENT_TYPE) return db.events as unknown as JournaledMap<number, PostRecord>;
  if (type === calendar.VENUE_TYPE) return db.venues as unknown as JournaledMap<number, PostRecord>;
  if (type === calendar.ORGANIZER_TYPE) return db.organizers as unknown as JournaledMap<number, PostRecord>;
  if (type === 'attachment') return db.attachments as unknown as JournaledMap<number, PostRecord>;
  return undefined;
}

/** Posts of a type, whatever map keeps them (content types share one map). */
function postsOfType(db: MemoryDb, type: string): Iterable<PostRecord> {
  const map = postMap(db, type);
  if (map) return map.values();
  return [...db.content.values()].filter((post) => post.type === type);
}

export function postIndex({ db }: MemoryContext): PostIndex {
  return {
    typeOf: async (id: number) => db.postTypes.get(id) ?? null,
    idBySlug: async (type: string, slug: string) => {
      for (const post of postsOfType(db, type)) if (post.slug === slug && slug !== '') return post.id;
      return null;
    },
    slugTaken: async (type: string, slug: string, exceptId?: number) => {
      for (const post of postsOfType(db, type)) if (post.slug === slug && post.id !== exceptId) return true;
      return false;
    },
  };
}

/** Adds a post with the next id of the sequence all post types share. */
export function insertPost<R extends PostRecord>(db: MemoryDb, map: JournaledMap<number, R>, input: Omit<R, 'id'>, journal: Journal): R {
  const id = takeId(db.nextPostId, journal);
  const record = freeze({ ...input, id } as R);
  db.postTypes.set(id, record.type, journal);
  map.set(id, record, journal);
  return record;
}

export function patchPost<R extends PostRecord>(map: JournaledMap<number, R>, id: number, patch: Patch<R>, journal: Journal): R {
  const current = map.get(id);
  if (!current) throw new StoreError('not_found', `No record ${id}.`);
  const next = freeze({ ...current, ...stripUndefined(patch), id, type: current.type } as R);
  map.set(id, next, journal);
  return next;
}
