import type { ApplicationPasswordRecord, ApplicationPasswordRepository } from '@siterest/core';
import { col, fromRow, selectList, type Column } from '../columns.js';
import type { Db } from '../db.js';
import { idValue } from '../../sql/params.js';

const COLUMNS: readonly Column[] = [
  col('uuid', 'uuid', 'text'),
  col('userId', 'user_id', 'bigint'),
  col('name', 'name', 'text'),
  col('passwordHash', 'password_hash', 'text'),
  col('created', 'created', 'float'),
  col('lastUsed', 'last_used', 'float'),
  col('lastIp', 'last_ip', 'text'),
];

export function applicationPasswordRepository(db: Db): ApplicationPasswordRepository {
  return {
    listForUser: async (userId) => {
      const rows = await db.sql.query(`SELECT ${selectList('a', COLUMNS)} FROM ${db.t.applicationPasswords} a WHERE a.user_id = $1::bigint ORDER BY a.seq`, [idValue(userId)]);
      return rows.map((row) => fromRow<ApplicationPasswordRecord>(row, COLUMNS));
    },
    create: async (r) => {
      // Saving a uuid again replaces the record in place, keeping its position in the user's list.
      await db.sql.query(
        `INSERT INTO ${db.t.applicationPasswords} (uuid, user_id, name, password_hash, created, last_used, last_ip)
         VALUES ($1, $2::bigint, $3, $4, $5::double precision, $6::double precision, $7)
         ON CONFLICT (uuid) DO UPDATE SET user_id = EXCLUDED.user_id, name = EXCLUDED.name, password_hash = EXCLUDED.password_hash,
           created = EXCLUDED.created, last_used = EXCLUDED.last_used, last_ip = EXCLUDED.last_ip`,
        [r.uuid, r.userId, r.name, r.passwordHash, r.created, r.lastUsed, r.lastIp],
      );
    },
    recordUse: async (uuid, at, ip) => {
      await db.sql.query(`UPDATE ${db.t.applicationPasswords} SET last_used = $2::double precision, last_ip = $3 WHERE uuid = $1`, [uuid, at, ip]);
    },
    delete: async (uuid) => (await db.sql.query(`DELETE FROM ${db.t.applicationPasswords} WHERE uuid = $1 RETURNING uuid`, [uuid])).length > 0,
  };
}
