import type { Page } from '@siterest/core';
import type { Row } from '../sql/client.js';
import type { Db } from './db.js';

/**
 * Items of one page plus the total. The count query runs only when the page cannot tell: a short,
 * non-empty page (or an empty first one) ends the list, so the total is known without counting.
 */
export async function pageWithTotal<T>(
  offset: number,
  limit: number,
  items: () => Promise<T[]>,
  count: () => Promise<number>,
): Promise<Page<T>> {
  const page = await items();
  const known = page.length < limit && (page.length > 0 || offset === 0);
  return { items: page, total: known ? offset + page.length : await count() };
}

export async function countOf(rows: Promise<Array<{ n: unknown }>>): Promise<number> {
  return Number((await rows)[0]?.n ?? 0);
}

/** The parts of a page's statement that {@link pageAndTotal} puts together. */
export interface PageStatement {
  /** A leading `WITH … ` the FROM and WHERE use, or ''. */
  with: string;
  columns: string;
  from: string;
  where: string;
  order: string;
  /** The LIMIT and OFFSET placeholders. */
  limit: string;
  offset: string;
  /**
   * Whether to keep the statement prepared on each connection: only for texts from a bounded set (no free-text
   * search, whose words each add a condition), as the events list does.
   */
  prepare: boolean;
}

/**
 * A page and its list's total in one statement: one round trip instead of two. The total is `count(*)` over the
 * same FROM and WHERE as a scalar subquery with no outer reference, which PostgreSQL runs once (an InitPlan) and
 * puts on every row; it is run even when the page alone would tell, which costs less than a second round trip for
 * the short lists this serves (venues, organizers, terms). A page past the end has no row to carry it: its total
 * takes a second statement (such a page is answered with an error anyway). `values.count` are the values the FROM
 * and WHERE use, the first of `values.page`.
 */
export async function pageAndTotal<T>(
  db: Db,
  q: { offset: number; limit: number },
  sql: PageStatement,
  values: { page: readonly unknown[]; count: readonly unknown[] },
  toItem: (row: Row) => T,
): Promise<Page<T>> {
  const total = `(SELECT count(*) FROM ${sql.from} WHERE ${sql.where})`;
  const rows = await db.sql.query(
    `${sql.with}SELECT ${sql.columns}, ${total} AS siterest_total FROM ${sql.from} WHERE ${sql.where} ORDER BY ${sql.order} LIMIT ${sql.limit} OFFSET ${sql.offset}`,
    [...values.page],
    { prepare: sql.prepare },
  );
  return pageWithTotal(
    q.offset,
    q.limit,
    () => Promise.resolve(rows.map(toItem)),
    async () =>
      rows.length ? Number(rows[0]!.siterest_total) : countOf(db.sql.query<{ n: unknown }>(`${sql.with}SELECT count(*) AS n FROM ${sql.from} WHERE ${sql.where}`, [...values.count])),
  );
}
