/**
 * WordPress's five default roles and their capabilities, plus the post-type capabilities the calendar adds
 * (The Events Calendar grants them to the same roles in the same way).
 */
export type RoleName = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export const ROLE_NAMES: readonly RoleName[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

const SUBSCRIBER = ['read'];
const CONTRIBUTOR = [...SUBSCRIBER, 'edit_posts', 'delete_posts'];
const AUTHOR = [...CONTRIBUTOR, 'upload_files', 'edit_published_posts', 'publish_posts', 'delete_published_posts'];
const EDITOR = [
  ...AUTHOR,
  'moderate_comments',
  'manage_categories',
  'manage_links',
  'unfiltered_html',
  'edit_others_posts',
  'edit_pages',
  'edit_others_pages',
  'edit_published_pages',
  'publish_pages',
  'delete_pages',
  'delete_others_pages',
  'delete_published_pages',
  'delete_others_posts',
  'delete_private_posts',
  'edit_private_posts',
  'read_private_posts',
  'delete_private_pages',
  'edit_private_pages',
  'read_private_pages',
];
const ADMINISTRATOR = [
  ...EDITOR,
  'switch_themes',
  'edit_themes',
  'activate_plugins',
  'edit_plugins',
  'edit_users',
  'edit_files',
  'manage_options',
  'import',
  'export',
  'unfiltered_upload',
  'edit_dashboard',
  'update_plugins',
  'delete_plugins',
  'install_plugins',
  'update_themes',
  'install_themes',
  'update_core',
  'list_users',
  'remove_users',
  'promote_users',
  'edit_theme_options',
  'delete_themes',
  'delete_users',
  'create_users',
];

/** The capability names of a post type registered with `capability_type => [singular, plural]`. */
export interface PostTypeCaps {
  edit_post: string;
  read_post: string;
  delete_post: string;
  edit_posts: string;
  edit_others_posts: string;
  publish_posts: string;
  read_private_posts: string;
  delete_posts: string;
  delete_private_posts: string;
  delete_published_posts: string;
  delete_others_posts: string;
  edit_private_posts: string;
  edit_published_posts: string;
  create_posts: string;
}

export function postTypeCaps(singular: string, plural: string): PostTypeCaps {
  return {
    edit_post: `edit_${singular}`,
    read_post: `read_${singular}`,
    delete_post: `delete_${singular}`,
    edit_posts: `edit_${plural}`,
    edit_others_posts: `edit_others_${plural}`,
    publish_posts: `publish_${plural}`,
    read_private_posts: `read_private_${plural}`,
    delete_posts: `delete_${plural}`,
    delete_private_posts: `delete_private_${plural}`,
    delete_published_posts: `delete_published_${plural}`,
    delete_others_posts: `delete_others_${plural}`,
    edit_private_posts: `edit_private_${plural}`,
    edit_published_posts: `edit_published_${plural}`,
    create_posts: `edit_${plural}`,
  };
}

type PrimitiveCap = Exclude<keyof PostTypeCaps, 'edit_post' | 'read_post' | 'delete_post'>;

const POST_TYPE_GRANTS: Record<RoleName, PrimitiveCap[]> = {
  administrator: [
    'edit_posts',
    'edit_others_posts',
    'publish_posts',
    'read_private_posts',
    'delete_posts',
    'delete_private_posts',
    'delete_published_posts',
    'delete_others_posts',
    'edit_private_posts',
    'edit_published_posts',
  ],
  editor: [
    'edit_posts',
    'edit_others_posts',
    'publish_posts',
    'read_private_posts',
    'delete_posts',
    'delete_private_posts',
    'delete_published_posts',
    'delete_others_posts',
    'edit_private_posts',
    'edit_published_posts',
  ],
  author: ['edit_posts', 'publish_posts', 'delete_posts', 'delete_published_posts', 'edit_published_posts'],
  contributor: ['edit_posts', 'delete_posts'],
  subscriber: [],
};

/** Post types whose capabilities roles receive; namespaces register theirs at load time. */
const registeredPostTypeCaps: PostTypeCaps[] = [postTypeCaps('post', 'posts')];

export function registerPostTypeCaps(caps: PostTypeCaps): void {
  if (!registeredPostTypeCaps.some((c) => c.edit_posts === caps.edit_posts)) registeredPostTypeCaps.push(caps);
  roleCapsCache.clear();
}

const BASE: Record<RoleName, string[]> = {
  administrator: ADMINISTRATOR,
  editor: EDITOR,
  author: AUTHOR,
  contributor: CONTRIBUTOR,
  subscriber: SUBSCRIBER,
};

const roleCapsCache = new Map<string, ReadonlySet<string>>();

/** What a name that is no role grants. */
const NO_CAPS: ReadonlySet<string> = new Set();

/**
 * The capabilities of one of WordPress's roles; none for any other name. Only the five roles are kept: a host's
 * authenticate hook may pass on role names a client chose, and each would otherwise stay in memory.
 */
export function capsOfRole(role: string): ReadonlySet<string> {
  const cached = roleCapsCache.get(role);
  if (cached) return cached;
  // Own keys only: a role named `constructor` or `__proto__` is no role.
  if (!Object.hasOwn(BASE, role)) return NO_CAPS;
  const caps = new Set<string>(BASE[role as RoleName]);
  for (const typeCaps of registeredPostTypeCaps) {
    for (const cap of POST_TYPE_GRANTS[role as RoleName]) caps.add(typeCaps[cap]);
  }
  roleCapsCache.set(role, caps);
  return caps;
}

export function isRoleName(value: unknown): value is RoleName {
  return typeof value === 'string' && (ROLE_NAMES as readonly string[]).includes(value);
}
