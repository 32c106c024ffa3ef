import { ApiError } from '../../http/api-error.js';

/** WordPress's attachment controller errors, with its messages. */
export const mediaErrors = {
  invalidId: () => new ApiError('rest_post_invalid_id', 'Invalid post ID.', 404),
  postExists: () => new ApiError('rest_post_exists', 'Cannot create existing post.', 400),
  cannotCreate: (status: 401 | 403) => new ApiError('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.', status),
  cannotUpload: () => new ApiError('rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.', 400),
  cannotUploadUrl: (status: 401 | 403) => new ApiError('rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.', status),
  cannotEdit: (status: 401 | 403) => new ApiError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', status),
  cannotEditParent: (status: 401 | 403) => new ApiError('rest_cannot_edit', 'Sorry, you are not allowed to upload media to this post.', status),
  cannotEditOthers: (status: 401 | 403, creating: boolean) =>
    new ApiError(
      'rest_cannot_edit_others',
      creating ? 'Sorry, you are not allowed to create posts as this user.' : 'Sorry, you are not allowed to update posts as this user.',
      status,
    ),
  cannotDelete: (status: 401 | 403) => new ApiError('rest_cannot_delete', 'Sorry, you are not allowed to delete this post.', status),
  forbiddenContext: (status: 401 | 403) => new ApiError('rest_forbidden_context', 'Sorry, you are not allowed to edit this post.', status),
  forbiddenStatus: (status: 401 | 403) => new ApiError('rest_forbidden_status', 'Status is forbidden.', status),
  invalidAuthor: () => new ApiError('rest_invalid_author', 'Invalid author ID.', 400),
  invalidParent: () => new ApiError('rest_invalid_param', 'Invalid parent type.', 400),
  trashNotSupported: () => new ApiError('rest_trash_not_supported', "The post does not support trashing. Set 'force=true' to delete.", 501),
  cannotDeleteFailed: () => new ApiError('rest_cannot_delete', 'The post cannot be deleted.', 500),
  noData: () => new ApiError('rest_upload_no_data', 'No data supplied.', 400),
  noContentType: () => new ApiError('rest_upload_no_content_type', 'No Content-Type supplied.', 400),
  noDisposition: () => new ApiError('rest_upload_no_content_disposition', 'No Content-Disposition supplied.', 400),
  invalidDisposition: () =>
    new ApiError(
      'rest_upload_invalid_disposition',
      'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
      400,
    ),
  hashMismatch: () => new ApiError('rest_upload_hash_mismatch', 'Content hash did not match expected.', 412),
  /** WordPress answers these 500 (the upload handler's message); they are the client's fault, so 400 here. */
  notAllowedType: (multipart: boolean) =>
    new ApiError(multipart ? 'rest_upload_unknown_error' : 'rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.', 400),
  tooBig: (limit: number) =>
    new ApiError('rest_upload_file_too_big', `This file is too big. Files must be less than ${Math.floor(limit / 1024).toLocaleString('en-US')} KB in size.`, 400),
};
