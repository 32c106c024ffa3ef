import { METHODS } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { groupHeaders, toSiteRequest, type Site } from '@siterest/core';

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
    const prefix = fastify.prefix;
    const url = request.url.slice(prefix.length) || '/';
    if (unmatched === 'next' && !site.serves(url.split('?', 1)[0]!)) return reply.callNotFound();
    const { request: siteRequest, bodyError } = await toSiteRequest(
      { raw: request.raw, method: request.method, url, basePath: prefix, frameworkRequest: request },
      site,
    );
    const response = await site.handle(siteRequest, bodyError);
    // Set on the Node response so names keep WordPress's casing; Fastify's own hooks still run. A HEAD answer's
    // Content-Length (GET's) goes through Fastify, which would otherwise count the empty body.
    for (const [name, value] of Object.entries(groupHeaders(response))) {
      if (name === 'Content-Length') reply.header(name, value);
      else reply.raw.setHeader(name, value);
    }
    return reply.code(response.status).send(response.body);
  };
  // WordPress answers every method (an undeclared one gets rest_no_route), but Fastify routes only the common
  // ones and sends the rest (SEARCH, PROPFIND, PURGE…) to the app's 404. Teach it every method Node parses.
  // CONNECT is a proxy's tunnel, never a request to the API.
  for (const method of METHODS) {
    if (method !== 'CONNECT' && !fastify.supportedMethods.includes(method)) fastify.addHttpMethod(method, { hasBody: true });
  }
  fastify.all('/', handler);
  fastify.all('/*', handler);
  // Paths Fastify's router could not place (an app route such as /api/app/x can hide the wildcard from /api/app/…).
  if (unmatched === 'rest_no_route') fastify.setNotFoundHandler(handler);
};

export { siterestRedirectsFastify, type SiterestRedirectsOptions } from './redirects.js';
