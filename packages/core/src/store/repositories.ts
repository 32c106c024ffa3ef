import type {
  ApplicationPasswordRecord,
  EventRecord,
  NewEvent,
  NewOrganizer,
  NewTerm,
  NewUser,
  NewVenue,
  OrganizerRecord,
  Page,
  TermPatch,
  TermRecord,
  UserRecord,
  VenueRecord,
} from './records.js';
import type { ChangeScope } from './change-scopes.js';
import type { EventQuery, LinkedPostQuery, TermQuery } from './queries.js';
import type { ContactFormRepository } from './contact-forms.js';
import type { PopupRepository } from './popups.js';
import type { ContentRepository } from './content.js';
import type { Maybe } from '../util/maybe.js';
import type { AttachmentRepository, CacheRepository } from './media-repositories.js';
import type { RedirectionRepositories } from './redirection.js';

export interface OptionRepository {
  all(): Promise<Record<string, unknown>>;
  get(name: string): Promise<unknown>;
  set(name: string, value: unknown): Promise<void>;
  /**
   * WordPress add_option: saves the value unless the option exists, atomically (concurrent callers on the same
   * data all get the one value that was kept), and returns the value the option holds afterwards.
   */
  add(name: string, value: unknown): Promise<unknown>;
  delete(name: string): Promise<void>;
}

export interface UserRepository {
  get(id: number): Promise<UserRecord | null>;
  findByLogin(login: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  create(user: NewUser): Promise<UserRecord>;
  count(): Promise<number>;
}

export interface ApplicationPasswordRepository {
  listForUser(userId: number): Promise<ApplicationPasswordRecord[]>;
  create(record: ApplicationPasswordRecord): Promise<void>;
  /** Records a use; the store keeps the latest. */
  recordUse(uuid: string, at: number, ip: string | null): Promise<void>;
  delete(uuid: string): Promise<boolean>;
}

/** Facts about any post-like id, whatever its type (ids are shared by all post types). */
export interface PostIndex {
  typeOf(id: number): Promise<string | null>;
  /** Id of the post of that type with that slug (any status), or null. */
  idBySlug(type: string, slug: string): Promise<number | null>;
  /** Whether another post of that type already uses the slug. */
  slugTaken(type: string, slug: string, exceptId?: number): Promise<boolean>;
}

/**
 * A repository whose every read is asked of a database, as the PostgreSQL store's are: the same methods, each
 * giving a promise (the interface lets the memory store answer some of them at once).
 */
export type Asked<R> = { [K in keyof R]: R[K] extends (...args: infer A) => Maybe<infer T> ? (...args: A) => Promise<T> : R[K] };

/** Partial updates: only the fields given change. */
export type Patch<T> = Partial<Omit<T, 'id' | 'type'>>;

export interface PostTypeRepository<R, N> {
  get(id: number): Promise<R | null>;
  /** The records that exist, in the order of `ids`. */
  getMany(ids: readonly number[]): Maybe<R[]>;
  create(input: N): Promise<R>;
  update(id: number, patch: Patch<R>): Promise<R>;
}

export interface EventRepository extends PostTypeRepository<EventRecord, NewEvent> {
  list(query: EventQuery): Maybe<Page<EventRecord>>;
}

export interface LinkedPostRepository<R, N> extends PostTypeRepository<R, N> {
  list(query: LinkedPostQuery): Maybe<Page<R>>;
  /** A published-or-not record whose name matches case-insensitively, for duplicate avoidance. */
  findByTitle(title: string): Promise<R[]>;
}

export type VenueRepository = LinkedPostRepository<VenueRecord, NewVenue>;
export type OrganizerRepository = LinkedPostRepository<OrganizerRecord, NewOrganizer>;

export interface TermRepository {
  get(id: number): Maybe<TermRecord | null>;
  getMany(ids: readonly number[]): Maybe<TermRecord[]>;
  findBySlug(taxonomy: string, slug: string): Maybe<TermRecord | null>;
  /** Terms of the taxonomy whose name equals `name` case-insensitively (under `parentId` when given). */
  findByName(taxonomy: string, name: string, parentId?: number): Maybe<TermRecord[]>;
  list(query: TermQuery): Maybe<Page<TermRecord>>;
  create(term: NewTerm): Promise<TermRecord>;
  update(id: number, patch: TermPatch): Promise<TermRecord>;
  /** Deletes the term, its assignments, and moves its children up to its parent. */
  delete(id: number): Promise<boolean>;
}

/** The whole persistence interface. Passing `@siterest/core/testing`'s store contract suite defines a store. */
export interface SiteStore {
  readonly name: string;
  readonly options: OptionRepository;
  readonly users: UserRepository;
  readonly applicationPasswords: ApplicationPasswordRepository;
  readonly posts: PostIndex;
  readonly events: EventRepository;
  readonly venues: VenueRepository;
  readonly organizers: OrganizerRepository;
  readonly terms: TermRepository;
  /** Contact forms, their submissions and outgoing mail. Its writes do not advance changeVersion(). */
  readonly contactForms: ContactFormRepository;
  /** Popups and their open counters. Its writes do not advance changeVersion(). */
  readonly popups: PopupRepository;
  /** Articles (any content post type) and videos, with their SEO meta. Its writes do not advance changeVersion(). */
  readonly content: ContentRepository;
  readonly attachments: AttachmentRepository;
  readonly oembedCache: CacheRepository;
  /** Redirection's redirects, groups, logs and settings; writes there leave the change version alone. */
  readonly redirection: RedirectionRepositories;
  /** Runs `work` atomically: all of its writes happen, or none. */
  transaction<T>(work: (store: SiteStore) => Promise<T>): Promise<T>;
  /**
   * A number that grows after every committed write to one of `scopes` (all of them when omitted), whoever made
   * it (this instance or another on the same data), and never on reads or on writes elsewhere. Caches of answers
   * stay valid while it is unchanged. It rejects when the store cannot vouch for it (a write of this instance
   * could not advance it yet): callers then must not trust an answer cached earlier.
   */
  changeVersion?(scopes?: readonly ChangeScope[]): Promise<number>;
  /**
   * The same version, known at once without asking anything: only for a store whose every write happens in this
   * process (the memory store). With it, answers kept as sent are found without a promise (see sent-answers.ts).
   */
  knownChangeVersion?(scopes?: readonly ChangeScope[]): number;
  /** Readies the store (the PostgreSQL store checks its schema); idempotent. */
  init?(): Promise<void>;
  close?(): Promise<void>;
  /**
   * Cross-instance change notifications, for in-process caches. A payload of `'*'` means "resync": messages
   * may have been lost (a dropped connection), so a listener drops everything it cached.
   */
  subscribe?(channel: string, listener: (payload: string) => void): () => void;
  publish?(channel: string, payload: string): Promise<void>;
}
