import { StoreError } from '@siterest/core';

/**
 * Turns driver failures into the store's vocabulary: the site answers `unavailable` with a 503 (a connection or
 * server in trouble, or a deadlock or serialization failure) and `conflict` with a clear message; anything else is
 * a bug and stays as it is.
 */

/**
 * SQLSTATEs meaning the server or the connection is gone or overloaded, not that the statement was wrong:
 * shutdowns, too many connections, out of resources, idle-in-transaction timeout, and a statement cancelled by
 * `statement_timeout` or `lock_timeout` (57014, 55P03): the database did not answer in time.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '55P03', '53000', '53100', '53200', '53300', '53400', '25P03', '58030']);

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/** Messages node-postgres and PGlite use for dead connections (they carry no code). */
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /cannot use a pool after calling end/i,
  /connection timeout/i,
  /query read timeout/i,
  /pglite is closed/i,
  /socket (has been )?(ended|closed)/i,
];

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || UNAVAILABLE_NODE_CODES.has(code)) return true;
  if (error instanceof AggregateError && error.errors.some(isConnectionError)) return true;
  return UNAVAILABLE_MESSAGES.some((re) => re.test(error.message));
}

const RETRYABLE_STATES = new Set(['40P01', '40001']);

/**
 * A deadlock victim or serialization failure (the driver's error, or the store's made of it by toStoreError):
 * running the same work again is expected to succeed.
 */
export function isRetryableConflict(error: unknown): boolean {
  if (RETRYABLE_STATES.has(codeOf(error))) return true;
  return error instanceof StoreError && error.kind === 'unavailable' && RETRYABLE_STATES.has(codeOf(error.cause));
}

/**
 * A unique constraint another transaction won (the store's error or the driver's): work that chose the value
 * (a slug) chooses again when it runs once more and sees the winner.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (codeOf(error) === '23505') return true;
  return error instanceof StoreError && error.kind === 'conflict' && codeOf(error.cause) === '23505';
}

export function toStoreError(error: unknown): unknown {
  if (error instanceof StoreError) return error;
  if (isConnectionError(error)) {
    return new StoreError('unavailable', `The database is unavailable: ${(error as Error).message || codeOf(error)}`, { cause: error });
  }
  const code = codeOf(error);
  // Lost to concurrent writes, and still lost when the work was run again (or it was not run in a transaction the
  // store may run again): a moment's trouble of the database, answered 503 with Retry-After, not a 500.
  if (RETRYABLE_STATES.has(code)) {
    return new StoreError('unavailable', `The database could not settle this change among concurrent ones: ${(error as Error).message}`, { cause: error });
  }
  if (code.startsWith('23')) {
    return new StoreError('conflict', `The change conflicts with existing data: ${(error as Error).message}`, { cause: error });
  }
  return error;
}
