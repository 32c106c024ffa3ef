import { defineNamespace, type NamespaceDefinition } from '../../registry/types.js';
import { MEDIA_NAMESPACE } from './constants.js';
import { mediaRoutes } from './routes.js';

/** WordPress core's `wp/v2` namespace, as far as siterest serves it: the media library (`/media`). */
export function mediaNamespace(): NamespaceDefinition {
  return defineNamespace({ namespace: MEDIA_NAMESPACE, routes: mediaRoutes() });
}

