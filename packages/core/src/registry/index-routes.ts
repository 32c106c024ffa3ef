import type { ApiRequest } from '../http/api-request.js';
import { isFieldIncluded } from '../http/fields.js';
import { parseList, strval } from '../http/php.js';
import { reportedGmtOffset } from '../settings.js';
import type { BuiltInRoutes } from './registry.js';
import { READABLE } from './types.js';

/** `GET /`: the site description (WordPress get_index, 7.0 key order). */
function rootIndex(request: ApiRequest): Record<string, unknown> {
  const { settings, registry, applicationPasswords } = request.site;
  const data: Record<string, unknown> = {
    name: settings.name,
    description: settings.description,
    url: settings.url,
    home: settings.home,
    gmt_offset: reportedGmtOffset(settings, request.site.now()),
    timezone_string: settings.timezone_string,
    page_for_posts: settings.page_for_posts,
    page_on_front: settings.page_on_front,
    show_on_front: settings.show_on_front,
    namespaces: [...registry.namespaces],
    authentication: applicationPasswords.enabled
      ? { 'application-passwords': { endpoints: { authorization: applicationPasswords.authorizationUrl } } }
      : [],
    routes: registry.describeRoutes(registry.routes, request.apiRoot, request.site),
  };
  const fields = parseList(request.get('_fields') ?? '').map(strval);
  const withLinks = fields.length === 0 || isFieldIncluded('_links', fields);
  if (withLinks || isFieldIncluded('site_logo', fields)) data.site_logo = settings.site_logo;
  if (withLinks || isFieldIncluded('site_icon', fields) || isFieldIncluded('site_icon_url', fields)) {
    data.site_icon = settings.site_icon;
    data.site_icon_url = settings.site_icon_url;
  }
  if (withLinks) data._links = { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] };
  return data;
}

export const builtInRoutes: BuiltInRoutes = {
  root: {
    methods: READABLE,
    args: { context: { default: 'view' } },
    handler: rootIndex,
  },
  namespaceIndex: (namespace) => ({
    methods: READABLE,
    args: { namespace: { default: namespace }, context: { default: 'view' } },
    handler: (request) => ({
      namespace,
      routes: request.site.registry.describeRoutes(request.site.registry.routesOf(namespace), request.apiRoot, request.site),
      _links: { up: [{ href: request.apiRoot }] },
    }),
  }),
};
