/**
 * Stores throw StoreError for conditions the pipeline turns into clear answers: `unavailable` (503, the
 * database cannot be reached), `conflict` (a uniqueness rule), `not_found` (the record vanished).
 */
export type StoreErrorKind = 'unavailable' | 'conflict' | 'not_found';

export class StoreError extends Error {
  readonly kind: StoreErrorKind;

  constructor(kind: StoreErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.kind = kind;
  }
}

export function isStoreError(value: unknown, kind?: StoreErrorKind): value is StoreError {
  return value instanceof StoreError && (kind === undefined || value.kind === kind);
}
