import { validateHeaderName, validateHeaderValue } from 'node:http';
import { callerKey, dataReadAt, encodeShared, joinParts, sharedBytes } from '../answer-cache.js';
import { parseWithZod } from '../args/zod-args.js';
import type { SentAnswers } from '../sent-answers.js';
import type { ChangeScope } from '../store/change-scopes.js';
import type { SiteSettings } from '../settings.js';
import type { ArgSpec } from '../args/spec.js';
import { sanitizeValue, validateValue } from '../args/schema-rules.js';
import { identifyCaller, type AuthContext, type Caller } from '../auth/authenticate.js';
import { endpointDefaults, type CompiledRoute, type RouteMatch } from '../registry/registry.js';
import { isStoreError } from '../store/store-error.js';
import { allowedMethods, allowHeader } from './allow.js';
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
import { andThen, isPending, type Maybe } from '../util/maybe.js';
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
  allow?: readonly string[];
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
    readonly allow: readonly string[],
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

/** The arguments refused so far in a request, in WordPress's order: the message and, for an ApiError, its wire data. */
class RefusedArgs {
  readonly invalid: Record<string, string> = {};
  readonly details: Record<string, unknown> = {};
  any = false;

  add(name: string, error: ApiError | false): void {
    this.any = true;
    if (error === false) {
      this.invalid[name] = 'Invalid parameter.';
    } else {
      this.invalid[name] = error.message;
      this.details[name] = error.toWire();
    }
  }

  check(): void {
    if (this.any) throw coreErrors.invalidParams(this.invalid, this.details);
  }
}

/**
 * WordPress's argument phases for the matched endpoint: required args, validate callbacks, then type checks
 * and sanitizing. Throws the WordPress error; on success the request holds the sanitized values. Callbacks that
 * answer at once are not waited for (see util/maybe.ts): a request whose callbacks all answer at once is checked
 * without a promise.
 */
export function validateArgs(request: ApiRequest): Maybe<void> {
  const endpoint = request.endpoint!;
  const args = argList(endpoint.args);
  const missing: string[] = [];
  // Index loops, and each pair read by index: an iterator (for-of, or destructuring a pair) per argument, three
  // times per request, was most of the garbage a list request made.
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const name = arg[0];
    const spec = arg[1];
    if (spec.required === true && !request.has(name)) missing.push(name);
  }
  if (missing.length) throw coreErrors.missingParams(missing);
  const refused = new RefusedArgs();
  return andThen(validateFrom(request, args, 0, refused), () => {
    refused.check();
    return andThen(sanitizeFrom(request, args, 0, refused), () => refused.check());
  });
}

/** The validate callbacks from the argument at `from` on; from the first that makes the request wait, later. */
function validateFrom(request: ApiRequest, args: Array<[string, ArgSpec]>, from: number, refused: RefusedArgs): Maybe<void> {
  for (let index = from; index < args.length; index++) {
    const arg = args[index]!;
    const name = arg[0];
    const spec = arg[1];
    if (!spec.validate || !request.has(name)) continue;
    const verdict = spec.validate(request.get(name), { param: name, request });
    // Waited for in a function of its own: a closure here over the loop's variables would make V8 allocate a
    // context for them on every turn of the loop, waited for or not.
    if (isPending(verdict)) return validateAfter(verdict, request, args, index, refused);
    if (verdict === false || verdict instanceof ApiError) refused.add(name, verdict);
  }
}

function validateAfter(verdict: PromiseLike<boolean | ApiError>, request: ApiRequest, args: Array<[string, ArgSpec]>, index: number, refused: RefusedArgs): Promise<void> {
  return Promise.resolve(verdict).then((settled) => {
    if (settled === false || settled instanceof ApiError) refused.add(args[index]![0], settled);
    return validateFrom(request, args, index + 1, refused);
  });
}

function sanitizeAfter(sanitized: PromiseLike<unknown>, request: ApiRequest, args: Array<[string, ArgSpec]>, index: number, refused: RefusedArgs): Promise<void> {
  return Promise.resolve(sanitized).then((settled) => {
    const name = args[index]![0];
    if (settled instanceof ApiError) refused.add(name, settled);
    else request.set(name, settled);
    return sanitizeFrom(request, args, index + 1, refused);
  });
}

/** The type checks and sanitize callbacks from the argument at `from` on, as {@link validateFrom}. */
function sanitizeFrom(request: ApiRequest, args: Array<[string, ArgSpec]>, from: number, refused: RefusedArgs): Maybe<void> {
  for (let index = from; index < args.length; index++) {
    const arg = args[index]!;
    const name = arg[0];
    const spec = arg[1];
    if (spec.sanitize === false || !request.has(name)) continue;
    const value = request.get(name);
    if (spec.schema) {
      const parsed = parseWithZod(spec.schema, value, name);
      if (parsed instanceof ApiError) refused.add(name, parsed);
      else request.set(name, parsed.value);
    } else if (spec.sanitize) {
      const sanitized = spec.sanitize(value, { param: name, request });
      if (isPending(sanitized)) return sanitizeAfter(sanitized, request, args, index, refused);
      if (sanitized instanceof ApiError) refused.add(name, sanitized);
      else request.set(name, sanitized);
    } else if (spec.type !== undefined) {
      const error = validateValue(value, spec, name);
      if (error) {
        refused.add(name, error);
        continue;
      }
      const sanitized = sanitizeValue(value, spec, name);
      if (sanitized instanceof ApiError) refused.add(name, sanitized);
      else request.set(name, sanitized);
    }
  }
}

/** An endpoint's args as a list, made once per endpoint (its args never change once registered). */
const argLists = new WeakMap<Record<string, ArgSpec>, Array<[string, ArgSpec]>>();
function argList(args: Record<string, ArgSpec>): Array<[string, ArgSpec]> {
  let list = argLists.get(args);
  if (!list) argLists.set(args, (list = Object.entries(args)));
  return list;
}

function dispatch(ctx: PipelineContext, request: ApiRequest, body: BodyParams, state: DispatchState): Maybe<ApiResponse> {
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
  if (!scopes) return runEndpoint(ctx, request, match, body);
  const second = Math.floor(ctx.now() / 1000);
  const key = requestAnswerKey(request, match, body, second);
  if (!key) return runEndpoint(ctx, request, match, body);
  const sent: NonNullable<DispatchState['sent']> = { second, scopes, version: null };
  state.sent = sent;
  // The version the cache read before looking the answer up (or computing it): what the answer belongs to.
  return ctx
    .cached(
      key,
      scopes,
      async () => {
        const response = await runEndpoint(ctx, request, match, body);
        return new RequestAnswer(response, await allowedMethods(match.route, request));
      },
      (version) => (sent.version = version),
    )
    .then((kept) => {
      state.allow = kept.allow;
      return kept;
    });
}

/** Defaults, argument phases, permission and handler of the matched endpoint. */
function runEndpoint(ctx: PipelineContext, request: ApiRequest, match: RouteMatch, body: BodyParams): Maybe<ApiResponse> {
  request.setDefaults(endpointDefaults(match.endpoint, ctx));
  if (body.jsonError) throw body.jsonError;
  return andThen(validateArgs(request), () => {
    const permission = match.endpoint.permission;
    if (!permission) return answerOf(match.endpoint.handler(request));
    return andThen(permission(request), (verdict) => {
      if (verdict instanceof ApiError) throw verdict;
      if (verdict !== true) throw coreErrors.forbidden(request.authorizationStatus);
      return answerOf(match.endpoint.handler(request));
    });
  });
}

/** A handler's result as an answer: its data with status 200 unless it is one. */
function answerOf(result: unknown): Maybe<ApiResponse> {
  return andThen(result, (data) => (data instanceof ApiResponse ? data : new ApiResponse(data)));
}

function toApiError(error: unknown, ctx: PipelineContext): ApiError {
  if (error instanceof ApiError) return error;
  if (isStoreError(error, 'unavailable')) {
    ctx.logger.warn('store unavailable', { error: (error as Error).message });
    return coreErrors.serviceUnavailable();
  }
  // The site's logger never throws (guardedLogger): a failing one must not take the answer with it.
  ctx.logger.error('unhandled error in a REST handler', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
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
 * WordPress's JSON error envelope, never an exception for the framework to answer in its own way. The answer
 * comes at once when no step had to wait (see util/maybe.ts).
 */
export function handleRequest(ctx: PipelineContext, input: SiteRequest, bodyError?: ApiError): Maybe<SiteResponse> {
  let served: Maybe<SiteResponse>;
  try {
    served = serveRequest(ctx, input, bodyError);
  } catch (error) {
    return fatalAnswer(ctx, error);
  }
  if (isPending(served)) return Promise.resolve(served).then((response) => checkedAnswer(ctx, response), (error: unknown) => fatalAnswer(ctx, error));
  return checkedAnswer(ctx, served);
}

/** The answer, if every header it carries is one an HTTP server would send; else WordPress's fatal error. */
function checkedAnswer(ctx: PipelineContext, response: SiteResponse): SiteResponse {
  try {
    const headers = response.headers;
    for (let i = 0; i < headers.length; i++) {
      const pair = headers[i]!;
      if (isCheckedHeader(pair)) continue;
      validateHeaderName(pair[0]);
      validateHeaderValue(pair[0], pair[1]);
    }
    return response;
  } catch (error) {
    return fatalAnswer(ctx, error);
  }
}

function fatalAnswer(ctx: PipelineContext, error: unknown): SiteResponse {
  ctx.logger.error('unhandled error while answering a REST request', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return fatalErrorResponse();
}

/** One request on its way through the pipeline: what its first steps found, and what the answer's headers need. */
interface RequestRun {
  readonly ctx: PipelineContext;
  readonly input: SiteRequest;
  readonly rawMethod: string;
  readonly method: string;
  readonly overridden: boolean;
  readonly query: Record<string, unknown>;
  readonly path: string;
  readonly apiRoot: string;
  /** The site's settings as the request started: its answer is kept as sent for these alone (see sentAnswer). */
  readonly settings: SiteSettings;
  readonly jsonp: unknown;
  readonly body: BodyParams;
  readonly state: DispatchState;
  caller: Caller;
  nonceRefused: boolean;
  request: ApiRequest | null;
}

/** Serves one request (see ../design: the pipeline order is contract). */
function serveRequest(ctx: PipelineContext, input: SiteRequest, bodyError?: ApiError): Maybe<SiteResponse> {
  const rawMethod = input.method.toUpperCase();
  const query = parseFormString(input.query ?? '');
  const path = resolveRoutePath(input.path, query);
  const basePath = withoutTrailingSlashes(input.basePath ?? ctx.basePath);
  const settings = ctx.settings;
  const apiRoot = `${settings.home}${basePath}/`;

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

  const run: RequestRun = {
    ctx,
    input,
    rawMethod,
    method,
    overridden,
    query,
    path,
    apiRoot,
    settings,
    jsonp,
    body: readBodyParams(input, method),
    state: { route: null },
    caller: { principal: null, headers: [], credentialed: true },
    nonceRefused: false,
    request: null,
  };
  let outcome: Maybe<ApiResponse>;
  try {
    outcome = identifyAndDispatch(run, bodyError);
  } catch (error) {
    outcome = errorAnswer(ctx, error);
  }
  if (isPending(outcome)) {
    return Promise.resolve(outcome).then(
      (response) => finishAnswer(run, response),
      (error: unknown) => finishAnswer(run, errorAnswer(ctx, error)),
    );
  }
  return finishAnswer(run, outcome);
}

/** WordPress's error envelope for what a step threw. */
function errorAnswer(ctx: PipelineContext, error: unknown): ApiResponse {
  const apiError = toApiError(error, ctx);
  const response = new ApiResponse(apiError.toWire(), apiError.status, apiError.status === 503 ? [['Retry-After', '5']] : []);
  (response as ApiResponse & { isError?: boolean }).isError = true;
  return response;
}

function nonceRefusal(run: RequestRun, error: unknown): never {
  run.nonceRefused = error instanceof ApiError && error.code === 'rest_cookie_invalid_nonce';
  throw error;
}

/** Who calls, then the matched endpoint's answer. */
function identifyAndDispatch(run: RequestRun, bodyError: ApiError | undefined): Maybe<ApiResponse> {
  if (bodyError) throw bodyError;
  const input = run.input;
  // JSONP answers are readable cross-site, so they never carry a signed-in user's data.
  // Own property only: an in-process caller sets it; nothing inherited may stand in for it.
  if (Object.hasOwn(input, 'principal') && input.principal) return dispatchAs(run, { principal: input.principal, headers: [], credentialed: true });
  if (run.jsonp !== undefined) return dispatchAs(run, run.caller);
  let caller: Maybe<Caller>;
  try {
    caller = identifyCaller(run.ctx, input, nonceOf(run.body, run.query, input), input.frameworkRequest);
  } catch (error) {
    nonceRefusal(run, error);
  }
  if (isPending(caller)) {
    return Promise.resolve(caller).then(
      (identified) => dispatchAs(run, identified),
      (error: unknown) => nonceRefusal(run, error),
    );
  }
  return dispatchAs(run, caller);
}

function dispatchAs(run: RequestRun, caller: Caller): Maybe<ApiResponse> {
  run.caller = caller;
  const { body, input } = run;
  const request = new ApiRequest({
    site: run.ctx,
    method: run.method,
    rawMethod: run.rawMethod,
    path: run.path,
    headers: input.headers,
    query: run.query,
    json: body.json,
    form: body.form,
    files: body.files,
    body: input.body,
    principal: caller.principal,
    apiRoot: run.apiRoot,
    remoteAddress: input.remoteAddress,
    jsonContentType: body.jsonContentType,
  });
  run.request = request;
  return dispatch(run.ctx, request, body, run.state);
}

/** The Allow header's methods (when a route matched), then the answer as sent. */
function finishAnswer(run: RequestRun, response: ApiResponse): Maybe<SiteResponse> {
  const { state, request } = run;
  if (state.route && request) return andThen(state.allow ?? allowedMethods(state.route, request), (allow) => sentAnswer(run, response, allow));
  return sentAnswer(run, response, null);
}

/** The answer with WordPress's headers, its fields filtered, enveloped or rendered as asked, and its body encoded. */
function sentAnswer(run: RequestRun, response: ApiResponse, allow: readonly string[] | null): SiteResponse {
  const { ctx, input, query, jsonp, rawMethod, request, state, apiRoot, settings } = run;
  const caller = run.caller;
  const principal = caller.principal;
  const isError = (response as ApiResponse & { isError?: boolean }).isError === true;

  let headers = [...response.headers];
  if (allow?.length) headers.push(['Allow', allowHeader(allow)]);
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
  if (principal || run.nonceRefused || (run.overridden && status >= 400 && status < 500)) out.push(...NO_CACHE_HEADERS);
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
    // Under the settings the request started with: new ones read meanwhile may have come after its data was read.
    ctx.sentAnswers.keep(input, input.basePath ?? ctx.basePath, settings, sent.second, sent.scopes, sent.version, answer, dataReadAt(response.data));
  }
  return answer;
}

/**
 * An answer whose body is shared bytes, whole or in pieces (see answer-cache.ts): adapters send them as they
 * are; pieces are joined only if something reads `bodyBytes`, and the text is decoded only if something reads
 * `body` (a test, an in-process caller), not for every request.
 */
function bytesResponse(status: number, headers: Array<[string, string]>, bytes: Buffer | readonly BodyPart[]): SiteResponse {
  return Buffer.isBuffer(bytes) ? new KeptBytesAnswer(status, headers, bytes) : new PiecesAnswer(status, headers, bytes);
}

/*
 * Classes, not object literals with getters: a literal makes new getter functions, and with them a new hidden
 * class, for every answer, and the code reading answers (the adapters) then met a different one each time.
 */

/** An answer of kept bytes. */
class KeptBytesAnswer implements SiteResponse {
  private text: string | undefined;

  constructor(
    readonly status: number,
    readonly headers: Array<[string, string]>,
    readonly bodyBytes: Buffer,
  ) {}

  get body(): string {
    return (this.text ??= this.bodyBytes.toString('utf8'));
  }
}

/** An answer in pieces. */
class PiecesAnswer implements SiteResponse {
  private text: string | undefined;
  private joined: Buffer | undefined;

  constructor(
    readonly status: number,
    readonly headers: Array<[string, string]>,
    readonly bodyParts: readonly BodyPart[],
  ) {}

  get bodyBytes(): Buffer {
    return (this.joined ??= joinParts(this.bodyParts));
  }

  get body(): string {
    return (this.text ??= this.bodyBytes.toString('utf8'));
  }
}

function byteLength(bytes: Buffer | readonly BodyPart[]): number {
  return Buffer.isBuffer(bytes) ? bytes.length : bodyLength(bytes);
}
