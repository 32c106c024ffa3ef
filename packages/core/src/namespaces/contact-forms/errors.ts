import { ApiError } from '../../http/api-error.js';

/** Contact Form 7's REST error codes and messages (always 403 for permissions, never 401). */
export const contactFormErrors = {
  forbiddenList: () => new ApiError('wpcf7_forbidden', 'You are not allowed to access contact forms.', 403),
  forbiddenCreate: () => new ApiError('wpcf7_forbidden', 'You are not allowed to create a contact form.', 403),
  forbiddenItem: () => new ApiError('wpcf7_forbidden', 'You are not allowed to access the requested contact form.', 403),
  postExists: () => new ApiError('wpcf7_post_exists', 'Cannot create existing contact form.', 400),
  notFound: () => new ApiError('wpcf7_not_found', 'The requested contact form was not found.', 404),
  cannotSave: () => new ApiError('wpcf7_cannot_save', 'There was an error saving the contact form.', 500),
  cannotDelete: () => new ApiError('wpcf7_cannot_delete', 'There was an error deleting the contact form.', 500),
  unsupportedMediaType: () => new ApiError('wpcf7_unsupported_media_type', 'The request payload format is not supported.', 415),
  unitTagNotFound: () => new ApiError('wpcf7_unit_tag_not_found', 'There is no valid unit tag.', 400),
  // siterest: a client posting faster than the site allows (Contact Form 7 has no limit of its own).
  tooManyRequests: (retryAfter: number) =>
    new ApiError(
      'wpcf7_too_many_requests',
      `Too many submissions from your address. Please try again in ${retryAfter} seconds.`,
      429,
      { retry_after: retryAfter },
    ),
  invalidParam: (param: string, message: string) =>
    new ApiError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, {
      params: { [param]: message },
      details: [],
    }),
  templateTooLong: (param: string, max: number) =>
    new ApiError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, {
      params: { [param]: `${param} must be at most ${max} characters long.` },
      details: [],
    }),
} as const;
