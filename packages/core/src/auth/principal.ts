import { capsOfRole, type PostTypeCaps } from './roles.js';

/** Who is making the request: a user with WordPress roles, optionally with individual grants or denials. */
export interface Principal {
  id: number;
  login: string;
  roles: readonly string[];
  /** Per-user capability overrides, as WordPress's user-level caps: `true` grants, `false` denies. */
  caps?: Readonly<Record<string, boolean>>;
  displayName?: string;
  email?: string;
}

/** What a capability check on a post-like record needs to know. */
export interface OwnedObject {
  authorId: number;
  status: string;
  /** Status before it was trashed, when trashed. */
  trashedFrom?: string | null;
}

/**
 * A per-user grant or denial of `cap`, read as an own key only: a capability map is data, and a key inherited
 * through a prototype (a polluted `Object.prototype.edit_posts`) must never grant anything.
 */
export function capOverride(principal: Principal, cap: string): boolean | undefined {
  const caps = principal.caps;
  if (caps === null || typeof caps !== 'object' || !Object.hasOwn(caps, cap)) return undefined;
  const override: unknown = caps[cap];
  return typeof override === 'boolean' ? override : undefined;
}

export function hasCap(principal: Principal | null | undefined, cap: string): boolean {
  if (!principal) return false;
  const override = capOverride(principal, cap);
  if (override !== undefined) return override;
  return Array.isArray(principal.roles) && principal.roles.some((role) => capsOfRole(role).has(cap));
}

/** WordPress map_meta_cap for edit_post / delete_post / read_post / publish_post on a post-like object. */
function mapMetaCap(
  principal: Principal | null | undefined,
  meta: 'edit_post' | 'delete_post' | 'read_post' | 'publish_post',
  caps: PostTypeCaps,
  object: OwnedObject,
): string[] {
  const userId = principal?.id ?? 0;
  const own = userId !== 0 && object.authorId === userId;
  const status = object.status === 'trash' ? (object.trashedFrom ?? 'draft') : object.status;
  const published = status === 'publish' || status === 'future';
  if (meta === 'publish_post') return [caps.publish_posts];
  if (meta === 'read_post') {
    if (object.status === 'publish') return ['read'];
    if (object.status === 'private') return own ? ['read'] : [caps.read_private_posts];
    return mapMetaCap(principal, 'edit_post', caps, object);
  }
  const verb = meta === 'edit_post' ? 'edit' : 'delete';
  const key = (suffix: string) => caps[`${verb}_${suffix}` as keyof PostTypeCaps];
  if (own) return [published ? key('published_posts') : key('posts')];
  const needed = [key('others_posts')];
  if (published) needed.push(key('published_posts'));
  else if (status === 'private') needed.push(key('private_posts'));
  return needed;
}

export function canOnObject(
  principal: Principal | null | undefined,
  meta: 'edit_post' | 'delete_post' | 'read_post' | 'publish_post',
  caps: PostTypeCaps,
  object: OwnedObject,
): boolean {
  if (!principal) return meta === 'read_post' && object.status === 'publish';
  return mapMetaCap(principal, meta, caps, object).every((cap) => hasCap(principal, cap));
}
