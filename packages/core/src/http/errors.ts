import { ApiError } from './api-error.js';

/**
 * The WordPress core REST error catalogue: every core code siterest emits, with WordPress's exact messages.
 * Namespace-specific codes live in each namespace's own `errors.ts`.
 */
export const coreErrors = {
  noRoute: () => new ApiError('rest_no_route', 'No route was found matching the URL and request method.', 404),
  /** PHP's json_last_error() code and message: 4 syntax, 5 UTF-8, 1 depth, 10 lone surrogate. */
  invalidJson: (message: string, code = 4) =>
    new ApiError('rest_invalid_json', 'Invalid JSON body passed.', 400, {
      json_error_code: code,
      json_error_message: message,
    }),
  missingParams: (params: string[]) =>
    new ApiError('rest_missing_callback_param', `Missing parameter(s): ${params.join(', ')}`, 400, { params }),
  invalidParams: (params: Record<string, string>, details: Record<string, unknown>) =>
    new ApiError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, 400, {
      params,
      details: Object.keys(details).length ? details : [],
    }),
  forbidden: (status: 401 | 403, message = 'Sorry, you are not allowed to do that.') =>
    new ApiError('rest_forbidden', message, status),
  forbiddenContext: (status: 401 | 403) =>
    new ApiError('rest_forbidden_context', 'Sorry, you are not allowed to edit posts in this post type.', status),
  invalidPageNumber: () =>
    new ApiError(
      'rest_post_invalid_page_number',
      'The page number requested is larger than the number of pages available.',
      400,
    ),
  payloadTooLarge: (limit: number) =>
    new ApiError('rest_payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, 413, {
      limit,
    }),
  unsupportedMediaType: () =>
    new ApiError('rest_unsupported_media_type', 'The request payload format is not supported.', 415),
  invalidBody: (message: string) => new ApiError('rest_invalid_body', message, 400),
  serviceUnavailable: () =>
    new ApiError(
      'rest_service_unavailable',
      'The site cannot reach its data store right now. Please try again in a moment.',
      503,
    ),
  // Requests Node's HTTP parser refuses before any route sees them (WordPress's web server answers these itself).
  headersTooLarge: () =>
    new ApiError('rest_request_headers_too_large', 'The request headers are larger than the server accepts.', 431),
  requestTimeout: () => new ApiError('rest_request_timeout', 'The request took too long to arrive.', 408),
  badRequest: () => new ApiError('rest_bad_request', 'The request could not be read.', 400),
  /** What WordPress's fatal error handler answers; details go to the host app's logger, never on the wire. */
  internal: () => new ApiError('internal_server_error', 'There has been a critical error on this website.', 500),
  // Cookie authentication (WordPress rest_cookie_check_errors).
  cookieInvalidNonce: () => new ApiError('rest_cookie_invalid_nonce', 'Cookie check failed', 403),
  // Application passwords (WordPress wp_authenticate_application_password).
  invalidUsername: () =>
    new ApiError('invalid_username', '<strong>Error:</strong> Unknown username. Check again or try your email address.', 401),
  invalidEmail: () =>
    new ApiError('invalid_email', '<strong>Error:</strong> Unknown email address. Check again or try your username.', 401),
  incorrectPassword: () =>
    new ApiError('incorrect_password', 'The provided password is an invalid application password.', 401),
  applicationPasswordsDisabled: () =>
    new ApiError('application_passwords_disabled', 'Application passwords are not available.', 401),
} as const;
