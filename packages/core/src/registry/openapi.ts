/*
 * The OpenAPI 3.0 document of one namespace, generated from the route registry.
 *
 * Layout and key orders follow The Events Calendar's `/doc` (Swagger_Documentation and the endpoints'
 * swaggerize_args / swaggerize_post_args): top level `openapi, info, components, servers, paths`; a parameter
 * is `{in, schema:{type, items?}, description, required, name}`; a POST operation keeps its path variables in
 * `parameters` and documents the other args as an `application/x-www-form-urlencoded` object. Everything that
 * can be derived (paths, operations, parameters, types, request bodies) comes from the routes; what cannot
 * (responses, the namespace's info and component schemas, a few hints) comes from `doc` objects and extras.
 */
import { toJSONSchema, type ZodType } from 'zod';
import type { ArgSchema, ArgSpec, ArgType } from '../args/spec.js';
import type { ApiRequest } from '../http/api-request.js';
import type { CompiledEndpoint, CompiledRoute, Registry } from './registry.js';
import { READABLE, type OperationDoc, type RouteDefinition } from './types.js';

const OPENAPI_VERSION = '3.0.0';

/** The form TEC documents request bodies in (WordPress reads JSON and multipart bodies just as well). */
const BODY_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * Namespace-level parts of the document: `info`, `components` and, if an app wants them, `servers` (replacing
 * the computed one) or any other top-level key (`tags`, `security`, `externalDocs`…, written after `paths`).
 */
export interface OpenApiExtras {
  info?: Record<string, unknown>;
  components?: Record<string, unknown>;
  servers?: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * What a route author attaches as an endpoint's `doc`. Every field is optional:
 * - `responses`: the operation's responses, keyed by status string (default `{"200": {"description": "OK"}}`);
 * - `summary`, `description`: written before `parameters`;
 * - `parameters`: patches of the derived parameters, matched by `name` (keys replaced in place, new keys added
 *   at the end, e.g. `{name: 'tags', style: 'form'}`); an entry naming no derived parameter is added as is;
 * - `requestBody`: replaces the derived request body;
 * - `bodyIncludesPath`: also list the path variables among the body's properties (TEC does for some routes).
 */
export interface OpenApiOperationDoc extends OperationDoc {
  bodyIncludesPath?: boolean;
}

export type OpenApiMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** OpenAPI's own order of operations in a path item (TEC's get, post, delete is a subsequence). */
const OPERATION_ORDER: readonly OpenApiMethod[] = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * The operations an endpoint answers, as TEC documents them: GET is `get`, DELETE is `delete`, and a writing
 * endpoint (POST, PUT, PATCH; WordPress's EDITABLE) is one operation named after its first method in
 * POST > PUT > PATCH order, so `POST, PUT, PATCH` is documented once, as `post`.
 */
export function endpointOperations(methods: readonly string[]): OpenApiMethod[] {
  const out: OpenApiMethod[] = [];
  if (methods.includes('GET')) out.push('get');
  const write = (['POST', 'PUT', 'PATCH'] as const).find((m) => methods.includes(m));
  if (write) out.push(write.toLowerCase() as OpenApiMethod);
  if (methods.includes('DELETE')) out.push('delete');
  return out;
}

/** The variables of a WordPress route pattern, in order: `/events/(?P<id>\d+)` → `['id']`. */
function patternVariables(pattern: string): string[] {
  return [...pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]!);
}

const TYPE_ALIASES: Record<string, ArgType> = { int: 'integer', bool: 'boolean' };

function singleType(type: string): string {
  return TYPE_ALIASES[type] ?? type;
}

/**
 * The OpenAPI type of an arg: its declared type; else `array` when it has `items` (WordPress lists), `object`
 * when it has `properties`; else a number for a `double`/`float` format and an integer for `int32`/`int64`;
 * else the JSON type of its static default; else `string` (what TEC assumes for untyped args).
 */
function argType(spec: ArgSchema): string | string[] {
  if (Array.isArray(spec.type)) return spec.type.map(singleType);
  if (typeof spec.type === 'string') return singleType(spec.type);
  if (spec.items) return 'array';
  if (spec.properties) return 'object';
  if (spec.format === 'double' || spec.format === 'float') return 'number';
  if (spec.format === 'int32' || spec.format === 'int64') return 'integer';
  const value = spec.default;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'object';
  return 'string';
}

/** `{type}`; an array always has `items` in OpenAPI 3.0 (any item when the arg says nothing). */
function typed(type: string): Record<string, unknown> {
  return type === 'array' ? { type, items: {} } : { type };
}

/** `type` (and `nullable`/`anyOf` for WordPress's multi-type args, which OpenAPI 3.0 cannot spell). */
function typeKeywords(type: string | string[]): Record<string, unknown> {
  if (!Array.isArray(type)) return typed(type === 'null' ? 'string' : type);
  const real = type.filter((t) => t !== 'null');
  const nullable = real.length < type.length ? { nullable: true } : {};
  if (real.length === 0) return { type: 'string', nullable: true };
  if (real.length === 1) return { ...typed(real[0]!), ...nullable };
  return { anyOf: real.map(typed), ...nullable };
}

/** JSON-schema keywords of an arg's nested schema (`items`, `properties`) that OpenAPI 3.0 also has. */
const NESTED_KEYWORDS = new Set([
  'title',
  'description',
  'default',
  'format',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
]);

/** A nested arg schema (`items`) as an OpenAPI schema object, keys in declaration order. */
function nestedSchema(schema: ArgSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined) continue;
    if (key === 'type') {
      for (const [k, v] of Object.entries(typeKeywords(argType(schema)))) if (!(k in out)) out[k] = v;
    } else if (key === 'items') out.items = nestedSchema(value as ArgSchema);
    else if (key === 'properties') {
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const [name, sub] of Object.entries(value as Record<string, ArgSchema & { required?: boolean }>)) {
        properties[name] = nestedSchema(sub);
        if (sub.required === true) required.push(name);
      }
      out.properties = properties;
      if (required.length) out.required = required;
    } else if (key === 'additionalProperties') {
      out.additionalProperties = typeof value === 'boolean' ? value : nestedSchema(value as ArgSchema);
    } else if (key === 'anyOf' || key === 'oneOf') {
      out[key] = (value as ArgSchema[]).map(nestedSchema);
    } else if (key === 'required' && Array.isArray(value)) {
      out.required = value;
    } else if (NESTED_KEYWORDS.has(key)) out[key] = value;
  }
  if (!('type' in out) && !('anyOf' in out) && !('oneOf' in out) && (schema.items || schema.properties)) {
    return { ...typeKeywords(argType(schema)), ...out };
  }
  return out;
}

/** An app's zod arg schema as an OpenAPI 3.0 schema (what the arg accepts; `{}` when zod cannot say). */
function zodSchema(schema: ZodType): Record<string, unknown> {
  try {
    return toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * The parameter/property schema of an arg: `{type, items?, enum?}` (TEC shows no format or default); for an
 * arg declared with a zod `schema` and no `type`, the zod schema's own OpenAPI form.
 */
function argSchema(spec: ArgSpec): Record<string, unknown> {
  if (spec.schema && spec.type === undefined && !spec.items) return zodSchema(spec.schema);
  const schema: Record<string, unknown> = typeKeywords(argType(spec));
  if (spec.items) schema.items = nestedSchema(spec.items);
  if (spec.enum) schema.enum = [...spec.enum];
  return schema;
}

type ParameterLocation = 'path' | 'query';

/** A parameter object in TEC's key order: in, schema, description, required, name. */
function parameter(name: string, spec: ArgSpec | undefined, location: ParameterLocation): Record<string, unknown> {
  const out: Record<string, unknown> = { in: location, schema: spec ? argSchema(spec) : { type: 'string' } };
  if (spec?.description) out.description = spec.description;
  // OpenAPI: a path parameter is always required.
  out.required = location === 'path' ? true : spec?.required === true;
  out.name = name;
  return out;
}

/** A request-body property in TEC's key order: description, type, items. */
function bodyProperty(spec: ArgSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (spec.description) out.description = spec.description;
  Object.assign(out, argSchema(spec));
  return out;
}

/** PHP array_merge on string keys: existing keys keep their place, new ones are appended. */
function mergeInPlace(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = value;
  return out;
}

function patchParameters(derived: Array<Record<string, unknown>>, patches: ReadonlyArray<Record<string, unknown>> | undefined) {
  if (!patches?.length) return derived;
  const out = [...derived];
  for (const patch of patches) {
    const at = out.findIndex((p) => p.name === patch.name && (patch.in === undefined || p.in === patch.in));
    if (at === -1) out.push({ ...patch });
    else out[at] = mergeInPlace(out[at]!, patch);
  }
  return out;
}

/**
 * One operation of an endpoint. Path variables come first, in the pattern's order, as required path
 * parameters (declared or not; a variable's arg gives its type and description). Then the other args, in
 * declaration order:
 * - `get` and `delete`: query parameters (for `delete`, args marked `in: 'body'` form a request body);
 * - writing operations: args marked `in: 'query'` or `in: 'path'` are query parameters (an `in: 'path'` arg
 *   that is no variable of the pattern cannot be a path parameter: OpenAPI has no optional ones); the rest form
 *   the request body (`required` lists its required args; with `doc.bodyIncludesPath`, the path variables too).
 * Then `doc` is applied: summary, description, parameter patches, request body, responses.
 */
function describeOperation(route: CompiledRoute, endpoint: CompiledEndpoint, method: OpenApiMethod): Record<string, unknown> {
  const doc = (endpoint.definition.doc ?? {}) as OpenApiOperationDoc;
  const variables = patternVariables(route.pattern);
  const writing = method === 'post' || method === 'put' || method === 'patch';
  const parameters: Array<Record<string, unknown>> = [];
  const body: Record<string, unknown> = {};
  const bodyRequired: string[] = [];

  for (const name of variables) parameters.push(parameter(name, endpoint.args[name], 'path'));
  for (const [name, spec] of Object.entries(endpoint.args)) {
    if (variables.includes(name)) {
      if (writing && doc.bodyIncludesPath) body[name] = bodyProperty(spec);
      continue;
    }
    const inBody = writing ? spec.in !== 'query' && spec.in !== 'path' : method === 'delete' && spec.in === 'body';
    if (inBody) {
      body[name] = bodyProperty(spec);
      if (spec.required === true) bodyRequired.push(name);
    } else {
      parameters.push(parameter(name, spec, 'query'));
    }
  }

  const operation: Record<string, unknown> = {};
  if (doc.summary !== undefined) operation.summary = doc.summary;
  if (doc.description !== undefined) operation.description = doc.description;
  const params = patchParameters(parameters, doc.parameters);
  if (params.length) operation.parameters = params;
  if (doc.requestBody !== undefined) operation.requestBody = doc.requestBody;
  else if (Object.keys(body).length) {
    const schema: Record<string, unknown> = { type: 'object', properties: body };
    if (bodyRequired.length) schema.required = bodyRequired;
    operation.requestBody = { content: { [BODY_CONTENT_TYPE]: { schema } } };
  }
  operation.responses = doc.responses ?? { '200': { description: 'OK' } };
  return operation;
}

/** The route's path in the document: its template below the namespace (`/events/{id}`). */
function documentPath(route: CompiledRoute): string {
  const base = `/${route.namespace}`;
  return route.template.startsWith(base) ? route.template.slice(base.length) || '/' : route.template;
}

/**
 * The `paths` object of a namespace: one path item per route (the namespace index excluded, endpoints with
 * `showInIndex: false` left out), in registration order; within a path item, operations in OpenAPI's order;
 * when two endpoints (or two routes with the same template) claim an operation, the first wins, as in routing.
 */
function describePaths(registry: Registry, namespace: string): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  const operations = new Map<string, Map<OpenApiMethod, Record<string, unknown>>>();
  const routeDocs = new Map<string, Record<string, unknown>>();
  for (const route of registry.routesOf(namespace)) {
    if (!route.definition) continue;
    const path = documentPath(route);
    if (!operations.has(path)) operations.set(path, new Map());
    const ops = operations.get(path)!;
    if (route.definition.doc && !routeDocs.has(path)) routeDocs.set(path, route.definition.doc);
    for (const endpoint of route.endpoints) {
      if (!endpoint.showInIndex) continue;
      for (const method of endpointOperations(endpoint.methods)) {
        if (!ops.has(method)) ops.set(method, describeOperation(route, endpoint, method));
      }
    }
  }
  for (const [path, ops] of operations) {
    if (!ops.size) continue;
    const item: Record<string, unknown> = { ...(routeDocs.get(path) ?? {}) };
    for (const method of OPERATION_ORDER) if (ops.has(method)) item[method] = ops.get(method);
    paths[path] = item;
  }
  return paths;
}

/** The default `info` of a namespace that brings none. */
function defaultInfo(namespace: string): Record<string, unknown> {
  return { version: '1.0.0', title: namespace };
}

/**
 * The OpenAPI 3.0 document of a namespace: `openapi, info, components, servers, paths`, then any other extra.
 * `apiRoot` is the absolute API root with its trailing slash (`request.apiRoot`); the server URL is the
 * namespace's root below it. `extras` default to the namespace definition's `openapi`.
 */
export function buildOpenApiDocument(
  registry: Registry,
  namespace: string,
  apiRoot: string,
  extras: OpenApiExtras = (registry.definitions.get(namespace)?.openapi ?? {}) as OpenApiExtras,
): Record<string, unknown> {
  const { info, components, servers, ...rest } = extras;
  const root = apiRoot.endsWith('/') ? apiRoot : `${apiRoot}/`;
  const doc: Record<string, unknown> = { openapi: OPENAPI_VERSION, info: info ?? defaultInfo(namespace) };
  if (components !== undefined) doc.components = components;
  doc.servers = servers ?? [{ url: `${root}${namespace}/` }];
  doc.paths = describePaths(registry, namespace);
  for (const [key, value] of Object.entries(rest)) if (value !== undefined && !(key in doc)) doc[key] = value;
  // The document shares the route docs and extras objects; callers get a copy they may change freely.
  return structuredClone(doc);
}

export interface OpenApiRouteOptions {
  /** Where the document is served in the namespace (`/doc`). */
  path?: string;
  /** Merged over the namespace definition's `openapi` extras. */
  extras?: OpenApiExtras;
  /** The documentation of the document's own GET operation. */
  doc?: OperationDoc;
}

/**
 * A public GET route answering the OpenAPI document of the namespace it is registered in, for the API root
 * of the request (so the server URL is the one the client used). Add it to any `defineNamespace` routes.
 */
export function openApiRoute(options: OpenApiRouteOptions = {}): RouteDefinition {
  const handler = (request: ApiRequest) => {
    const namespace = request.route?.namespace ?? '';
    const registry = request.site.registry;
    const own = (registry.definitions.get(namespace)?.openapi ?? {}) as OpenApiExtras;
    return buildOpenApiDocument(registry, namespace, request.apiRoot, { ...own, ...options.extras });
  };
  return {
    path: options.path ?? '/doc',
    endpoints: [{ methods: READABLE, handler, ...(options.doc ? { doc: options.doc } : {}) }],
  };
}
