import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { groupHeaders, toSiteRequest, type Site } from '@siterest/core';

export interface SiterestFastifyOptions {
  site: Site;
}

/**
 * A Fastify 5 plugin serving the site's REST interface below its prefix:
 * `fastify.register(siterestFastify, { site, prefix: '/api' })`.
 */
export const siterestFastify: FastifyPluginAsync<SiterestFastifyOptions> = async (fastify, { site }) => {
  // siterest reads bodies itself (WordPress's order: a malformed JSON body is reported after route matching).
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const prefix = fastify.prefix;
    const url = request.url.slice(prefix.length) || '/';
    const { request: siteRequest, bodyError } = await toSiteRequest(
      { raw: request.raw, method: request.method, url, basePath: prefix },
      site.bodyLimit,
    );
    const response = await site.handle(siteRequest, bodyError);
    // Set on the Node response so names keep WordPress's casing; Fastify's own hooks still run.
    for (const [name, value] of Object.entries(groupHeaders(response))) reply.raw.setHeader(name, value);
    return reply.code(response.status).send(response.body);
  };
  fastify.all('/', handler);
  fastify.all('/*', handler);
};

export default siterestFastify;
export { siterestRedirectsFastify, type SiterestRedirectsOptions } from './redirects.js';
