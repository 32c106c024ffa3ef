import type { MemoryContext } from '../db.js';
import { Journal } from '../journal.js';

/**
 * Runs one Redirection write atomically: inside a caller's transaction it joins its journal, otherwise it
 * takes the store's write lock and undoes its own partial changes if it throws. Unlike the calendar's writes it
 * leaves the store's change version alone: hits and log rows must not invalidate cached calendar answers.
 */
export function redirectionWrite<T>(context: MemoryContext, work: (journal: Journal) => T): Promise<T> {
  if (context.journal) return Promise.resolve().then(() => work(context.journal!));
  return context.db.lock.run(() => {
    const journal = new Journal();
    try {
      return work(journal);
    } catch (error) {
      journal.rollback();
      throw error;
    }
  });
}
