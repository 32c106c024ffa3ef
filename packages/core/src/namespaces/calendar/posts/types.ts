import type { PostTypeCaps } from '../../../auth/roles.js';
import type { OperationDoc } from '../../../registry/types.js';
import type { SiteSettings } from '../../../settings.js';

/** What the shared post rules need to know of each calendar post type. */
export interface PostTypeConfig {
  type: string;
  caps: PostTypeCaps;
  /** Front-end permalink base of published posts (`event`, `venue`, `organizer`). */
  permalinkBase(settings: SiteSettings): string;
}

/** OpenAPI documentation of a post type's collection, item and by-slug routes. */
export interface PostRouteDocs {
  list?: OperationDoc;
  create?: OperationDoc;
  read?: OperationDoc;
  update?: OperationDoc;
  remove?: OperationDoc;
  readBySlug?: OperationDoc;
  updateBySlug?: OperationDoc;
  removeBySlug?: OperationDoc;
}
