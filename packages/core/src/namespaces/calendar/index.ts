import { defineNamespace, type NamespaceDefinition } from '../../registry/types.js';
import { CALENDAR_NAMESPACE } from './constants.js';
import { termRoutes } from './terms/routes.js';
import { CATEGORIES, TAGS } from './terms/taxonomies.js';

/** `cal/events/v1`: The Events Calendar's REST API v1. */
export function calendarNamespace(): NamespaceDefinition {
  return defineNamespace({
    namespace: CALENDAR_NAMESPACE,
    routes: [...termRoutes(CATEGORIES), ...termRoutes(TAGS)],
  });
}
