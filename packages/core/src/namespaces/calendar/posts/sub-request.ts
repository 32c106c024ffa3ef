import { ApiRequest } from '../../../http/api-request.js';
import { validateArgs } from '../../../http/pipeline.js';
import { endpointDefaults } from '../../../registry/registry.js';

/**
 * An internal request to another route of the site, as WordPress builds them for inline data (an event's
 * venue given as an object goes through the venue route's own arg validation).
 */
export async function validatedSubRequest(parent: ApiRequest, path: string, method: string, body: Record<string, unknown>): Promise<ApiRequest> {
  const request = new ApiRequest({
    site: parent.site,
    method,
    rawMethod: method,
    path,
    headers: {},
    query: {},
    json: body,
    form: {},
    files: [],
    principal: parent.principal,
    apiRoot: parent.apiRoot,
    jsonContentType: true,
  });
  const match = parent.site.registry.match(path, method);
  if (!match) throw new Error(`No internal route ${method} ${path}`);
  request.route = match.route;
  request.endpoint = match.endpoint;
  request.setUrlParams(match.params);
  request.setDefaults(endpointDefaults(match.endpoint, parent.site));
  await validateArgs(request);
  return request;
}
