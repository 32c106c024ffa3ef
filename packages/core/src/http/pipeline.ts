import { validateHeaderName, validateHeaderValue } from 'node:http';
import { callerKey, encodeShared, joinParts, sharedBytes } from '../answer-cache.js';
import { parseWithZod } from '../args/zod-args.js';
import type { SentAnswers } from '../sent-answers.js';
import type { ChangeScope } from '../store/change-scopes.js';
import type { ArgSpec } from '../args/spec.js';
import { sanitizeValue, validateValue } from '../args/schema-rules.js';
import { identifyCaller, type AuthContext, type Caller } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { endpointDefaults, type CompiledRoute, type RouteMatch } from '../registry/registry.js';
import { isStoreError } from '../store/store-error.js';
import { ApiError } from './api-error.js';
import { ApiRequest } from './api-request.js';
import { ApiResponse } from './api-response.js';
import { FORM_TYPE, JSON_TYPE } from './body.js';
import { coreErrors } from './errors.js';
import { fatalErrorResponse } from './fatal.js';
import { filterFields } from './fields.js';
import { jsonDecodeError } from './json-body.js';
import { baseHeaders, corsAllows, corsHeaders, isCheckedHeader, NO_CACHE_HEADERS, type CorsOption } from './headers.js';
import { encodeJson } from './json.js';
import { isPlainObject, withoutTrailingSlashes } from './php.js';
import { parseFormString } from './query.js';
import { bodyLength, headerValue, type BodyPart, type SiteRequest, type SiteResponse, type UploadedFile } from './request.js';

export interface PipelineContext extends AuthContext {
  readonly basePath: string;
  readonly cors: CorsOption | undefined;
  /** Whole answers kept under their URL (see sent-answers.ts); null when the site cannot keep them. */
  readonly sentAnswers: SentAnswers | null;
}

interface BodyParams {
  json: Record<string, unknown> | null;
  jsonError: ApiError | null;
  jsonContentType: boolean;
  form: Record<string, unknown>;
  files: UploadedFile[];
}


function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** WordPress takes the route with the trailing slash stripped; empty means the root. */
function routePath(path: string): string {
  const trimmed = withoutTrailingSlashes(path);
  if (!trimmed) return '/';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The route a request names: its path below the API root, or at the root the `rest_route` param (taken out of the query). */
export function resolveRoutePath(rawPath: string, query: Record<string, unknown>): string {
  const path = decodePath(rawPath || '/');
  if (routePath(path) === '/' && typeof query.rest_route === 'string') {
    const route = query.rest_route;
    delete query.rest_route;
    return routePath(route);
  }
  return routePath(path);
}

function readBodyParams(input: SiteRequest, method: string): BodyParams {
  const out: BodyParams = { json: null, jsonError: null, jsonContentType: false, form: {}, files: [] };
  const contentType = headerValue(input.headers, 'content-type') ?? input.body?.contentType ?? '';
  out.jsonContentType = JSON_TYPE.test(contentType);
  const body = input.body;
  if (!body) return out;
  const acceptsForm = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
  if (body.kind === 'multipart') {
    if (acceptsForm) {
      out.form = body.fields;
      out.files = body.files;
    }
    return out;
  }
  if (body.kind === 'stream') return out;
  if (body.kind === 'parsed') {
    if (out.jsonContentType && isPlainObject(body.value)) {
      out.jsonError = jsonDecodeError(body.value);
      if (!out.jsonError) out.json = body.value;
    }
    else if (FORM_TYPE.test(contentType) && acceptsForm && isPlainObject(body.value)) out.form = body.value;
    return out;
  }
  if (out.jsonContentType) {
    const text = body.bytes.toString('utf8');
    if (text.trim() !== '') {
      try {
        const value: unknown = JSON.parse(text);
        out.jsonError = jsonDecodeError(value);
        if (!out.jsonError) {
          out.json = isPlainObject(value) ? value : Array.isArray(value) ? Object.fromEntries(value.map((v, i) => [String(i), v])) : {};
        }
      } catch {
        out.jsonError = coreErrors.invalidJson(text.includes('\uFFFD') ? 'Malformed UTF-8 characters, possibly incorrectly encoded' : 'Syntax error');
      }
    }
  } else if (FORM_TYPE.test(contentType) && acceptsForm) {
    out.form = parseFormString(body.bytes.toString('utf8'));
  }
  return out;
}

interface DispatchState {
  route: CompiledRoute | null;
  /** The methods the route allows this caller (the Allow header), when a kept answer brought them along. */
  allow?: string[];
  /**
   * For an answer from the request-level cache: the clock's second of its key, and the scopes and change version
   * it belongs to (null when the store has none) — what the answer as sent may be kept with (see sent-answers.ts).
   */
  sent?: { second: number; scopes: readonly ChangeScope[]; version: number | null };
}

/**
 * An answer kept under the request as its client sent it (see `answerScopes` on endpoints), with the methods
 * its route allowed that caller: a repeated request is then answered before defaults, validation, permission and
 * handler run again.
 */
class RequestAnswer extends ApiResponse {
  constructor(
    response: ApiResponse,
    readonly allow: string[],
  ) {
    super(response.data, response.status, response.headers);
  }
}

/**
 * The key of a request's answer on an endpoint with `answerScopes`: the route, what the client sent (query
 * string and path variables; such requests carry no body), who asks with which rights, the API root, and the
 * clock to the second (defaults such as TEC's window of dates follow the clock; nothing finer shows in answers).
 * Null when the request is not one whose answer is kept.
 */
function requestAnswerKey(request: ApiRequest, match: RouteMatch, body: BodyParams, second: number): unknown[] | null {
  if (request.method !== 'GET' || body.json !== null || body.jsonError || body.files.length || Object.keys(body.form).length) return null;
  return ['request', match.route.pattern, request.queryParams(), match.params, callerKey(request.principal), request.apiRoot, second];
}

/**
 * WordPress's argument phases for the matched endpoint: required args, validate callbacks, then type checks
 * and sanitizing. Throws the WordPress error; on success the request holds the sanitized values.
 */
export async function validateArgs(request: ApiRequest): Promise<void> {
  const endpoint = request.endpoint!;
  const args = argList(endpoint.args);
  const missing = args.filter(([name, spec]) => spec.required === true && !request.has(name)).map(([name]) => name);
  if (missing.length) throw coreErrors.missingParams(missing);

  const invalid: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  const fail = (name: string, error: ApiError | false) => {
    if (error === false) {
      invalid[name] = 'Invalid parameter.';
    } else {
      invalid[name] = error.message;
      details[name] = error.toWire();
    }
  };
  // Index loops: an iterator result per argument, twice per request, was garbage every list request made (for-of
  // across an await is not optimized away).
  for (let index = 0; index < args.length; index++) {
    const [name, spec] = args[index]!;
    if (!spec.validate || !request.has(name)) continue;
    // Most callbacks answer at once: only a promise is awaited (each await is a turn of the microtask queue).
    let verdict = spec.validate(request.get(name), { param: name, request });
    if (verdict instanceof Promise) verdict = await verdict;
    if (verdict === false || verdict instanceof ApiError) fail(name, verdict);
  }
  if (Object.keys(invalid).length) throw coreErrors.invalidParams(invalid, details);

  for (let index = 0; index < args.length; index++) {
    const [name, spec] = args[index]!;
    if (spec.sanitize === false || !request.has(name)) continue;
    const value = request.get(name);
    if (spec.schema) {
      const parsed = parseWithZod(spec.schema, value, name);
      if (parsed instanceof ApiError) fail(name, parsed);
      else request.set(name, parsed.value);
    } else if (spec.sanitize) {
      let sanitized = spec.sanitize(value, { param: name, request });
      if (sanitized instanceof Promise) sanitized = await sanitized;
      if (sanitized instanceof ApiError) fail(name, sanitized);
      else request.set(name, sanitized);
    } else if (spec.type !== undefined) {
      const error = validateValue(value, spec, name);
      if (error) {
        fail(name, error);
        continue;
      }
      const sanitized = sanitizeValue(value, spec, name);
      if (sanitized instanceof ApiError) fail(name, sanitized);
      else request.set(name, sanitized);
    }
  }
  if (Object.keys(invalid).length) throw coreErrors.invalidParams(invalid, details);
}

/** An endpoint's args as a list, made once per endpoint (its args never change once registered). */
const argLists = new WeakMap<Record<string, ArgSpec>, Array<[string, ArgSpec]>>();
function argList(args: Record<string, ArgSpec>): Array<[string, ArgSpec]> {
  let list = argLists.get(args);
  if (!list) argLists.set(args, (list = Object.entries(args)));
  return list;
}

async function dispatch(
  ctx: PipelineContext,
  request: ApiRequest,
  body: BodyParams,
  state: DispatchState,
): Promise<ApiResponse> {
  if (request.method === 'OPTIONS') {
    const found = ctx.registry.findRoute(request.path);
    if (!found) return new ApiResponse([]);
    state.route = found.route;
    request.route = found.route;
    request.setUrlParams(found.params);
    return new ApiResponse(ctx.registry.describeRoute(found.route, request.apiRoot, ctx));
  }
  const match = ctx.registry.match(request.path, request.method);
  if (!match) throw coreErrors.noRoute();
  state.route = match.route;
  request.route = match.route;
  request.endpoint = match.endpoint;
  request.setUrlParams(match.params);
  const scopes = ctx.keepsAnswers ? match.endpoint.definition.answerScopes : undefined;
  const second = Math.floor(ctx.now() / 1000);
  const key = scopes ? requestAnswerKey(request, match, body, second) : null;
  if (!scopes || !key) return runEndpoint(ctx, request, match, body);
  const sent: NonNullable<DispatchState['sent']> = { second, scopes, version: null };
  state.sent = sent;
  // The version the cache read before looking the answer up (or computing it): what the answer belongs to.
  const kept = await ctx.cached(
    key,
    scopes,
    async () => {
      const response = await runEndpoint(ctx, request, match, body);
      return new RequestAnswer(response, await allowedMethods(match.route, request));
    },
    (version) => (sent.version = version),
  );
  state.allow = kept.allow;
  return kept;
}

/** Defaults, argument phases, permission and handler of the matched endpoint. */
async function runEndpoint(ctx: PipelineContext, request: ApiRequest, match: RouteMatch, body: BodyParams): Promise<ApiResponse> {
  request.setDefaults(endpointDefaults(match.endpoint, ctx));
  if (body.jsonError) throw body.jsonError;
  await validateArgs(request);
  const permission = match.endpoint.permission;
  if (permission) {
    const verdict = await permission(request);
    if (verdict instanceof ApiError) throw verdict;
    if (verdict !== true) throw coreErrors.forbidden(request.authorizationStatus);
  }
  const result = await match.endpoint.handler(request);
  return result instanceof ApiResponse ? result : new ApiResponse(result);
}

/** WordPress rest_send_allow_header: the methods whose permission callback passes for this request. */
export async function allowedMethods(route: CompiledRoute, request: ApiRequest): Promise<string[]> {
  // Each method in its first place, with the last verdict given for it (two lists: a Map, its entries and two
  // passes over them were garbage every request made).
  const methods: string[] = [];
  const verdicts: boolean[] = [];
  for (const endpoint of route.endpoints) {
    let verdict = true;
    if (endpoint.permission) {
      try {
        verdict = (await endpoint.permission(request)) === true;
      } catch {
        verdict = false;
      }
    }
    for (const method of endpoint.methods) {
      const at = methods.indexOf(method);
      if (at === -1) {
        methods.push(method);
        verdicts.push(verdict);
      } else verdicts[at] = verdict;
    }
  }
  const allowed: string[] = [];
  for (let i = 0; i < methods.length; i++) if (verdicts[i]) allowed.push(methods[i]!);
  return allowed;
}

function toApiError(error: unknown, ctx: PipelineContext): ApiError {
  if (error instanceof ApiError) return error;
  if (isStoreError(error, 'unavailable')) {
    ctx.logger.warn('store unavailable', { error: (error as Error).message });
    return coreErrors.serviceUnavailable();
  }
  ctx.logger.error('unhandled error in a REST handler', {
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return coreErrors.internal();
}

const JSONP_CALLBACK = /^[\w.]+$/;

/** The nonce of a cookie session: `_wpnonce` (form body, then query string, as PHP's $_REQUEST), else `X-WP-Nonce`. */
function nonceOf(body: BodyParams, query: Record<string, unknown>, input: SiteRequest): unknown {
  if (Object.hasOwn(body.form, '_wpnonce')) return body.form._wpnonce;
  if (Object.hasOwn(query, '_wpnonce')) return query._wpnonce;
  return headerValue(input.headers, 'x-wp-nonce');
}

/**
 * Serves one request the way WordPress's REST server does, and whatever goes wrong — in a handler, or later in
 * filtering, serializing or rendering the answer, or in a header no HTTP server would send — the client gets
 * WordPress's JSON error envelope, never an exception for the framework to answer in its own way.
 */
export async function handleRequest(ctx: PipelineContext, input: SiteRequest, bodyError?: ApiError): Promise<SiteResponse> {
  try {
    const response = await serveRequest(ctx, input, bodyError);
    const headers = response.headers;
    for (let i = 0; i < headers.length; i++) {
      const pair = headers[i]!;
      if (isCheckedHeader(pair)) continue;
      validateHeaderName(pair[0]);
      validateHeaderValue(pair[0], pair[1]);
    }
    return response;
  } catch (error) {
    ctx.logger.error('unhandled error while answering a REST request', {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return fatalErrorResponse();
  }
}

/** Serves one request (see ../design: the pipeline order is contract). */
async function serveRequest(ctx: PipelineContext, input: SiteRequest, bodyError?: ApiError): Promise<SiteResponse> {
  const rawMethod = input.method.toUpperCase();
  const query = parseFormString(input.query ?? '');
  const path = resolveRoutePath(input.path, query);
  const basePath = withoutTrailingSlashes(input.basePath ?? ctx.basePath);
  const apiRoot = `${ctx.settings.home}${basePath}/`;

  const jsonp = query._jsonp;
  if (jsonp !== undefined && (typeof jsonp !== 'string' || !JSONP_CALLBACK.test(jsonp))) {
    return {
      status: 400,
      headers: [...baseHeaders(apiRoot, 'application/json')],
      body: encodeJson({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' }),
    };
  }

  // Method override for clients that can only POST. WordPress honours it on any method; here only on POST, so a
  // GET — which links, images and prefetches send cross-site — can never become a write.
  let method = rawMethod;
  let overridden = false;
  if (rawMethod === 'POST') {
    if (typeof query._method === 'string') {
      method = query._method.toUpperCase();
    } else {
      const override = headerValue(input.headers, 'x-http-method-override');
      if (override) {
        method = override.toUpperCase();
        overridden = true;
      }
    }
  }

  const state: DispatchState = { route: null };
  const body = readBodyParams(input, method);
  let principal: Principal | null = null;
  let caller: Caller = { principal: null, headers: [], credentialed: true };
  let nonceRefused = false;
  let request: ApiRequest | null = null;
  let response: ApiResponse;
  try {
    if (bodyError) throw bodyError;
    // JSONP answers are readable cross-site, so they never carry a signed-in user's data.
    // Own property only: an in-process caller sets it; nothing inherited may stand in for it.
    if (Object.hasOwn(input, 'principal') && input.principal) caller = { principal: input.principal, headers: [], credentialed: true };
    else if (jsonp === undefined) {
      try {
        caller = await identifyCaller(ctx, input, nonceOf(body, query, input), input.frameworkRequest);
      } catch (error) {
        nonceRefused = error instanceof ApiError && error.code === 'rest_cookie_invalid_nonce';
        throw error;
      }
    }
    principal = caller.principal;
    request = new ApiRequest({
      site: ctx,
      method,
      rawMethod,
      path,
      headers: input.headers,
      query,
      json: body.json,
      form: body.form,
      files: body.files,
      body: input.body,
      principal,
      apiRoot,
      remoteAddress: input.remoteAddress,
      jsonContentType: body.jsonContentType,
    });
    response = await dispatch(ctx, request, body, state);
  } catch (error) {
    const apiError = toApiError(error, ctx);
    response = new ApiResponse(apiError.toWire(), apiError.status, apiError.status === 503 ? [['Retry-After', '5']] : []);
    (response as ApiResponse & { isError?: boolean }).isError = true;
  }
  const isError = (response as ApiResponse & { isError?: boolean }).isError === true;

  let headers = [...response.headers];
  if (state.route && request) {
    const allow = state.allow ?? (await allowedMethods(state.route, request));
    if (allow.length) headers.push(['Allow', allow.join(', ')]);
  }
  let data = response.data;
  let status = response.status;
  const fields = request?.get('_fields') ?? query._fields;
  if (!isError && fields !== undefined && data !== null && typeof data === 'object') data = filterFields(data, fields);
  if (query._envelope !== undefined) {
    data = { body: data, status, headers: headers.length ? Object.fromEntries(headers) : [] };
    status = 200;
    headers = [];
  }

  // A route may serve its answers in another format (oEmbed's XML), errors included.
  const rendered = request?.endpoint?.definition.render?.(request, data, status) ?? null;
  const out: Array<[string, string]> = [
    ...baseHeaders(apiRoot, rendered ? rendered.contentType : jsonp === undefined ? 'application/json' : 'application/javascript'),
    ...caller.headers,
    ...headers,
  ];
  if (principal || nonceRefused || (overridden && status >= 400 && status < 500)) out.push(...NO_CACHE_HEADERS);
  const origin = headerValue(input.headers, 'origin');
  out.push(
    ...corsHeaders(origin, rawMethod, principal !== null, {
      allowed: origin !== undefined && corsAllows(ctx.cors, origin),
      credentialed: caller.credentialed,
    }),
  );

  let text = '';
  let bytes: Buffer | readonly BodyPart[] | null = null;
  if (rendered) {
    text = rendered.body;
  } else if (status !== 204 && data !== null && data !== undefined) {
    if (jsonp === undefined && query._pretty === undefined) bytes = sharedBytes(data);
    if (!bytes) {
      text = query._pretty !== undefined ? encodeJson(data, true) : encodeShared(data);
      if (jsonp !== undefined) text = `/**/${jsonp}(${text})`;
    }
  }
  // HEAD is answered as GET without the body; its Content-Length is the one GET would send.
  if (rawMethod === 'HEAD') return { status, headers: [...out, ['Content-Length', String(bytes ? byteLength(bytes) : Buffer.byteLength(text))]], body: '' };
  const answer: SiteResponse = bytes ? bytesResponse(status, out, bytes) : { status, headers: out, body: text };
  const sent = state.sent;
  // Kept as sent only when nothing but the URL decided it: an anonymous caller whose headers name nobody (the
  // answers' own check, which also asks the app on a site with an authenticate hook), and no header WordPress
  // would add for that caller.
  if (sent && sent.version !== null && ctx.sentAnswers && !isError && !principal && !Object.hasOwn(input, 'principal') && !caller.headers.length) {
    ctx.sentAnswers.keep(input, input.basePath ?? ctx.basePath, ctx.settings, sent.second, sent.scopes, sent.version, answer);
  }
  return answer;
}

/**
 * An answer whose body is shared bytes, whole or in pieces (see answer-cache.ts): adapters send them as they
 * are; pieces are joined only if something reads `bodyBytes`, and the text is decoded only if something reads
 * `body` (a test, an in-process caller), not for every request.
 */
function bytesResponse(status: number, headers: Array<[string, string]>, bytes: Buffer | readonly BodyPart[]): SiteResponse {
  let text: string | undefined;
  if (Buffer.isBuffer(bytes)) {
    return {
      status,
      headers,
      get body() {
        return (text ??= bytes.toString('utf8'));
      },
      bodyBytes: bytes,
    };
  }
  let joined: Buffer | undefined;
  const join = () => (joined ??= joinParts(bytes));
  return {
    status,
    headers,
    get body() {
      return (text ??= join().toString('utf8'));
    },
    get bodyBytes() {
      return join();
    },
    bodyParts: bytes,
  };
}

function byteLength(bytes: Buffer | readonly BodyPart[]): number {
  return Buffer.isBuffer(bytes) ? bytes.length : bodyLength(bytes);
}
