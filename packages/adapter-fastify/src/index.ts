import { METHODS } from 'node:http';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { fatalErrorResponse, forEachHeader, toSiteRequest, type Site, type SiteResponse } from '@siterest/core';
import { BodyParts, writeAtOnce, writePiecesDirectly } from './body-parts.js';

export interface SiterestFastifyOptions {
  /** The site; its authenticate hook gets Fastify's `request` (`createSite<FastifyRequest>({ … })`). */
  site: Site<FastifyRequest>;
  /**
   * Requests below the prefix that are outside siterest's namespaces (`/api/health` next to
   * `/api/cal/events/v1/…`) and match no route of the app: `'next'` (the default) hands them to the app's
   * not-found handler; `'rest_no_route'` answers them with WordPress's 404, as WordPress does under `/wp-json/`.
   * Unknown routes inside a namespace always get WordPress's `rest_no_route`.
   */
  unmatched?: 'next' | 'rest_no_route';
}

/**
 * A Fastify 5 plugin serving the site's REST interface below its prefix:
 * `fastify.register(siterestFastify, { site, prefix: '/api' })`. The app's own routes under the prefix keep
 * working wherever they are registered (Fastify prefers them to the plugin's wildcard).
 */
export const siterestFastify: FastifyPluginAsync<SiterestFastifyOptions> = async (fastify, { site, unmatched = 'next' }) => {
  // siterest reads bodies itself (WordPress's order: a malformed JSON body is reported after route matching).
  // The parsers are replaced in this plugin's context only; the app's own routes keep theirs.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.slice(fastify.prefix.length) || '/';
    // A kept answer comes at once on the memory store; the PostgreSQL store is asked for its version first.
    let sent = site.sentAnswer(request.method, url, request.raw.headers, fastify.prefix);
    if (sent instanceof Promise) sent = await sent;
    if (sent) return send(reply, sent);
    if (unmatched === 'next' && !site.serves(pathOf(url))) return reply.callNotFound();
    return serve(site, fastify.prefix, request, reply);
  };
  // Anything thrown in this plugin's context (the handler, hooks, a parser) is answered with WordPress's JSON
  // envelope, never Fastify's own error answer with the raw message.
  fastify.setErrorHandler((error, _request, reply) => {
    site.logger.error('unhandled error in the Fastify adapter', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    if (reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    for (const name of reply.raw.getHeaderNames()) reply.raw.removeHeader(name);
    reply.removeHeader('content-length');
    return send(reply, fatalErrorResponse());
  });
  // WordPress answers every method (an undeclared one gets rest_no_route), but Fastify routes only the common
  // ones and sends the rest (SEARCH, PROPFIND, PURGE…) to the app's 404. Teach it every method Node parses.
  // CONNECT is a proxy's tunnel, never a request to the API.
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !fastify.supportedMethods.includes(method)) fastify.addHttpMethod(method, { hasBody: true });
  }
  // The routes' last onSend hook (see writePiecesDirectly): after the app's, which run before route-level hooks,
  // and after those other plugins add to every route through onRoute (@fastify/compress does): this context's
  // onRoute hooks run after the ones it inherits, and the plugin's context holds no other routes.
  fastify.addHook('onRoute', (route) => {
    const hooks = route.onSend;
    route.onSend = hooks === undefined ? [writePiecesDirectly] : [...(Array.isArray(hooks) ? hooks : [hooks]), writePiecesDirectly];
  });
  fastify.all('/', handler);
  fastify.all('/*', handler);
  // Paths Fastify's router could not place (an app route such as /api/app/x can hide the wildcard from /api/app/…).
  if (unmatched === 'rest_no_route') fastify.setNotFoundHandler(handler);
};

/** The path of a URL below the mount point, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Answers one request below `prefix` with the site. */
async function serve(site: Site<FastifyRequest>, prefix: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const url = request.url.slice(prefix.length) || '/';
  // Both come at once when nothing has to be waited for (a GET without a body, on the memory store).
  let read = toSiteRequest({ raw: request.raw, method: request.method, url, basePath: prefix, frameworkRequest: request }, site);
  if (read instanceof Promise) read = await read;
  const { request: siteRequest, bodyError } = read as Awaited<typeof read>;
  let answer = site.answer(siteRequest, bodyError);
  if (answer instanceof Promise) answer = await answer;
  return send(reply, answer as SiteResponse);
}

function send(reply: FastifyReply, response: SiteResponse): FastifyReply {
  const parts = response.bodyParts;
  if (parts && writeAtOnce(reply, response, parts)) return reply;
  // Kept bytes (an answer from a cache) are written at once too: Fastify's sending would set the headers one by
  // one, each checked and kept in a second map, and serialize them again.
  if (!parts && response.bodyBytes && writeAtOnce(reply, response, [response.bodyBytes])) return reply;
  // Set on the Node response so names keep WordPress's casing; Fastify's own hooks still run. A HEAD answer's
  // Content-Length (GET's) goes through Fastify, which would otherwise count the empty body.
  forEachHeader(response, (name, value) => {
    if (name === 'Content-Length') reply.header(name, value);
    else reply.raw.setHeader(name, value);
  });
  // Shared bytes are sent as they are (the Content-Type set above keeps Fastify from changing them); pieces as a
  // stream that gives its length when Fastify pipes it (see body-parts.ts).
  if (parts) return reply.code(response.status).send(new BodyParts(parts));
  return reply.code(response.status).send(response.bodyBytes ?? response.body);
}

type FrameworkErrors = NonNullable<FastifyServerOptions['frameworkErrors']>;

/**
 * Fastify's `frameworkErrors` option for an app serving siterest at `prefix`:
 * `Fastify({ frameworkErrors: siterestFrameworkErrors({ site, prefix: '/api' }) })`.
 * Fastify's router refuses a path it cannot percent-decode (`/api/…/by-slug/%`, FST_ERR_BAD_URL) before any
 * plugin runs, with an error of its own; with this option such a path in siterest's namespaces gets the answer
 * WordPress (and siterest under Express) gives. Other errors and other paths get `fallback` when given, else
 * Fastify's usual answer.
 */
export function siterestFrameworkErrors(options: {
  site: Site<FastifyRequest>;
  prefix: string;
  /** As given to the plugin: with `'rest_no_route'`, every bad path under the prefix is siterest's. */
  unmatched?: 'next' | 'rest_no_route';
  fallback?: FrameworkErrors;
}): FrameworkErrors {
  const { site, fallback } = options;
  const prefix = options.prefix.replace(/\/+$/, '');
  const answer = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const path = request.url.split('?', 1)[0]!;
    const inside = path === prefix || path.startsWith(`${prefix}/`);
    if (error.code === 'FST_ERR_BAD_URL' && inside && (options.unmatched === 'rest_no_route' || site.serves(path.slice(prefix.length) || '/'))) {
      void serve(site, prefix, request, reply).catch((failure: unknown) => {
        site.logger.error('unhandled error in the Fastify adapter', { error: failure instanceof Error ? (failure.stack ?? failure.message) : String(failure) });
        if (reply.raw.headersSent) reply.raw.destroy();
        else send(reply, fatalErrorResponse());
      });
      return;
    }
    if (fallback) return void (fallback as (...args: unknown[]) => unknown)(error, request, reply);
    void reply.code(error.statusCode ?? 400).send(error);
  };
  // Fastify types the option with its route generics; the handler needs none of them.
  return answer as unknown as FrameworkErrors;
}

export { siterestRedirectsFastify, type SiterestRedirectsOptions } from './redirects.js';
/** Answers requests Node's parser refuses (headers over 16 KB, …) with WordPress's envelope: `Fastify({ clientErrorHandler: handleClientError })`. */
export { handleClientError } from '@siterest/core';
