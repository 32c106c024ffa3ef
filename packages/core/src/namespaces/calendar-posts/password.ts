import type { PostRecord } from '../../store/records.js';
import type { SiteStore } from '../../store/repositories.js';
import { CALENDAR_POST_KINDS } from './kinds.js';

/** WordPress keeps post passwords in a 255-character column. */
const MAX_PASSWORD = 255;

/**
 * Sets the password of an event, venue or organizer for server-side code (`""` removes it): what
 * `POST wp/v2/<type>/<id>` with `password` does for a caller who may edit the post, without a request. The
 * post's content is then withheld from lists and single reads until the password is given, as in WordPress.
 * Resolves to the updated post, or null when no event, venue or organizer has that id.
 */
export async function setPostPassword(store: SiteStore, id: number, password: string): Promise<PostRecord | null> {
  if (typeof password !== 'string' || password.length > MAX_PASSWORD) throw new TypeError(`A post password is a string of at most ${MAX_PASSWORD} characters.`);
  return store.transaction(async (tx) => {
    const type = await tx.posts.typeOf(id);
    const kind = CALENDAR_POST_KINDS.find((candidate) => candidate.type === type);
    if (!kind) return null;
    return kind.update(tx, id, { password });
  });
}
