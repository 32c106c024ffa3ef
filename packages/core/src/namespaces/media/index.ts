import { defineNamespace, type NamespaceDefinition } from '../../registry/types.js';
import { calendarPostRoutes } from '../calendar-posts/routes.js';
import { MEDIA_NAMESPACE } from './constants.js';
import { mediaRoutes } from './routes.js';

/**
 * WordPress core's `wp/v2` namespace, as far as siterest serves it: the media library (`/media`), then the
 * calendar's post types (`/cal_venue/{id}`, `/cal_organizer/{id}`, `/cal_events/{id}`, see calendar-posts/), in
 * WordPress's registration order. One namespace, so the root index lists `wp/v2` once.
 */
export function mediaNamespace(): NamespaceDefinition {
  return defineNamespace({ namespace: MEDIA_NAMESPACE, routes: [...mediaRoutes(), ...calendarPostRoutes()] });
}
