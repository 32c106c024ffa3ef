import { defineNamespace, type NamespaceDefinition } from '../../registry/types.js';
import { CALENDAR_NAMESPACE } from './constants.js';
import { eventRouteDocs, organizerRouteDocs, venueRouteDocs } from './doc/responses.js';
import { docRoute } from './doc/route.js';
import { eventRoutes } from './events/routes.js';
import { ORGANIZERS, VENUES } from './linked/kinds.js';
import { linkedRoutes } from './linked/routes.js';
import { termRoutes } from './terms/routes.js';
import { CATEGORIES, TAGS } from './terms/taxonomies.js';
import { EVENT_EMBEDS } from './posts/embed.js';

/** `cal/events/v1`: The Events Calendar's REST API v1, routes in upstream's registration order. */
export function calendarNamespace(): NamespaceDefinition {
  return defineNamespace({
    namespace: CALENDAR_NAMESPACE,
    routes: [
      docRoute(),
      ...eventRoutes(eventRouteDocs),
      ...linkedRoutes(VENUES, venueRouteDocs),
      ...linkedRoutes(ORGANIZERS, organizerRouteDocs),
      ...termRoutes(CATEGORIES),
      ...termRoutes(TAGS),
    ],
    embeddables: [EVENT_EMBEDS],
  });
}
