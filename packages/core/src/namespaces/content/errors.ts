import { ApiError } from '../../http/api-error.js';

/** Errors of `rest/v1`: WordPress's own codes, as its posts controller words them. */
export const contentErrors = {
  invalidId: () => new ApiError('rest_post_invalid_id', 'Invalid post ID.', 404),
} as const;
