import type { SiteStore } from '@siterest/core';
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
    const context: MemoryContext = { db: this.db, journal, write: (work, options) => this.write(work, options) };
    this.options = optionRepository(context);
    this.users = userRepository(context);
    this.applicationPasswords = applicationPasswordRepository(context);
    this.posts = postIndex(context);
    this.events = eventRepository(context);
    this.venues = venueRepository(context);
    this.organizers = organizerRepository(context);
    this.terms = termRepository(context);
    this.contactForms = contactFormRepository(context);
    this.popups = popupRepository(context);
    this.content = contentRepository(context);
    this.attachments = attachmentRepository(context);
    this.oembedCache = oembedCacheRepository(context);
    this.redirection = redirectionRepositories(context);
  }

  /** Runs a single write under the lock, rolling back its own partial changes if it throws. */
  private write<T>(work: (journal: Journal) => T, options: WriteOptions = {}): Promise<T> {
    const versioned = options.versioned !== false;
    if (versioned) this.db.version++;
    if (this.journal) return Promise.resolve().then(() => work(this.journal!));
    return this.db.lock.run(() => {
      if (versioned) this.db.version++;
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
}

/** The embedded default store: everything in this process's memory. */
export function memoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryStore(options);
}
