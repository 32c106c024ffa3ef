import { CHANGE_SCOPES, type ChangeScope, type SiteStore } from '@siterest/core';
import { eventRepository } from './calendar/events.js';
import { organizerRepository, venueRepository } from './calendar/linked-posts.js';
import { postIndex } from './calendar/posts.js';
import { termRepository } from './calendar/terms.js';
import { contactFormRepository } from './contact-forms/contact-forms.js';
import { MemoryDb, type MemoryContext, type MemoryStoreOptions, type WriteOptions } from './db.js';
import { popupRepository } from './popups/popups.js';
import { contentRepository } from './content/content.js';
import { Journal } from './journal.js';
import { applicationPasswordRepository } from './site/application-passwords.js';
import { optionRepository } from './site/options.js';
import { redirectionRepositories } from './redirection/index.js';
import { userRepository } from './site/users.js';
import { attachmentRepository } from './media/attachments.js';
import { oembedCacheRepository } from './oembed/cache.js';

export type { MemoryStoreOptions } from './db.js';

/**
 * The embedded store. Its state lives in one MemoryDb; each namespace's repositories are in their own folder
 * (`site/`, `calendar/`) and work on that state through a MemoryContext. A transaction is a MemoryStore over
 * the same state with a journal that undoes its writes if it fails.
 */
export class MemoryStore implements SiteStore {
  readonly name = 'memory';
  private readonly db: MemoryDb;
  private readonly journal: Journal | null;
  readonly options: SiteStore['options'];
  readonly users: SiteStore['users'];
  readonly applicationPasswords: SiteStore['applicationPasswords'];
  readonly posts: SiteStore['posts'];
  readonly events: SiteStore['events'];
  readonly venues: SiteStore['venues'];
  readonly organizers: SiteStore['organizers'];
  readonly terms: SiteStore['terms'];
  readonly contactForms: SiteStore['contactForms'];
  readonly popups: SiteStore['popups'];
  readonly content: SiteStore['content'];
  readonly attachments: SiteStore['attachments'];
  readonly oembedCache: SiteStore['oembedCache'];
  readonly redirection: SiteStore['redirection'];

  constructor(options: MemoryStoreOptions = {}, db?: MemoryDb, journal: Journal | null = null) {
    this.db = db ?? new MemoryDb(options);
    this.journal = journal;
    // Each repository's writes advance the version of the data it keeps; the others are written unversioned.
    const context = (scope: ChangeScope): MemoryContext => ({ db: this.db, journal, write: (work, options) => this.write(scope, work, options) });
    const calendar = context('calendar');
    this.options = optionRepository(context('options'));
    this.users = userRepository(context('users'));
    this.applicationPasswords = applicationPasswordRepository(context('application_passwords'));
    this.posts = postIndex(calendar);
    this.events = eventRepository(calendar);
    this.venues = venueRepository(calendar);
    this.organizers = organizerRepository(calendar);
    this.terms = termRepository(calendar);
    this.contactForms = contactFormRepository(calendar);
    this.popups = popupRepository(calendar);
    this.content = contentRepository(calendar);
    this.attachments = attachmentRepository(calendar);
    this.oembedCache = oembedCacheRepository(calendar);
    this.redirection = redirectionRepositories(calendar);
  }

  /** Runs a single write under the lock, rolling back its own partial changes if it throws. */
  private write<T>(scope: ChangeScope, work: (journal: Journal) => T, options: WriteOptions = {}): Promise<T> {
    const versioned = options.versioned !== false;
    const changed = options.scope ?? scope;
    if (this.journal) {
      const journal = this.journal;
      if (versioned) journal.touched.add(changed);
      return Promise.resolve().then(() => work(journal));
    }
    // Advanced before the write waits for the lock too: an answer computed meanwhile is never kept as current.
    if (versioned) this.db.changed(changed);
    return this.db.lock.run(() => {
      if (versioned) this.db.changed(changed);
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
        for (const scope of journal.touched) this.db.changed(scope);
      }
    });
  }

  async changeVersion(scopes: readonly ChangeScope[] = CHANGE_SCOPES): Promise<number> {
    return this.knownChangeVersion(scopes);
  }

  knownChangeVersion(scopes: readonly ChangeScope[] = CHANGE_SCOPES): number {
    let version = 0;
    for (const scope of scopes) version += this.db.changes[scope];
    return version;
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
}

/** The embedded default store: everything in this process's memory. */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryStore(options);
}
