/**
 * A WordPress `WP_Error` as the REST server renders it: `{ code, message, data }`, the HTTP status taken from
 * `data.status`. Handlers throw these; anything else thrown becomes a 500 without details on the wire.
 */
export type ErrorData = Record<string, unknown> | null;

export interface WireError {
  code: string;
  message: string;
  data: unknown;
  additional_data?: unknown[];
  additional_errors?: WireError[];
}

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** The error's data as WordPress stores it; `null` renders as `"data": null`. */
  readonly data: ErrorData;
  /** Earlier data items of the same code (WordPress >= 5.6 keeps them). */
  readonly additionalData: unknown[];
  /** Further codes held by the same error. */
  readonly additionalErrors: ApiError[];

  constructor(
    code: string,
    message: string,
    status: number | null,
    extra: Record<string, unknown> | null = {},
    options: { additionalData?: unknown[]; additionalErrors?: ApiError[] } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status ?? 500;
    this.data = status === null ? (extra && Object.keys(extra).length ? extra : null) : { status, ...(extra ?? {}) };
    this.additionalData = options.additionalData ?? [];
    this.additionalErrors = options.additionalErrors ?? [];
  }

  /** A detail error of schema validation: no status, data as given (WordPress nests these without status). */
  static detail(code: string, message: string, data: ErrorData = null): ApiError {
    return new ApiError(code, message, null, data);
  }

  toWire(): WireError {
    const wire: WireError = { code: this.code, message: this.message, data: this.data };
    if (this.additionalData.length) wire.additional_data = this.additionalData;
    if (this.additionalErrors.length) wire.additional_errors = this.additionalErrors.map((e) => e.toWire());
    return wire;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
