import {
  calendar,
  distanceKm,
  matchesSearch,
  searchTerms,
  statusMatches,
  StoreError,
  type ApplicationPasswordRecord,
  type EventQuery,
  type EventRecord,
  type LinkedPostQuery,
  type NewEvent,
  type NewOrganizer,
  type NewTerm,
  type NewUser,
  type NewVenue,
  type OrganizerRecord,
  type Page,
  type Patch,
  type PostRecord,
  type SiteStore,
  type TermPatch,
  type TermQuery,
  type TermRecord,
  type UserRecord,
  type VenueRecord,
} from '@siterest/core';
import { EventStartIndex } from './event-index.js';
import { Journal, JournaledMap, WriteLock } from './journal.js';

export interface MemoryStoreOptions {
  /**
   * Where the id sequences start (a site moving from WordPress continues its sequences so that imported
   * and new ids never collide). Defaults: posts 1, terms 1, users 1.
   */
  firstIds?: { post?: number; term?: number; user?: number };
}

function freeze<T extends object>(record: T): Readonly<T> {
  for (const value of Object.values(record)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(record);
}

type Counter = { value: number };

/** All state of one memory store; transactions share it through different journals. */
class MemoryDb {
  readonly lock = new WriteLock();
  readonly options = new JournaledMap<string, unknown>();
  readonly users = new JournaledMap<number, UserRecord>();
  readonly appPasswords = new JournaledMap<string, ApplicationPasswordRecord>();
  readonly postTypes = new JournaledMap<number, string>();
  readonly events = new JournaledMap<number, EventRecord>();
  readonly venues = new JournaledMap<number, VenueRecord>();
  readonly organizers = new JournaledMap<number, OrganizerRecord>();
  readonly terms = new JournaledMap<number, Omit<TermRecord, 'count'>>();
  readonly termCounts = new JournaledMap<number, number>();
  readonly eventsByStart = new EventStartIndex();
  /** Bumped by every write: cached list answers from an older version are stale. */
  version = 0;
  /** Matches of recent event filters (all pages), valid for one version. */
  readonly eventMatches = new Map<string, { version: number; matches: EventRecord[] }>();
  readonly nextPostId: Counter;
  readonly nextTermId: Counter;
  readonly nextUserId: Counter;
  readonly listeners = new Map<string, Set<(payload: string) => void>>();

  constructor(options: MemoryStoreOptions) {
    this.nextPostId = { value: options.firstIds?.post ?? 1 };
    this.nextTermId = { value: options.firstIds?.term ?? 1 };
    this.nextUserId = { value: options.firstIds?.user ?? 1 };
  }
}

function takeId(counter: Counter, journal: Journal | null): number {
  const id = counter.value++;
  journal?.record(() => {
    counter.value = Math.min(counter.value, id);
  });
  return id;
}

const lower = (s: string) => s.toLowerCase();

export class MemoryStore implements SiteStore {
  readonly name = 'memory';
  private readonly db: MemoryDb;
  private readonly journal: Journal | null;

  constructor(options: MemoryStoreOptions = {}, db?: MemoryDb, journal: Journal | null = null) {
    this.db = db ?? new MemoryDb(options);
    this.journal = journal;
    this.venues = this.linkedRepository<VenueRecord>(this.db.venues, 'venueIds', (v) => [
      v.title, v.content, v.excerpt, v.address, v.city, v.country, v.province, v.state, v.stateProvince, v.zip, v.phone, v.website,
    ]) as SiteStore['venues'] & { create(input: NewVenue): Promise<VenueRecord> };
    this.organizers = this.linkedRepository<OrganizerRecord>(this.db.organizers, 'organizerIds', (o) => [
      o.title, o.content, o.excerpt, o.phone, o.website, o.email,
    ]) as SiteStore['organizers'] & { create(input: NewOrganizer): Promise<OrganizerRecord> };
  }

  /** Runs a single write under the lock, rolling back its own partial changes if it throws. */
  private write<T>(work: (journal: Journal) => T): Promise<T> {
    this.db.version++;
    if (this.journal) return Promise.resolve().then(() => work(this.journal!));
    return this.db.lock.run(() => {
      this.db.version++;
      const journal = new Journal();
      try {
        return work(journal);
      } catch (error) {
        journal.rollback();
        throw error;
      }
    });
  }

  transaction<T>(work: (store: SiteStore) => Promise<T>): Promise<T> {
    if (this.journal) return work(this);
    return this.db.lock.run(async () => {
      const journal = new Journal();
      try {
        return await work(new MemoryStore({}, this.db, journal));
      } catch (error) {
        journal.rollback();
        throw error;
      } finally {
        this.db.version++;
      }
    });
  }

  async changeVersion(): Promise<number> {
    return this.db.version;
  }

  subscribe(channel: string, listener: (payload: string) => void): () => void {
    const set = this.db.listeners.get(channel) ?? new Set();
    set.add(listener);
    this.db.listeners.set(channel, set);
    return () => set.delete(listener);
  }

  async publish(channel: string, payload: string): Promise<void> {
    for (const listener of this.db.listeners.get(channel) ?? []) listener(payload);
  }

  // ---------------------------------------------------------------- options, users, application passwords

  readonly options = {
    all: async () => Object.fromEntries(this.db.options.map),
    get: async (name: string) => this.db.options.get(name),
    set: (name: string, value: unknown) => this.write((j) => this.db.options.set(name, structuredClone(value), j)),
    add: (name: string, value: unknown) =>
      this.write((j) => {
        if (!this.db.options.has(name)) this.db.options.set(name, structuredClone(value), j);
        return structuredClone(this.db.options.get(name));
      }),
    delete: (name: string) => this.write((j) => void this.db.options.delete(name, j)),
  };

  readonly users = {
    get: async (id: number) => this.db.users.get(id) ?? null,
    findByLogin: async (login: string) => [...this.db.users.values()].find((u) => lower(u.login) === lower(login)) ?? null,
    findByEmail: async (email: string) => [...this.db.users.values()].find((u) => lower(u.email) === lower(email)) ?? null,
    count: async () => this.db.users.size,
    create: (user: NewUser) =>
      this.write((j) => {
        if ([...this.db.users.values()].some((u) => lower(u.login) === lower(user.login))) {
          throw new StoreError('conflict', `The login "${user.login}" is taken.`);
        }
        const record = freeze({ ...user, roles: [...user.roles], id: takeId(this.db.nextUserId, j) });
        this.db.users.set(record.id, record, j);
        return record;
      }),
  };

  readonly applicationPasswords = {
    listForUser: async (userId: number) => [...this.db.appPasswords.values()].filter((p) => p.userId === userId),
    create: (record: ApplicationPasswordRecord) => this.write((j) => this.db.appPasswords.set(record.uuid, freeze({ ...record }), j)),
    recordUse: (uuid: string, at: number, ip: string | null) =>
      this.write((j) => {
        const record = this.db.appPasswords.get(uuid);
        if (record) this.db.appPasswords.set(uuid, freeze({ ...record, lastUsed: at, lastIp: ip }), j);
      }),
    delete: (uuid: string) => this.write((j) => this.db.appPasswords.delete(uuid, j)),
  };

  // ---------------------------------------------------------------- posts of every type

  private postMap(type: string): JournaledMap<number, PostRecord> | undefined {
    if (type === calendar.EVENT_TYPE) return this.db.events as unknown as JournaledMap<number, PostRecord>;
    if (type === calendar.VENUE_TYPE) return this.db.venues as unknown as JournaledMap<number, PostRecord>;
    if (type === calendar.ORGANIZER_TYPE) return this.db.organizers as unknown as JournaledMap<number, PostRecord>;
    return undefined;
  }

  readonly posts = {
    typeOf: async (id: number) => this.db.postTypes.get(id) ?? null,
    idBySlug: async (type: string, slug: string) => {
      for (const post of this.postMap(type)?.values() ?? []) if (post.slug === slug && slug !== '') return post.id;
      return null;
    },
    slugTaken: async (type: string, slug: string, exceptId?: number) => {
      for (const post of this.postMap(type)?.values() ?? []) if (post.slug === slug && post.id !== exceptId) return true;
      return false;
    },
  };

  private insertPost<R extends PostRecord>(map: JournaledMap<number, R>, input: Omit<R, 'id'>, journal: Journal): R {
    const id = takeId(this.db.nextPostId, journal);
    const record = freeze({ ...input, id } as R);
    this.db.postTypes.set(id, record.type, journal);
    map.set(id, record, journal);
    return record;
  }

  private patchPost<R extends PostRecord>(map: JournaledMap<number, R>, id: number, patch: Patch<R>, journal: Journal): R {
    const current = map.get(id);
    if (!current) throw new StoreError('not_found', `No record ${id}.`);
    const next = freeze({ ...current, ...stripUndefined(patch), id, type: current.type } as R);
    map.set(id, next, journal);
    return next;
  }

  private many<R>(map: JournaledMap<number, R>, ids: readonly number[]): R[] {
    const out: R[] = [];
    for (const id of ids) {
      const record = map.get(id);
      if (record) out.push(record);
    }
    return out;
  }

  // ---------------------------------------------------------------- events

  /** Term counts follow the published events that use them. */
  private adjustCounts(before: EventRecord | undefined, after: EventRecord | undefined, journal: Journal): void {
    const delta = new Map<number, number>();
    if (before?.status === 'publish') for (const id of [...before.categoryIds, ...before.tagIds]) delta.set(id, (delta.get(id) ?? 0) - 1);
    if (after?.status === 'publish') for (const id of [...after.categoryIds, ...after.tagIds]) delta.set(id, (delta.get(id) ?? 0) + 1);
    for (const [id, change] of delta) {
      if (change !== 0 && this.db.terms.has(id)) this.db.termCounts.set(id, (this.db.termCounts.get(id) ?? 0) + change, journal);
    }
  }

  /** Keeps the start-ordered index in step, undoably. */
  private reindex(before: EventRecord | undefined, after: EventRecord, journal: Journal): void {
    const index = this.db.eventsByStart;
    if (before && before.startDateUtc === after.startDateUtc) {
      index.replace(after);
      journal.record(() => index.replace(before));
      return;
    }
    if (before) index.remove(before);
    index.add(after);
    journal.record(() => {
      index.remove(after);
      if (before) index.add(before);
    });
  }

  private existingTerms(ids: readonly number[]): number[] {
    return [...new Set(ids)].filter((id) => this.db.terms.has(id));
  }

  readonly events = {
    get: async (id: number) => this.db.events.get(id) ?? null,
    getMany: async (ids: readonly number[]) => this.many(this.db.events, ids),
    create: (input: NewEvent) =>
      this.write((j) => {
        const record = this.insertPost(this.db.events, {
          ...input,
          cost: [...input.cost],
          categoryIds: this.existingTerms(input.categoryIds),
          tagIds: this.existingTerms(input.tagIds),
          venueIds: [...input.venueIds],
          organizerIds: [...input.organizerIds],
        }, j);
        this.adjustCounts(undefined, record, j);
        this.reindex(undefined, record, j);
        return record;
      }),
    update: (id: number, patch: Patch<EventRecord>) =>
      this.write((j) => {
        const before = this.db.events.get(id);
        const cleaned = { ...patch };
        if (cleaned.categoryIds) cleaned.categoryIds = this.existingTerms(cleaned.categoryIds);
        if (cleaned.tagIds) cleaned.tagIds = this.existingTerms(cleaned.tagIds);
        const after = this.patchPost(this.db.events, id, cleaned, j);
        this.adjustCounts(before, after, j);
        this.reindex(before, after, j);
        return after;
      }),
    list: async (query: EventQuery) => this.listEvents(query),
  };

  private listEvents(query: EventQuery): Page<EventRecord> {
    const terms = query.search ? searchTerms(query.search) : [];
    const statuses = query.statuses;
    const anyOf = (wanted: readonly number[] | undefined, have: readonly number[]) => !wanted || wanted.some((id) => have.includes(id));
    const accepts = (event: EventRecord): boolean =>
      statusMatches(statuses, event.status) &&
      (query.startsAfter === undefined || event.startDateUtc >= query.startsAfter) &&
      (query.startsBefore === undefined || event.startDateUtc <= query.startsBefore) &&
      (query.endsAfter === undefined || event.endDateUtc >= query.endsAfter) &&
      (query.endsBefore === undefined || event.endDateUtc <= query.endsBefore) &&
      !(query.excludeHidden && event.hideFromListings) &&
      (query.featured === undefined || event.featured === query.featured) &&
      (query.parentId === undefined || event.parentId === query.parentId) &&
      anyOf(query.categoryIds, event.categoryIds) &&
      anyOf(query.tagIds, event.tagIds) &&
      anyOf(query.venueIds, event.venueIds) &&
      anyOf(query.organizerIds, event.organizerIds) &&
      (terms.length === 0 || matchesSearch(terms, [event.title, event.content, event.excerpt])) &&
      (!query.geo || this.eventHasGeo(event, query.geo.near));

    if (query.include || query.orderBy === 'date') {
      const pool = query.include
        ? [...new Set(query.include)].map((id) => this.db.events.get(id)).filter((e): e is EventRecord => e !== undefined)
        : this.db.eventsByStart.records;
      const matches = pool.filter(accepts);
      matches.sort(
        query.orderBy === 'date'
          ? (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id)
          : (a, b) => (a.startDateUtc < b.startDateUtc ? -1 : a.startDateUtc > b.startDateUtc ? 1 : a.id - b.id),
      );
      return { items: matches.slice(query.offset, query.offset + query.limit), total: matches.length };
    }

    const key = JSON.stringify({ ...query, offset: 0, limit: 0 });
    const cached = this.db.eventMatches.get(key);
    if (cached && cached.version === this.db.version && !this.journal) {
      return { items: cached.matches.slice(query.offset, query.offset + query.limit), total: cached.matches.length };
    }
    // Walk in start order from the lowest possible start; an event starting after the last allowed start or
    // end (an end is never before its start) ends the walk.
    const index = this.db.eventsByStart;
    const records = index.records;
    const last = [query.startsBefore, query.endsBefore].filter((v): v is string => v !== undefined).sort()[0];
    const matches: EventRecord[] = [];
    for (let i = query.startsAfter === undefined ? 0 : index.position(query.startsAfter, -Infinity); i < records.length; i++) {
      const event = records[i]!;
      if (last !== undefined && event.startDateUtc > last) break;
      if (accepts(event)) matches.push(event);
    }
    if (!this.journal) {
      const cache = this.db.eventMatches;
      cache.delete(key);
      cache.set(key, { version: this.db.version, matches });
      // Least recently used filters go first.
      while (cache.size > 64) cache.delete(cache.keys().next().value!);
    }
    return { items: matches.slice(query.offset, query.offset + query.limit), total: matches.length };
  }

  private eventHasGeo(event: EventRecord, near?: { lat: number; lng: number; radiusKm: number }): boolean {
    return event.venueIds.some((id) => {
      const venue = this.db.venues.get(id);
      if (!venue || venue.geoLat === null || venue.geoLng === null) return false;
      return !near || distanceKm(near.lat, near.lng, venue.geoLat, venue.geoLng) <= near.radiusKm;
    });
  }

  // ---------------------------------------------------------------- venues and organizers

  private linkedRepository<R extends PostRecord>(
    map: JournaledMap<number, R>,
    link: 'venueIds' | 'organizerIds',
    searchable: (record: R) => string[],
  ) {
    const list = async (query: LinkedPostQuery): Promise<Page<R>> => {
      const terms = query.search ? searchTerms(query.search) : [];
      const include = query.include ? new Set(query.include) : null;
      const linkedEvents = (id: number) =>
        [...this.db.events.values()].filter(
          (event) =>
            event[link].includes(id) &&
            (query.eventStatuses ? query.eventStatuses.includes(event.status) : statusMatches('any', event.status)),
        );
      const forEvent = query.eventId !== undefined ? this.db.events.get(query.eventId) : undefined;
      const matches = [...map.values()].filter((record) => {
        if (!statusMatches(query.statuses, record.status)) return false;
        if (include && !include.has(record.id)) return false;
        if (query.eventId !== undefined && !forEvent?.[link].includes(record.id)) return false;
        if (terms.length && !matchesSearch(terms, searchable(record))) return false;
        if (query.hasEvents !== undefined && (linkedEvents(record.id).length > 0) !== query.hasEvents) return false;
        if (query.upcomingAfter !== undefined && !linkedEvents(record.id).some((e) => e.endDateUtc >= query.upcomingAfter!)) {
          return false;
        }
        return true;
      });
      matches.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id));
      return { items: matches.slice(query.offset, query.offset + query.limit), total: matches.length };
    };
    return {
      get: async (id: number) => map.get(id) ?? null,
      getMany: async (ids: readonly number[]) => this.many(map, ids),
      findByTitle: async (title: string) =>
        [...map.values()].filter((record) => record.status !== 'trash' && lower(record.title) === lower(title)),
      create: (input: Omit<R, 'id'>) => this.write((j) => this.insertPost(map, input, j)),
      update: (id: number, patch: Patch<R>) => this.write((j) => this.patchPost(map, id, patch, j)),
      list,
    };
  }

  readonly venues: SiteStore['venues'];
  readonly organizers: SiteStore['organizers'];

  // ---------------------------------------------------------------- terms

  private withCount(term: Omit<TermRecord, 'count'>): TermRecord {
    return { ...term, count: this.db.termCounts.get(term.id) ?? 0 };
  }

  readonly terms = {
    get: async (id: number) => {
      const term = this.db.terms.get(id);
      return term ? this.withCount(term) : null;
    },
    getMany: async (ids: readonly number[]) => this.many(this.db.terms, ids).map((t) => this.withCount(t)),
    findBySlug: async (taxonomy: string, slug: string) => {
      for (const term of this.db.terms.values()) {
        if (term.taxonomy === taxonomy && term.slug === slug) return this.withCount(term);
      }
      return null;
    },
    findByName: async (taxonomy: string, name: string, parentId?: number) =>
      [...this.db.terms.values()]
        .filter((t) => t.taxonomy === taxonomy && lower(t.name) === lower(name) && (parentId === undefined || t.parentId === parentId))
        .sort((a, b) => a.id - b.id)
        .map((t) => this.withCount(t)),
    list: async (query: TermQuery) => this.listTerms(query),
    create: (term: NewTerm) =>
      this.write((j) => {
        const id = takeId(this.db.nextTermId, j);
        const record = freeze({ ...term, termGroup: term.termGroup ?? 0, id });
        this.db.terms.set(id, record, j);
        this.db.termCounts.set(id, 0, j);
        return this.withCount(record);
      }),
    update: (id: number, patch: TermPatch) =>
      this.write((j) => {
        const current = this.db.terms.get(id);
        if (!current) throw new StoreError('not_found', `No term ${id}.`);
        const next = freeze({ ...current, ...stripUndefined(patch), id });
        this.db.terms.set(id, next, j);
        return this.withCount(next);
      }),
    delete: (id: number) =>
      this.write((j) => {
        const term = this.db.terms.get(id);
        if (!term) return false;
        for (const child of [...this.db.terms.values()]) {
          if (child.parentId === id) this.db.terms.set(child.id, freeze({ ...child, parentId: term.parentId }), j);
        }
        for (const event of [...this.db.events.values()]) {
          if (event.categoryIds.includes(id) || event.tagIds.includes(id)) {
            this.db.events.set(
              event.id,
              freeze({ ...event, categoryIds: event.categoryIds.filter((t) => t !== id), tagIds: event.tagIds.filter((t) => t !== id) }),
              j,
            );
          }
        }
        this.db.terms.delete(id, j);
        this.db.termCounts.delete(id, j);
        return true;
      }),
  };

  private listTerms(query: TermQuery): Page<TermRecord> {
    const all = [...this.db.terms.values()].filter((t) => t.taxonomy === query.taxonomy).map((t) => this.withCount(t));
    let objectTerms: Set<number> | null = null;
    if (query.objectId !== undefined) {
      const event = this.db.events.get(query.objectId);
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
    const needle = query.search?.toLowerCase();
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
}

function stripUndefined<T extends object>(patch: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}

/** The embedded default store: everything in this process's memory. */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryStore(options);
}
