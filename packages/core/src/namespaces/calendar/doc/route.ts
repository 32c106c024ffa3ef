import { openApiRoute, type OpenApiExtras } from '../../../registry/openapi.js';
import type { RouteDefinition } from '../../../registry/types.js';
import { calendarComponents } from './components.js';
import { docs } from './responses.js';

/** TEC's `info` (its REST API version is 1.0.0). */
const calendarInfo = {
  version: '1.0.0',
  title: 'The Events Calendar REST API',
  description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
};

/** The namespace-level parts of the calendar's OpenAPI document. */
const calendarOpenApi: OpenApiExtras = { info: calendarInfo, components: calendarComponents };

/**
 * `GET /doc`: public, no args; the OpenAPI 3.0 document of the namespace, generated from the
 * route registry for the API root the client used. TEC registers it first, so it comes first in the index and
 * in `paths`.
 */
export function docRoute(): RouteDefinition {
  return openApiRoute({ path: '/doc', extras: calendarOpenApi, doc: docs.doc.get });
}
