import { defineNamespace, type NamespaceDefinition } from '../../registry/types.js';
import { REDIRECTION_NAMESPACE } from './constants.js';
import { groupRoutes } from './groups/routes.js';
import { ioRoutes } from './io/routes.js';
import { logRoutes } from './logs/routes.js';
import { pluginRoutes, settingsRoutes } from './plugin/routes.js';
import { redirectRoutes } from './redirects/routes.js';

/** `redirection/v1`: Redirection 5.4.2's REST API, routes in upstream's registration order. */
export function redirectionNamespace(): NamespaceDefinition {
  return defineNamespace({
    namespace: REDIRECTION_NAMESPACE,
    routes: [...redirectRoutes(), ...groupRoutes(), ...logRoutes(), ...settingsRoutes(), ...pluginRoutes(), ...ioRoutes()],
  });
}
