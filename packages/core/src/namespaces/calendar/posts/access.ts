import { canOnObject } from '../../../auth/principal.js';
import type { ApiRequest } from '../../../http/api-request.js';
import type { PostRecord } from '../../../store/records.js';
import type { PostTypeConfig } from './types.js';

export function canRead(request: ApiRequest, type: PostTypeConfig, post: PostRecord): boolean {
  return post.status === 'publish' || canOnObject(request.principal, 'read_post', type.caps, post);
}

export function canEdit(request: ApiRequest, type: PostTypeConfig, post: PostRecord): boolean {
  return canOnObject(request.principal, 'edit_post', type.caps, post);
}

export function canDelete(request: ApiRequest, type: PostTypeConfig, post: PostRecord): boolean {
  return canOnObject(request.principal, 'delete_post', type.caps, post);
}

/** Whether the caller may see the post's content although it has a password. */
export function unlocked(request: ApiRequest, type: PostTypeConfig, post: PostRecord): boolean {
  if (!post.password) return true;
  if (request.get('password') === post.password) return true;
  return request.get('context') === 'edit' && canEdit(request, type, post);
}
