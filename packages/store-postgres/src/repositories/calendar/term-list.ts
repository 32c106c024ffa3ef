import { boundedSearch, type Page, type TermQuery, type TermRecord } from '@siterest/core';
import { hasNul, Params } from '../../sql/params.js';
import type { Db } from '../db.js';
import { selectList } from '../columns.js';
import { pageAndTotal } from '../paging.js';
import { TERM_COLUMNS, toTerm } from './term-rows.js';

function termFilter(db: Db, q: TermQuery, params: Params): { with: string; where: string } {
  const taxonomy = params.add(q.taxonomy, 'text');
  const where = [`t.taxonomy = ${taxonomy}`];
  let withUsed = '';
  if (q.include) where.push(`t.id = ANY(${params.add([...q.include], 'bigint[]')})`);
  if (q.exclude) where.push(`t.id <> ALL(${params.add([...q.exclude], 'bigint[]')})`);
  // No stored text holds a NUL character (see params.ts), so such values match nothing.
  if (q.slugs) where.push(`t.slug = ANY(${params.add(q.slugs.filter((slug) => !hasNul(slug)), 'text[]')})`);
  if (q.parentId !== undefined) where.push(`t.parent_id = ${params.add(q.parentId, 'bigint')}`);
  if (q.objectId !== undefined) {
    where.push(`EXISTS (SELECT 1 FROM ${db.t.termRelationships} r WHERE r.object_id = ${params.add(q.objectId, 'bigint')} AND r.term_id = t.id)`);
  }
  if (q.hideEmpty && q.hierarchical) {
    // Used terms and all their ancestors (WordPress get_terms keeps an empty parent whose child is used). UNION stops on cycles.
    withUsed = `WITH RECURSIVE used AS (
        SELECT u.id, u.parent_id FROM ${db.t.terms} u WHERE u.taxonomy = ${taxonomy} AND u.count > 0
        UNION
        SELECT a.id, a.parent_id FROM ${db.t.terms} a JOIN used ON a.id = used.parent_id WHERE a.taxonomy = ${taxonomy}
      ) `;
    where.push('t.id IN (SELECT id FROM used)');
  } else if (q.hideEmpty) {
    where.push('t.count > 0');
  }
  if (q.search && hasNul(q.search)) {
    where.push('FALSE');
  } else if (q.search) {
    const needle = params.add(boundedSearch(q.search).toLowerCase(), 'text');
    where.push(`(strpos(lower(t.name), ${needle}) > 0 OR strpos(lower(t.slug), ${needle}) > 0)`);
  }
  return { with: withUsed, where: where.join(' AND ') };
}

/** ORDER BY as the memory store sorts: text keys case-insensitively, ties by id ascending whatever the direction. */
function termOrder(q: TermQuery, params: Params): string {
  const dir = q.order === 'desc' ? 'DESC' : 'ASC';
  switch (q.orderBy) {
    case 'none':
      return 't.id';
    case 'include':
      return q.include ? `array_position(${params.add([...q.include], 'bigint[]')}, t.id) ${dir}, t.id` : 't.id';
    case 'id':
      return `t.id ${dir}`;
    case 'count':
      return `t.count ${dir}, t.id`;
    case 'parent':
      return `t.parent_id ${dir}, t.id`;
    case 'term_group':
      return `t.term_group ${dir}, t.id`;
    case 'slug':
      return `lower(t.slug) COLLATE "C" ${dir}, t.id`;
    case 'description':
      return `lower(t.description) COLLATE "C" ${dir}, t.id`;
    default:
      return `lower(t.name) COLLATE "C" ${dir}, t.id`;
  }
}

export function listTerms(db: Db, q: TermQuery): Promise<Page<TermRecord>> {
  const params = new Params();
  const filter = termFilter(db, q, params);
  const countParams = [...params.values];
  const order = termOrder(q, params);
  const limit = params.count(q.limit);
  const offset = params.count(q.offset);
  return pageAndTotal(
    db,
    q,
    { with: filter.with, columns: selectList('t', TERM_COLUMNS), from: `${db.t.terms} t`, where: filter.where, order, limit, offset, prepare: q.search === undefined },
    { page: params.values, count: countParams },
    toTerm,
  );
}
