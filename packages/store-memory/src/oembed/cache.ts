import type { CacheRepository } from '@siterest/core';
import type { MemoryContext } from '../db.js';
import { mediaWrite } from '../media/write.js';

/** The oEmbed proxy's cache: values with an expiry, never part of a calendar answer. */
export function oembedCacheRepository(context: MemoryContext): CacheRepository {
  const entries = context.db.oembedCache;
  const never = () => false;
  return {
    get: async (key, now) => {
      const entry = entries.get(key);
      return entry && entry.expiresAt > now ? structuredClone(entry.value) : undefined;
    },
    set: (key, value, expiresAt) => mediaWrite(context, (j) => entries.set(key, { value: structuredClone(value), expiresAt }, j), never),
    delete: (key) => mediaWrite(context, (j) => void entries.delete(key, j), never),
    purge: (now) =>
      mediaWrite(
        context,
        (j) => {
          let dropped = 0;
          for (const [key, entry] of [...entries.map]) {
            if (entry.expiresAt <= now && entries.delete(key, j)) dropped++;
          }
          return dropped;
        },
        never,
      ),
  };
}
