import { StoreError, type Asked, type NewTerm, type TermPatch, type TermRecord, type TermRepository } from '@siterest/core';
import { hasNul, idValue, idValues, Params } from '../../sql/params.js';
import { assignments, selectList } from '../columns.js';
import { atomically, type Db } from '../db.js';
import { lockNames } from '../naming-lock.js';
import { listTerms } from './term-list.js';
import { TERM_COLUMNS, termSelect, toTerm } from './term-rows.js';

export function termRepository(db: Db): Asked<TermRepository> {
  const many = async (ids: readonly number[]) => {
    if (ids.length === 0) return [];
    const rows = await db.sql.query(`${termSelect(db)} WHERE t.id = ANY($1::bigint[])`, [[...new Set(idValues(ids))]], { prepare: true });
    const byId = new Map(rows.map((row) => [Number(row.id), toTerm(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };
  return {
    get: async (id) => (await many([id]))[0] ?? null,
    getMany: many,
    findBySlug: async (taxonomy, slug) => {
      // No stored text can hold a NUL character (see params.ts): such a value names no term.
      if (hasNul(slug)) return null;
      await lockNames(db, `term:${taxonomy}`);
      // Prepared: every term filter of a list (`categories=jazz`) asks it.
      const [row] = await db.sql.query(`${termSelect(db)} WHERE t.taxonomy = $1 AND t.slug = $2 ORDER BY t.id LIMIT 1`, [taxonomy, slug], { prepare: true });
      return row ? toTerm(row) : null;
    },
    findByName: async (taxonomy, name, parentId) => {
      if (hasNul(name)) return [];
      await lockNames(db, `term:${taxonomy}`);
      const params = new Params();
      const where = [`t.taxonomy = ${params.add(taxonomy, 'text')}`, `lower(t.name) = lower(${params.add(name, 'text')})`];
      if (parentId !== undefined) where.push(`t.parent_id = ${params.add(parentId, 'bigint')}`);
      const rows = await db.sql.query(`${termSelect(db)} WHERE ${where.join(' AND ')} ORDER BY t.id`, params.values);
      return rows.map(toTerm);
    },
    list: (query) => listTerms(db, query),
    create: async (term: NewTerm) => {
      const params = new Params();
      const values = assignments(params, TERM_COLUMNS, { ...term, termGroup: term.termGroup ?? 0, id: undefined, count: undefined });
      const [row] = await db.sql.query(
        `INSERT INTO ${db.t.terms} AS t (${values.map(([c]) => c).join(', ')}) VALUES (${values.map(([, v]) => v).join(', ')})
         RETURNING ${selectList('t', TERM_COLUMNS)}`,
        params.values,
      );
      return toTerm(row!);
    },
    update: async (id: number, patch: TermPatch) => {
      const params = new Params();
      const key = params.add(id, 'bigint');
      const editable: Partial<TermRecord> = { name: patch.name, slug: patch.slug, description: patch.description, parentId: patch.parentId };
      const set = assignments(params, TERM_COLUMNS, editable);
      const [row] = set.length
        ? await db.sql.query(
            `UPDATE ${db.t.terms} t SET ${set.map(([c, v]) => `${c} = ${v}`).join(', ')} WHERE t.id = ${key} RETURNING ${selectList('t', TERM_COLUMNS)}`,
            params.values,
          )
        : await db.sql.query(`${termSelect(db)} WHERE t.id = ${key}`, params.values);
      if (!row) throw new StoreError('not_found', `No term ${id}.`);
      return toTerm(row);
    },
    delete: (id: number) =>
      atomically(db, async (tx) => {
        const [term] = await tx.sql.query<{ parent_id: unknown }>(`SELECT parent_id FROM ${tx.t.terms} WHERE id = $1::bigint FOR UPDATE`, [idValue(id)]);
        if (!term) return false;
        await tx.sql.query(`UPDATE ${tx.t.terms} SET parent_id = $2::bigint WHERE parent_id = $1::bigint`, [id, Number(term.parent_id)]);
        // Its term rows go by the foreign key's cascade, after the term: event_search's trigger then leaves the id of
        // the gone term in the events' lists instead of rewriting every event's row (migration 70).
        await tx.sql.query(`DELETE FROM ${tx.t.terms} WHERE id = $1::bigint`, [id]);
        return true;
      }),
  };
}
