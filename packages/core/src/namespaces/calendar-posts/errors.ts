import { ApiError } from '../../http/api-error.js';

/** WordPress's posts controller errors (wp/v2 routes of the calendar's post types), with its messages. */
export const calendarPostErrors = {
  invalidId: () => new ApiError('rest_post_invalid_id', 'Invalid post ID.', 404),
  incorrectPassword: () => new ApiError('rest_post_incorrect_password', 'Incorrect post password.', 403),
  forbiddenContext: (status: 401 | 403) => new ApiError('rest_forbidden_context', 'Sorry, you are not allowed to edit this post.', status),
  cannotEdit: (status: 401 | 403) => new ApiError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', status),
  cannotPublish: (status: 401 | 403) => new ApiError('rest_cannot_publish', 'Sorry, you are not allowed to publish posts in this post type.', status),
  cannotPublishPrivate: (status: 401 | 403) =>
    new ApiError('rest_cannot_publish', 'Sorry, you are not allowed to create private posts in this post type.', status),
  invalidFeaturedMedia: () => new ApiError('rest_invalid_featured_media', 'Invalid featured media ID.', 400),
  invalidDate: () => new ApiError('rest_invalid_date', 'Invalid date.', 400),
};
