import { ZERO_DATE } from '@siterest/core';
import type { Row } from '../sql/client.js';
import type { Params } from '../sql/params.js';

/**
 * How a record field is stored. Conversions live here once: bigint ids come back as strings (node-postgres)
 * or numbers (PGlite), event instants are timestamps read back through to_char.
 */
export type Kind = 'text' | 'integer' | 'bigint' | 'bigints' | 'boolean' | 'float' | 'utc' | 'texts' | 'json';

export interface Column {
  readonly field: string;
  readonly column: string;
  readonly kind: Kind;
  /** Written but read from another table (the event's copy of its post's status). */
  readonly writeOnly?: boolean;
}

const SQL_TYPE: Record<Kind, string> = {
  text: 'text',
  integer: 'integer',
  bigint: 'bigint',
  bigints: 'bigint[]',
  boolean: 'boolean',
  float: 'double precision',
  utc: 'timestamp',
  texts: 'text[]',
  json: 'jsonb',
};

export const col = (field: string, column: string, kind: Kind, writeOnly = false): Column => ({ field, column, kind, writeOnly });

const UTC_FORMAT = `'YYYY-MM-DD HH24:MI:SS'`;

/** `alias.column AS "field"` for every readable column. */
export function selectList(alias: string, columns: readonly Column[]): string {
  return columns
    .filter((c) => !c.writeOnly)
    .map((c) => (c.kind === 'utc' ? `to_char(${alias}.${c.column}, ${UTC_FORMAT})` : `${alias}.${c.column}`) + ` AS "${c.field}"`)
    .join(', ');
}

/**
 * An instant as a `timestamp` parameter. WordPress's zero date is -infinity; so is anything before the year 1,
 * which PostgreSQL has no date for, and anything past its last year (294276) is +infinity (the API refuses such
 * dates; this keeps a statement from failing on one that arrives some other way).
 */
function utcValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value === ZERO_DATE || value.startsWith('-') || value.startsWith('0000-')) return '-infinity';
  if (/^\+?\d{7,}-/.test(value)) return 'infinity';
  return value;
}

/** A bind placeholder for a field's value. */
function bind(params: Params, column: Column, value: unknown): string {
  if (column.kind === 'utc') return params.add(utcValue(value), SQL_TYPE.utc);
  if (column.kind === 'bigints') return params.add((value as number[]).map(Number), SQL_TYPE.bigints);
  if (column.kind === 'json') return params.add(JSON.stringify(value), SQL_TYPE.json);
  return params.add(value, SQL_TYPE[column.kind]);
}

/** A timestamp bound compared with a utc column. */
export function bindUtc(params: Params, value: string): string {
  return params.add(utcValue(value), SQL_TYPE.utc);
}

function readField(kind: Kind, value: unknown): unknown {
  switch (kind) {
    case 'bigint':
    case 'integer':
      return value === null ? null : Number(value);
    case 'bigints':
      return ((value as unknown[] | null) ?? []).map(Number);
    case 'json':
      return typeof value === 'string' ? JSON.parse(value) : value;
    case 'texts':
      return [...((value as string[] | null) ?? [])];
    case 'utc':
      // -infinity formats as NULL: WordPress's zero date.
      return value ?? ZERO_DATE;
    default:
      return value;
  }
}

export function fromRow<T>(row: Row, columns: readonly Column[]): T {
  const record: Record<string, unknown> = {};
  for (const c of columns) if (!c.writeOnly) record[c.field] = readField(c.kind, row[c.field]);
  return record as T;
}

/** Values of `input` for `columns`, skipping fields the input leaves undefined (patches). */
export function assignments(params: Params, columns: readonly Column[], input: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const c of columns) {
    const value = input[c.field];
    if (value !== undefined) out.push([c.column, bind(params, c, value)]);
  }
  return out;
}
