import type { GroupFilter, RedirectGroupRepository } from '@siterest/core';
import { containsPattern } from '../../sql/like.js';
import { idValue, Params } from '../../sql/params.js';
import { atomically, type Db } from '../db.js';
import { countOf, pageWithTotal } from '../paging.js';
import { toGroup } from './rows.js';

const COLUMNS = 'id, name, module_id, status, position';

function groupWhere(f: GroupFilter, params: Params): string {
  const where = ['true'];
  if (f.ids) where.push(`g.id = ANY(${params.add([...f.ids], 'bigint[]')})`);
  if (f.status !== undefined) where.push(`g.status = ${params.add(f.status, 'text')}`);
  if (f.moduleId !== undefined) where.push(`g.module_id = ${params.add(f.moduleId, 'integer')}`);
  if (f.name !== undefined) where.push(`g.name ILIKE ${params.add(containsPattern(f.name), 'text')}`);
  return where.join(' AND ');
}

export function groupRepository(db: Db): RedirectGroupRepository {
  const t = db.t.redirection;
  return {
    get: async (id) => {
      const [row] = await db.sql.query(`SELECT ${COLUMNS} FROM ${t.groups} WHERE id = $1::bigint`, [idValue(id)]);
      return row ? toGroup(row) : null;
    },
    list: async (query) => {
      const params = new Params();
      const where = groupWhere(query.filter, params);
      const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
      const order = query.orderBy === 'name' ? `lower(g.name) COLLATE "C" ${dir}, g.id ${dir}` : `g.id ${dir}`;
      const count = params.values.length;
      const limit = params.add(query.limit, 'bigint');
      const offset = params.add(query.offset, 'bigint');
      return pageWithTotal(
        query.offset,
        query.limit,
        async () => (await db.sql.query(`SELECT ${COLUMNS} FROM ${t.groups} g WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`, params.values)).map(toGroup),
        () => countOf(db.sql.query(`SELECT count(*) AS n FROM ${t.groups} g WHERE ${where}`, params.values.slice(0, count))),
      );
    },
    all: async () => (await db.sql.query(`SELECT ${COLUMNS} FROM ${t.groups} ORDER BY id`)).map(toGroup),
    create: async (input) => {
      const [row] = await db.sql.query(
        `INSERT INTO ${t.groups} (name, module_id, status, position) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [input.name, input.moduleId, input.status, input.position],
      );
      return toGroup(row!);
    },
    update: async (id, patch) => {
      const params = new Params();
      const sets: string[] = [];
      if (patch.name !== undefined) sets.push(`name = ${params.add(patch.name, 'text')}`);
      if (patch.moduleId !== undefined) sets.push(`module_id = ${params.add(patch.moduleId, 'integer')}`);
      if (patch.status !== undefined) sets.push(`status = ${params.add(patch.status, 'text')}`);
      if (patch.position !== undefined) sets.push(`position = ${params.add(patch.position, 'integer')}`);
      const sql = sets.length
        ? `UPDATE ${t.groups} SET ${sets.join(', ')} WHERE id = ${params.add(id, 'bigint')} RETURNING ${COLUMNS}`
        : `SELECT ${COLUMNS} FROM ${t.groups} WHERE id = ${params.add(id, 'bigint')}`;
      const [row] = await db.sql.query(sql, params.values);
      return row ? toGroup(row) : null;
    },
    setStatus: (filter, status) =>
      atomically(db, async (tx) => {
        const params = new Params();
        const where = groupWhere(filter, params);
        const value = params.add(status, 'text');
        const rows = await tx.sql.query<{ id: string }>(`UPDATE ${t.groups} g SET status = ${value} WHERE ${where} RETURNING g.id`, params.values);
        const ids = rows.map((r) => Number(r.id));
        if (ids.length) await tx.sql.query(`UPDATE ${t.items} SET status = $1 WHERE group_id = ANY($2::bigint[])`, [status, ids]);
        return ids.length;
      }),
    delete: async (filter) => {
      const params = new Params();
      const where = groupWhere(filter, params);
      // Redirects go with their group (ON DELETE CASCADE), in the same statement.
      return (await db.sql.query(`DELETE FROM ${t.groups} g WHERE ${where} RETURNING g.id`, params.values)).length;
    },
  };
}
