import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { redirectRequestOf, sendDecision, watchResponse, type RedirectMiddlewareOptions, type Site } from '@siterest/core';

export interface SiterestRedirectsOptions extends RedirectMiddlewareOptions {
  site: Site;
}

const CHECKED = Symbol('siterest.redirects.checked');

/**
 * A Fastify plugin doing the Redirection plugin's real job: an `onRequest` hook on the whole app, before its
 * routes (`fastify.register(siterestRedirectsFastify, { site })`). A pass-through to a local URL routes the
 * request again under that URL.
 */
export const siterestRedirectsFastify: FastifyPluginAsync<SiterestRedirectsOptions> = async (fastify: FastifyInstance, { site, ...options }) => {
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw as FastifyRequest['raw'] & { [CHECKED]?: boolean };
    if (raw[CHECKED]) return;
    raw[CHECKED] = true;
    const neutral = redirectRequestOf(raw, raw.url ?? '/', request.protocol === 'https', request);
    // Most requests are the app's own pages, decided at once from what is loaded: no promise chain for them.
    const decision = site.redirects.handleNow(neutral) ?? (await site.redirects.handle(neutral));
    if (decision.action === 'redirect' || decision.action === 'error') {
      reply.hijack();
      sendDecision(reply.raw, decision, options, request.method);
      return;
    }
    if (decision.action === 'rewrite') {
      reply.hijack();
      raw.url = decision.url;
      fastify.routing(raw, reply.raw);
      return;
    }
    watchResponse(site, reply.raw, neutral, decision);
  });
};

// The hook applies to the whole app, not only to routes registered inside this plugin.
(siterestRedirectsFastify as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
