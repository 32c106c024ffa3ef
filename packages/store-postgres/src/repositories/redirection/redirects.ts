import { StoreError, type NewRedirect, type RedirectRepository } from '@siterest/core';
import { idValue, Params } from '../../sql/params.js';
import { atomically, type Db } from '../db.js';
import { countOf, pageWithTotal } from '../paging.js';
import { REDIRECT_COLUMNS, REDIRECT_INSERT_COLUMNS, redirectValues, redirectWhere, toRedirect, json } from './rows.js';

const ORDER = { id: 'i.id', url: 'lower(i.url) COLLATE "C"', hits: 'i.hits', lastAccess: 'i.last_access', position: 'i.position' } as const;

/**
 * Inserts one redirect; with `appendPosition` it goes last in its group. The group row is locked first, so
 * concurrent appends to one group count each other and a group deleted meanwhile is noticed.
 */
export async function insertRedirect(db: Db, input: NewRedirect, appendPosition: boolean): Promise<number> {
  const [group] = await db.sql.query(`SELECT id FROM ${db.t.redirection.groups} WHERE id = $1::bigint FOR UPDATE`, [idValue(input.groupId)]);
  if (!group) throw new StoreError('not_found', `No redirect group ${input.groupId}.`);
  const params = new Params();
  const position = appendPosition
    ? `(SELECT count(*) FROM ${db.t.redirection.items} WHERE group_id = ${params.add(input.groupId, 'bigint')})::integer`
    : params.add(input.position, 'integer');
  const [row] = await db.sql.query<{ id: string }>(
    `INSERT INTO ${db.t.redirection.items} (${REDIRECT_INSERT_COLUMNS}) VALUES (${redirectValues(input, params, position)}) RETURNING id`,
    params.values,
  );
  return Number(row!.id);
}

export function redirectRepository(db: Db): RedirectRepository {
  const get = async (id: number) => {
    const [row] = await db.sql.query(`SELECT ${REDIRECT_COLUMNS} FROM ${db.t.redirection.items} WHERE id = $1::bigint`, [idValue(id)]);
    return row ? toRedirect(row) : null;
  };
  const change = async (filter: Parameters<RedirectRepository['setStatus']>[0], set: string, extra: unknown[] = []) => {
    const params = new Params();
    for (const value of extra) params.add(value);
    const where = redirectWhere(db, filter, params);
    const rows = await db.sql.query(`UPDATE ${db.t.redirection.items} i SET ${set} WHERE ${where} RETURNING i.id`, params.values);
    return rows.length;
  };
  return {
    get,
    list: async (query) => {
      const params = new Params();
      const where = redirectWhere(db, query.filter, params);
      const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
      const limit = params.add(query.limit, 'bigint');
      const offset = params.add(query.offset, 'bigint');
      return pageWithTotal(
        query.offset,
        query.limit,
        async () =>
          (
            await db.sql.query(
              `SELECT ${REDIRECT_COLUMNS} FROM ${db.t.redirection.items} i WHERE ${where} ORDER BY ${ORDER[query.orderBy]} ${dir}, i.id ${dir} LIMIT ${limit} OFFSET ${offset}`,
              params.values,
            )
          ).map(toRedirect),
        () => countOf(db.sql.query(`SELECT count(*) AS n FROM ${db.t.redirection.items} i WHERE ${where}`, params.values.slice(0, -2))),
      );
    },
    all: async (filter) => {
      const params = new Params();
      const where = redirectWhere(db, filter, params);
      return (await db.sql.query(`SELECT ${REDIRECT_COLUMNS} FROM ${db.t.redirection.items} i WHERE ${where} ORDER BY i.position, i.id`, params.values)).map(toRedirect);
    },
    create: async (input, options) => {
      const id = await atomically(db, (tx) => insertRedirect(tx, input, options.appendPosition));
      return (await get(id))!;
    },
    update: async (id, patch) => {
      const columns: Array<[string, unknown, string]> = [];
      const map: Record<string, [string, string]> = {
        url: ['url', 'text'],
        matchUrl: ['match_url', 'text'],
        regex: ['regex', 'boolean'],
        position: ['position', 'integer'],
        groupId: ['group_id', 'bigint'],
        status: ['status', 'text'],
        actionType: ['action_type', 'text'],
        actionCode: ['action_code', 'integer'],
        matchType: ['match_type', 'text'],
        title: ['title', 'text'],
        hits: ['hits', 'bigint'],
        lastAccess: ['last_access', 'bigint'],
      };
      for (const [key, [column, type]] of Object.entries(map)) {
        const value = (patch as Record<string, unknown>)[key];
        if (value !== undefined) columns.push([column, value, type]);
      }
      const params = new Params();
      const sets = columns.map(([column, value, type]) => `${column} = ${params.add(value, type)}`);
      if (patch.matchData !== undefined) sets.push(`match_data = ${params.add(json(patch.matchData), 'text')}::jsonb`);
      if (patch.actionData !== undefined) sets.push(`action_data = ${params.add(json(patch.actionData), 'text')}::jsonb`);
      if (!sets.length) return get(id);
      try {
        const rows = await db.sql.query(`UPDATE ${db.t.redirection.items} SET ${sets.join(', ')} WHERE id = ${params.add(id, 'bigint')} RETURNING ${REDIRECT_COLUMNS}`, params.values);
        return rows[0] ? toRedirect(rows[0]) : null;
      } catch (error) {
        if ((error as { code?: string }).code === '23503') throw new StoreError('not_found', `No redirect group ${String(patch.groupId)}.`, { cause: error });
        throw error;
      }
    },
    setStatus: (filter, status) => change(filter, 'status = $1::text', [status]),
    resetHits: (filter) => change(filter, 'hits = 0, last_access = 0'),
    delete: async (filter) => {
      const params = new Params();
      const where = redirectWhere(db, filter, params);
      return (await db.sql.query(`DELETE FROM ${db.t.redirection.items} i WHERE ${where} RETURNING i.id`, params.values)).length;
    },
    countByGroup: async () => {
      const rows = await db.sql.query<{ group_id: string; n: string }>(`SELECT group_id, count(*) AS n FROM ${db.t.redirection.items} GROUP BY group_id`);
      return new Map(rows.map((r) => [Number(r.group_id), Number(r.n)]));
    },
    recordHits: async (hits) => {
      if (!hits.length) return;
      // One statement for the whole batch; increments are atomic, so instances sharing the table never lose one.
      // Ids in a stable order so two batches never lock rows in opposite orders.
      const sorted = [...hits].sort((a, b) => a.id - b.id);
      await db.sql.query(
        `UPDATE ${db.t.redirection.items} i SET hits = i.hits + v.n, last_access = GREATEST(i.last_access, v.at)
         FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS v(id, n, at) WHERE i.id = v.id`,
        [sorted.map((h) => h.id), sorted.map((h) => h.count), sorted.map((h) => h.at)],
      );
    },
  };
}
