import type { ArgSpec } from '../args/spec.js';
import type { ApiError } from '../http/api-error.js';
import type { ApiRequest } from '../http/api-request.js';
import type { ChangeScope } from '../store/change-scopes.js';

/** WordPress's method groups (WP_REST_Server::READABLE and friends). */
export const READABLE = 'GET';
export const CREATABLE = 'POST';
export const EDITABLE = 'POST, PUT, PATCH';
export const DELETABLE = 'DELETE';
export const ALLMETHODS = 'GET, POST, PUT, PATCH, DELETE';

/**
 * A permission callback: `true` lets the request through, `false` answers `rest_forbidden` (401 anonymous,
 * 403 signed in), an ApiError answers itself.
 */
export type Permission = (request: ApiRequest) => boolean | ApiError | Promise<boolean | ApiError>;

/** A handler returns wire data (status 200) or an ApiResponse; it throws ApiError for WordPress errors. */
export type Handler = (request: ApiRequest) => unknown | Promise<unknown>;

/** Extra facts for the OpenAPI document; everything else is derived from the route itself. */
export interface OperationDoc {
  summary?: string;
  description?: string;
  requestBody?: Record<string, unknown>;
  responses?: Record<string, unknown>;
  parameters?: Array<Record<string, unknown>>;
}

export interface EndpointDefinition {
  /** `'GET'`, `'POST, PUT, PATCH'`, or a list. */
  methods: string | readonly string[];
  args?: Record<string, ArgSpec>;
  /** Omitted means public. */
  permission?: Permission;
  handler: Handler;
  showInIndex?: boolean;
  doc?: OperationDoc;
  /**
   * The handler reads a non-form body itself, streamed (uploads): adapters hand it over unread instead of
   * buffering it (see http/adapter-kit.ts).
   */
  streamsBody?: boolean;
  /**
   * Serves the answer (or error) in another format than JSON when it returns a body: WordPress's
   * `rest_pre_serve_request` hook, as oEmbed uses it for `format=xml`. Headers stay the REST server's.
   */
  render?: (request: ApiRequest, data: unknown, status: number) => { contentType: string; body: string } | null;
  /**
   * A GET whose answer depends only on what the client sent (query string, path variables), the caller's
   * rights, the clock to the second, and the data of these change scopes: its answers are kept in the site's
   * answer cache under the request as sent, so that a repeated request skips defaults, validation, permission
   * and handler (the lists' own cache, keyed on their planned query, still serves the first request of each
   * second). Errors are never kept.
   */
  answerScopes?: readonly ChangeScope[];
}

export interface RouteDefinition {
  /** WordPress route pattern relative to the namespace, written as upstream registers it. */
  path: string;
  endpoints: EndpointDefinition[];
  /** Extra documentation of the path item for the OpenAPI document. */
  doc?: Record<string, unknown>;
  /** The route's schema (WordPress `'schema'` route option), shown in OPTIONS answers. */
  schema?: () => Record<string, unknown>;
}

export interface NamespaceDefinition {
  namespace: string;
  routes: RouteDefinition[];
  /** Post types of this namespace that other sites can embed (oEmbed `embed` answers for their URLs). */
  embeddables?: readonly import('../namespaces/oembed/embeds.js').EmbeddablePostType[];
  /** OpenAPI extras for the namespace (info, components); see registry/openapi.ts. */
  openapi?: Record<string, unknown>;
}

export function defineRoute(path: string, endpoints: EndpointDefinition[], doc?: Record<string, unknown>): RouteDefinition {
  return doc ? { path, endpoints, doc } : { path, endpoints };
}

export function defineNamespace(definition: NamespaceDefinition): NamespaceDefinition {
  if (!/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9._-]+)*$/i.test(definition.namespace)) {
    throw new Error(`Invalid namespace "${definition.namespace}": use segments like "my-plugin/v1".`);
  }
  for (const route of definition.routes) {
    if (!route.path.startsWith('/')) throw new Error(`Route "${route.path}" must start with "/".`);
    if (!route.endpoints.length) throw new Error(`Route "${route.path}" has no endpoints.`);
  }
  return definition;
}

