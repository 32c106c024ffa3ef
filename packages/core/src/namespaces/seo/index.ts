import type { ApiRequest } from '../../http/api-request.js';
import { CREATABLE, defineNamespace, defineRoute, READABLE, type NamespaceDefinition } from '../../registry/types.js';
import { checker } from './checker.js';
import { configuration, saveConfiguration } from './configurator.js';
import { MANAGE_SEO, SEO_NAMESPACE } from './constants.js';
import { reindexPosts } from './reindex.js';
import { statistics } from './statistics.js';

// Yoast's permission callbacks are plain capability checks: a refusal is core's rest_forbidden (401/403).
const canManageSeo = (request: ApiRequest) => request.can(MANAGE_SEO) || request.can('manage_options');
const canEditPosts = (request: ApiRequest) => request.can('edit_posts');
const canRead = (request: ApiRequest) => request.can('read');
const canManageOptions = (request: ApiRequest) => request.can('manage_options');

/**
 * `seo/v1`: Yoast SEO's REST routes of the 5.x–13.x era — the configuration wizard, link reindexing, the
 * dashboard statistics and the indexability check (`checker`, Yoast's `ryte`, answered from the site's own
 * settings without calling any outside service). No route declares args, as upstream.
 */
export function seoNamespace(): NamespaceDefinition {
  return defineNamespace({
    namespace: SEO_NAMESPACE,
    routes: [
      defineRoute('/configurator', [
        { methods: READABLE, permission: canManageSeo, handler: configuration },
        { methods: CREATABLE, permission: canManageSeo, handler: saveConfiguration },
      ]),
      defineRoute('/reindex_posts', [{ methods: READABLE, permission: canEditPosts, handler: reindexPosts }]),
      defineRoute('/statistics', [{ methods: READABLE, permission: canRead, handler: statistics }]),
      defineRoute('/checker', [{ methods: READABLE, permission: canManageOptions, handler: checker }]),
    ],
  });
}

export { seo, type SeoAdmin } from './admin.js';
export { SEO_NAMESPACE } from './constants.js';
export type { SeoSettings } from './settings.js';
