import { canOnObject, hasCap, type Principal } from '../../../auth/principal.js';
import type { PostTypeCaps } from '../../../auth/roles.js';
import type { ApiError } from '../../../http/api-error.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { intval, isEmpty, isNumeric } from '../../../http/php.js';
import type { ReadVisibility, StatusFilter } from '../../../store/queries.js';
import type { PostRecord } from '../../../store/records.js';
import { statusMatches } from '../../../store/search.js';
import { calendarErrors } from '../errors.js';
import { REGISTERED_STATUSES } from './status.js';
import type { PostTypeConfig } from './types.js';

/*
 * Who may read a calendar post: WordPress's map_meta_cap('read_post') as TEC's single routes ask it
 * ("publish, or current_user_can( read_post )"). Lists apply the very same rule to every item, as a clause
 * of the store query (`readVisibility`), so that a list never shows what a single read refuses.
 *
 *   publish                 everybody
 *   the reader's own post   any status (the `read` capability every role has)
 *   private                 read_private_posts
 *   future                  edit_others_posts and edit_published_posts (edit_post of someone else's post)
 *   any other status        edit_others_posts (draft, pending, trash, …)
 */

/** Whether `principal` may read someone else's post of the type in `status`. */
function othersReadable(principal: Principal | null, caps: PostTypeCaps, status: string): boolean {
  if (status === 'publish') return true;
  if (!principal) return false;
  if (status === 'private') return hasCap(principal, caps.read_private_posts);
  if (status === 'future') return hasCap(principal, caps.edit_others_posts) && hasCap(principal, caps.edit_published_posts);
  return hasCap(principal, caps.edit_others_posts);
}

/** The reader's own posts are readable in every status (WordPress maps read_post on one's own post to `read`). */
function readsOwn(principal: Principal | null): principal is Principal {
  return principal !== null && principal.id !== 0 && hasCap(principal, 'read');
}

/** The read rule on one post. */
function mayRead(principal: Principal | null, caps: PostTypeCaps, post: Pick<PostRecord, 'status' | 'authorId'>): boolean {
  if (readsOwn(principal) && post.authorId === principal.id) return true;
  return othersReadable(principal, caps, post.status);
}

export function canRead(request: ApiRequest, type: PostTypeConfig, post: PostRecord): boolean {
  return mayRead(request.principal, type.caps, post);
}

/**
 * The read rule as a store clause for a list filtered by `statuses`: which of those statuses the caller may
 * read on anybody's posts, and which only on their own. Undefined when every post the filter selects is
 * readable (anonymous callers asking for `publish`, editors), so such queries carry no clause at all.
 */
export function readVisibility(principal: Principal | null, caps: PostTypeCaps, statuses: StatusFilter): ReadVisibility | undefined {
  const wanted = statuses === 'any' ? REGISTERED_STATUSES.filter((status) => statusMatches('any', status)) : [...new Set(statuses)];
  const everyone = wanted.filter((status) => othersReadable(principal, caps, status));
  if (everyone.length === wanted.length) return undefined;
  const own = readsOwn(principal) ? wanted.filter((status) => !everyone.includes(status)) : [];
  return own.length ? { statuses: everyone, authorId: principal!.id, ownStatuses: own } : { statuses: everyone };
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

/**
 * What a write may ask for, checked as WordPress's posts controller checks it (TEC's routes do not, so upstream a
 * contributor could hand a post to another user or make it private): another author needs `edit_others_*`, the
 * `private` status needs `publish_*`. The refusal, or true.
 */
export function writeAllowed(request: ApiRequest, type: PostTypeConfig, mode: 'create' | 'update'): true | ApiError {
  const author = request.get('author');
  if (!isEmpty(author) && isNumeric(author) && intval(author) !== (request.principal?.id ?? 0) && !request.can(type.caps.edit_others_posts)) {
    return calendarErrors.cannotEditOthers(mode, request.authorizationStatus);
  }
  if (request.get('status') === 'private' && !request.can(type.caps.publish_posts)) {
    return calendarErrors.cannotCreatePrivate(request.authorizationStatus);
  }
  return true;
}
