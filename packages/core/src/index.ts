export { createSite, Site, type CreateSiteOptions, type NewUserInput } from './site.js';
export { clockStartingAt, manualClock, systemClock, type Clock, type ManualClock } from './clock.js';
export { DEFAULT_SETTINGS, resolveSettings, siteZone, type SiteSettings } from './settings.js';
export { consoleLogger, silentLogger, type Logger, type SiteContext } from './site-context.js';

export { ApiError, isApiError, type WireError } from './http/api-error.js';
export { coreErrors } from './http/errors.js';
export { ApiRequest } from './http/api-request.js';
export { ApiResponse, respond } from './http/api-response.js';
export { readBody, DEFAULT_BODY_LIMIT, type ReadBodyOptions } from './http/body.js';
export { toSiteRequest, groupHeaders, type NodeRequestParts } from './http/adapter-kit.js';
export { encodeJson } from './http/json.js';
export { headerValue, type RequestBody, type SiteRequest, type SiteResponse, type UploadedFile } from './http/request.js';

export type { ArgSchema, ArgSpec, ArgType, ArgValidator, ArgSanitizer } from './args/spec.js';
export {
  ALLMETHODS,
  CREATABLE,
  DELETABLE,
  EDITABLE,
  READABLE,
  defineNamespace,
  defineRoute,
  type EndpointDefinition,
  type Handler,
  type NamespaceDefinition,
  type OperationDoc,
  type Permission,
  type RouteDefinition,
} from './registry/types.js';
export { Registry, type CompiledRoute, type CompiledEndpoint } from './registry/registry.js';
export { buildOpenApiDocument, openApiRoute, type OpenApiExtras, type OpenApiOperationDoc } from './registry/openapi.js';

export { hasCap, canOnObject, type Principal, type OwnedObject } from './auth/principal.js';
export { ROLE_NAMES, capsOfRole, postTypeCaps, type RoleName, type PostTypeCaps } from './auth/roles.js';
export type { AuthenticateHook, AuthenticateResult } from './auth/authenticate.js';
export {
  chunkApplicationPassword,
  hashApplicationPassword,
  verifyApplicationPassword,
} from './auth/application-passwords.js';

export * from './store/records.js';
export type * from './store/queries.js';
export type * from './store/repositories.js';
export type * from './store/redirection.js';
export { StoreError, isStoreError, type StoreErrorKind } from './store/store-error.js';
export { searchTerms, matchesSearch, distanceKm, statusMatches } from './store/search.js';

export { builtInNamespaces, calendarNamespace, redirectionNamespace } from './namespaces/index.js';
export {
  RedirectEngine,
  REDIRECTION_CHANNEL,
  type RedirectDecision,
  type RedirectHooks,
  type RedirectRequest,
} from './namespaces/redirection/runtime/engine.js';
export { redirectRequestOf, sendDecision, watchResponse, defaultErrorPage, type RedirectMiddlewareOptions } from './namespaces/redirection/runtime/node.js';
export * as calendar from './namespaces/calendar/public.js';
