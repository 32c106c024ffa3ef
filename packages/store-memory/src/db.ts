import type { ChangeScope, Page, Paging } from '@siterest/core';
import type {
  ApplicationPasswordRecord,
  ContactFormRecord,
  ContentRecord,
  OutboxRecord,
  PopupRecord,
  SubmissionRecord,
  AttachmentRecord,
  EventRecord,
  OrganizerRecord,
  TermRecord,
  UserRecord,
  VenueRecord,
} from '@siterest/core';
import { EventStartIndex } from './calendar/event-index.js';
import { Journal, JournaledMap, WriteLock } from './journal.js';
import { RedirectionTables } from './redirection/tables.js';

export interface MemoryStoreOptions {
  /**
   * Where the id sequences start (a site moving from WordPress continues its sequences so that imported
   * and new ids never collide). Defaults: posts 1, terms 2 (term 1 is a fresh WordPress's "Uncategorized"), users 1.
   */
  firstIds?: { post?: number; term?: number; user?: number };
  /**
   * The most each of Redirection's logs (redirects, 404s) holds in memory, in bytes of its rows' text (default
   * 32 MB, about 70,000 rows of a browser's request without its headers): past it the oldest rows go. Upstream keeps rows for days
   * (`expire_redirect`, `expire_404`) in its database; here they are process memory, which a flood of 404s would
   * otherwise fill.
   */
  redirectionLogBytes?: number;
}

export type Counter = { value: number };

/** The page a query asks for of a list's matches, with their number. */
export function pageOf<R>(matches: readonly R[], query: Paging): Page<R> {
  return { items: matches.slice(query.offset, query.offset + query.limit), total: matches.length };
}

/**
 * What recent filters of a list matched, in answer order, kept until the next write to the data they read (its
 * version), so that paging through a list, or asking it again, does not filter and sort it again. At most 64
 * filters and 1,000,000 matches in all (8 MB of references, whatever the store's size), the oldest kept dropped
 * first; a filter whose key is longer than 4 KB (a huge search) is not kept, nor one that matches more than the
 * whole bound.
 */
export class RememberedMatches<R> {
  private readonly kept = new Map<string, { version: number; matches: R[] }>();
  /** The sum of the kept lists' lengths. */
  private held = 0;

  constructor(
    private readonly maxFilters = 64,
    private readonly maxMatches = 1_000_000,
  ) {}

  find(key: string, version: number): R[] | undefined {
    const found = this.kept.get(key);
    return found && found.version === version ? found.matches : undefined;
  }

  keep(key: string, version: number, matches: R[]): void {
    if (key.length > 4096 || matches.length > this.maxMatches) return;
    this.drop(key);
    this.kept.set(key, { version, matches });
    this.held += matches.length;
    while (this.kept.size > this.maxFilters || this.held > this.maxMatches) this.drop(this.kept.keys().next().value!);
  }

  private drop(key: string): void {
    const found = this.kept.get(key);
    if (!found) return;
    this.kept.delete(key);
    this.held -= found.matches.length;
  }
}

/** All state of one memory store; transactions share it through different journals. */
export class MemoryDb {
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
  readonly attachments = new JournaledMap<number, AttachmentRecord>();
  readonly oembedCache = new JournaledMap<string, { value: unknown; expiresAt: number }>();
  /** Bumped by every write: the store's own caches (eventMatches) from an older version are stale. */
  version = 0;
  /** Bumped by every write to their scope (store.changeVersion): cached answers of an older version are stale. */
  readonly changes: Record<ChangeScope, number> = { calendar: 0, options: 0, users: 0, application_passwords: 0 };

  /** Records a write to `scope`. */
  changed(scope: ChangeScope): void {
    this.version++;
    this.changes[scope]++;
  }
  /** Matches of recent list filters (all pages), each valid for the calendar version it was found at. */
  readonly eventMatches = new RememberedMatches<EventRecord>();
  readonly venueMatches = new RememberedMatches<VenueRecord>();
  readonly organizerMatches = new RememberedMatches<OrganizerRecord>();
  readonly nextPostId: Counter;
  readonly nextTermId: Counter;
  readonly nextUserId: Counter;
  readonly listeners = new Map<string, Set<(payload: string) => void>>();
  // Contact forms (src/contact-forms/): forms share the post id sequence; submissions and mail have their own.
  readonly contactForms = new JournaledMap<number, ContactFormRecord>();
  readonly submissions = new JournaledMap<number, SubmissionRecord>();
  readonly outbox = new JournaledMap<number, OutboxRecord>();
  readonly nextSubmissionId: Counter = { value: 1 };
  readonly nextOutboxId: Counter = { value: 1 };
  /** Feedback posts counted per sender in the latest window (`rateWindow`); earlier windows are dropped. */
  readonly rateHits = new Map<string, { window: number; count: number }>();
  rateWindow = -Infinity;
  readonly secrets: { contactForms: string | null } = { contactForms: null };
  // Popups (src/popups/).
  readonly popups = new JournaledMap<number, PopupRecord>();
  readonly popupOpens: Counter = { value: 0 };
  // Articles and videos (src/content/).
  readonly content = new JournaledMap<number, ContentRecord>();
  readonly redirection: RedirectionTables;

  constructor(options: MemoryStoreOptions) {
    this.redirection = new RedirectionTables(options.redirectionLogBytes);
    this.nextPostId = { value: options.firstIds?.post ?? 1 };
    // Term 1 is WordPress's "Uncategorized" on a fresh site: the first term made is 2.
    this.nextTermId = { value: options.firstIds?.term ?? 2 };
    this.nextUserId = { value: options.firstIds?.user ?? 1 };
  }
}

/**
 * What a repository of the memory store works with: the shared state, the journal of the transaction it
 * runs in (null outside one) and `write`, which runs one write atomically.
 */
export interface MemoryContext {
  readonly db: MemoryDb;
  readonly journal: Journal | null;
  /** `versioned: false` leaves the change version alone (namespaces whose writes cached lists never depend on). */
  write<T>(work: (journal: Journal) => T, options?: WriteOptions): Promise<T>;
}

export interface WriteOptions {
  versioned?: boolean;
  /** The data the write changes (its repository's scope when absent). */
  scope?: ChangeScope;
}

export function takeId(counter: Counter, journal: Journal | null): number {
  const id = counter.value++;
  journal?.record(() => {
    counter.value = Math.min(counter.value, id);
  });
  return id;
}

/** Records are shared with callers: frozen, with their lists, so nobody changes the store by accident. */
export function freeze<T extends object>(record: T): Readonly<T> {
  for (const value of Object.values(record)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(record);
}

export function stripUndefined<T extends object>(patch: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}

export const lower = (s: string) => s.toLowerCase();

/** The records of `ids` that exist, in that order. */
export function many<R>(map: JournaledMap<number, R>, ids: readonly number[]): R[] {
  const out: R[] = [];
  for (const id of ids) {
    const record = map.get(id);
    if (record) out.push(record);
  }
  return out;
}
