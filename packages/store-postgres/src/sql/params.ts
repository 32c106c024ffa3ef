/**
 * Values as PostgreSQL can take them. Whatever the caller passes, a statement never fails because of a value:
 *
 * - ids are `bigint` columns filled from sequences, and JavaScript numbers are exact only up to 2^53, so an id
 *   beyond that (2^63, 1e21, 1.5) names no record: it is bound as NULL, which equals nothing;
 * - codes and module numbers are `integer` columns: a value outside their 32 bits (a filter of 2^63) names no row,
 *   and is bound as NULL too;
 * - row counts and offsets beyond 2^53 mean "past the end of any table" and are clamped there;
 * - PostgreSQL text cannot hold U+0000: a NUL character that reaches the store is dropped (the API refuses it in
 *   text parameters; lookups by such a value find nothing before they get here).
 */
export function idValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) return idValue(Number(value));
  return null;
}

/** The ids of a list that can name a record (see idValue); the others cannot match anything, so they are left out. */
export function idValues(values: readonly unknown[]): number[] {
  const out: number[] = [];
  for (const value of values) {
    const id = idValue(value);
    if (id !== null) out.push(id);
  }
  return out;
}

/** A value for an `integer` column or filter: a whole number within 32 bits, else null (see idValue). */
function integerValue(value: unknown): unknown {
  if (typeof value !== 'number') return value;
  return Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 ? value : null;
}

/** A LIMIT or OFFSET: a whole number from 0 to 2^53 - 1. */
function countValue(value: number): number {
  if (Number.isNaN(value) || value <= 0) return 0;
  return Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER);
}

const NUL = '\u0000';

export function hasNul(value: string): boolean {
  return value.includes(NUL);
}

/** Statement parameters with NUL characters dropped from strings (in arrays too), the one thing PostgreSQL text refuses. */
export function bindable(params: readonly unknown[]): unknown[] {
  let changed = false;
  const out = params.map((value) => {
    const clean = withoutNul(value);
    if (clean !== value) changed = true;
    return clean;
  });
  return changed ? out : (params as unknown[]);
}

function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return hasNul(value) ? value.replaceAll(NUL, '') : value;
  if (Array.isArray(value) && value.some((item) => withoutNul(item) !== item)) return value.map(withoutNul);
  return value;
}

/** Collects bind values while a statement is assembled, so every value travels as a parameter. */
export class Params {
  readonly values: unknown[] = [];

  /**
   * The placeholder for `value`, with an explicit type so both drivers bind it the same way. Ids and integers are made
   * safe (idValue, integerValue).
   */
  add(value: unknown, type?: string): string {
    if (type === 'bigint') value = idValue(value);
    else if (type === 'integer') value = integerValue(value);
    else if (type === 'bigint[]') value = idValues(value as readonly unknown[]);
    this.values.push(value);
    return type ? `$${this.values.length}::${type}` : `$${this.values.length}`;
  }

  /** A LIMIT or OFFSET (see countValue). */
  count(value: number): string {
    this.values.push(countValue(value));
    return `$${this.values.length}::bigint`;
  }
}
