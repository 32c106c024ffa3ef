import type { CacheRepository } from '@siterest/core';
import type { Db } from '../db.js';

/** The oEmbed proxy's cache; values are JSON, expiry is epoch milliseconds. Never part of a calendar answer. */
export function oembedCacheRepository(db: Db): CacheRepository {
  const table = db.t.oembedCache;
  return {
    get: async (key, now) => {
      const [row] = await db.sql.query<{ value: unknown }>(`SELECT value FROM ${table} WHERE key = $1 AND expires_at > $2::double precision`, [key, now]);
      if (!row) return undefined;
      return typeof row.value === 'string' ? JSON.parse(row.value) : row.value;
    },
    set: async (key, value, expiresAt) => {
      await db.sql.query(
        `INSERT INTO ${table} (key, value, expires_at) VALUES ($1, $2::json, $3::double precision)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
        [key, JSON.stringify(value), expiresAt],
      );
    },
    delete: async (key) => {
      await db.sql.query(`DELETE FROM ${table} WHERE key = $1`, [key]);
    },
    purge: async (now) => (await db.sql.query(`DELETE FROM ${table} WHERE expires_at <= $1::double precision RETURNING key`, [now])).length,
  };
}
