import { StoreError } from '@siterest/core';

/**
 * Turns driver failures into the store's vocabulary: the site answers `unavailable` with a 503 and
 * `conflict` with a clear message; anything else is a bug and stays as it is.
 */

/** SQLSTATEs meaning the server or the connection is gone, not that the statement was wrong. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53400', '25P03', '58030']);

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

export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40P01' || code === '40001';
}

export function toStoreError(error: unknown): unknown {
  if (error instanceof StoreError) return error;
  if (isConnectionError(error)) {
    return new StoreError('unavailable', `The database is unavailable: ${(error as Error).message || codeOf(error)}`, { cause: error });
  }
  const code = codeOf(error);
  if (code.startsWith('23')) {
    return new StoreError('conflict', `The change conflicts with existing data: ${(error as Error).message}`, { cause: error });
  }
  return error;
}
