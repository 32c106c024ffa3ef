import type { TermRecord } from '@siterest/core';
import type { Row } from '../../sql/client.js';
import { col, fromRow, selectList, type Column } from '../columns.js';
import type { Db } from '../db.js';

export const TERM_COLUMNS: readonly Column[] = [
  col('id', 'id', 'bigint'),
  col('taxonomy', 'taxonomy', 'text'),
  col('name', 'name', 'text'),
  col('slug', 'slug', 'text'),
  col('description', 'description', 'text'),
  col('parentId', 'parent_id', 'bigint'),
  col('termGroup', 'term_group', 'bigint'),
  col('count', 'count', 'bigint'),
];

export const termSelect = (db: Db) => `SELECT ${selectList('t', TERM_COLUMNS)} FROM ${db.t.terms} t`;
export const toTerm = (row: Row) => fromRow<TermRecord>(row, TERM_COLUMNS);

