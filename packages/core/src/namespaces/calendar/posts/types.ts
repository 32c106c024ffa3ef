import type { PostTypeCaps } from '../../../auth/roles.js';
import type { SiteSettings } from '../../../settings.js';

/** What the shared post rules need to know of each calendar post type. */
export interface PostTypeConfig {
  type: string;
  caps: PostTypeCaps;
  /** Front-end permalink base of published posts (`event`, `venue`, `organizer`). */
  permalinkBase(settings: SiteSettings): string;
}
