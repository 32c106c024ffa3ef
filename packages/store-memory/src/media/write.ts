import type { MemoryContext } from '../db.js';
import { Journal } from '../journal.js';

/**
 * A write of the media namespaces under the store's write lock (or inside the caller's transaction), rolled
 * back if it throws. Unlike the calendar's writes it advances the change version only when `changes` says the
 * write alters something a cached calendar answer shows.
 */
export function mediaWrite<T>({ db, journal }: MemoryContext, work: (journal: Journal) => T, changes: (result: T) => boolean): Promise<T> {
  if (journal) {
    return Promise.resolve().then(() => {
      const result = work(journal);
      if (changes(result)) journal.touched.add('calendar');
      return result;
    });
  }
  return db.lock.run(() => {
    const own = new Journal();
    try {
      const result = work(own);
      if (changes(result)) db.changed('calendar');
      return result;
    } catch (error) {
      own.rollback();
      throw error;
    }
  });
}
