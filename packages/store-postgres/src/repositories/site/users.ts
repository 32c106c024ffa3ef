import { StoreError, type NewUser, type UserRecord, type UserRepository } from '@siterest/core';
import { Params } from '../../sql/params.js';
import { assignments, col, fromRow, selectList, type Column } from '../columns.js';
import type { Db } from '../db.js';
import { hasNul, idValue } from '../../sql/params.js';

const USER_COLUMNS: readonly Column[] = [
  col('id', 'id', 'bigint'),
  col('login', 'login', 'text'),
  col('email', 'email', 'text'),
  col('displayName', 'display_name', 'text'),
  col('nicename', 'nicename', 'text'),
  col('url', 'url', 'text'),
  col('registered', 'registered', 'text'),
  col('roles', 'roles', 'texts'),
];

export function userRepository(db: Db): UserRepository {
  const select = `SELECT ${selectList('u', USER_COLUMNS)} FROM ${db.t.users} u`;
  const one = async (where: string, value: unknown) => {
    const [row] = await db.sql.query(`${select} WHERE ${where} ORDER BY u.id LIMIT 1`, [value]);
    return row ? fromRow<UserRecord>(row, USER_COLUMNS) : null;
  };
  return {
    get: (id) => one('u.id = $1::bigint', idValue(id)),
    // No stored text can hold a NUL character (see params.ts): such a value names nobody.
    findByLogin: async (login) => (hasNul(login) ? null : one('lower(u.login) = lower($1)', login)),
    findByEmail: async (email) => (hasNul(email) ? null : one('lower(u.email) = lower($1)', email)),
    count: async () => Number((await db.sql.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${db.t.users}`))[0]?.n ?? 0),
    create: async (user: NewUser) => {
      const params = new Params();
      const values = assignments(params, USER_COLUMNS, { ...user, id: undefined });
      // ON CONFLICT instead of catching the violation: inside a caller's transaction a failed statement would abort it.
      const [row] = await db.sql.query(
        `INSERT INTO ${db.t.users} AS u (${values.map(([c]) => c).join(', ')}) VALUES (${values.map(([, v]) => v).join(', ')})
         ON CONFLICT ((lower(login))) DO NOTHING
         RETURNING ${selectList('u', USER_COLUMNS)}`,
        params.values,
      );
      if (!row) throw new StoreError('conflict', `The login "${user.login}" is taken.`);
      return fromRow<UserRecord>(row, USER_COLUMNS);
    },
  };
}
