import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { redirectRequestOf, sendDecision, watchNotFound, watchResponse, type RedirectDecision, type RedirectMiddlewareOptions, type Site } from '@siterest/core';

export interface SiterestRedirectsOptions extends RedirectMiddlewareOptions {
  site: Site;
}

/** Set on a request served from another local URL: routed again, it is not checked a second time. */
const REROUTED = Symbol('siterest.redirects.rerouted');

/**
 * A Fastify plugin doing the Redirection plugin's real job: an `onRequest` hook on the whole app, before its
 * routes (`fastify.register(siterestRedirectsFastify, { site })`). A pass-through to a local URL routes the
 * request again under that URL.
 */
export const siterestRedirectsFastify: FastifyPluginAsync<SiterestRedirectsOptions> = async (fastify: FastifyInstance, { site, ...options }) => {
  // A callback hook, not an async one: requests decided at once pay for no promise.
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const raw = request.raw as FastifyRequest['raw'] & { [REROUTED]?: true };
    if (raw[REROUTED]) return done();
    const url = raw.url ?? '/';
    // The app's own pages, most requests, are told apart from the URL alone.
    const pass = site.redirects.passNow(url);
    if (pass !== null) {
      if (pass === 'watch-404') watchNotFound(site, reply.raw, () => redirectRequestOf(raw, url, request.protocol === 'https', request));
      return done();
    }
    const neutral = redirectRequestOf(raw, url, request.protocol === 'https', request);
    const apply = (decision: RedirectDecision) => {
      if (decision.action === 'redirect' || decision.action === 'error') {
        reply.hijack();
        sendDecision(reply.raw, decision, options, request.method);
      } else if (decision.action === 'rewrite') {
        reply.hijack();
        raw[REROUTED] = true;
        raw.url = decision.url;
        fastify.routing(raw, reply.raw);
      } else {
        watchResponse(site, reply.raw, neutral, decision);
      }
      // After a hijack Fastify goes no further.
      done();
    };
    const now = site.redirects.handleNow(neutral);
    if (now) return apply(now);
    // `apply` failing (a header Node refuses, say) is the app's error, not an unhandled rejection.
    site.redirects.handle(neutral).then(apply).catch(done);
  });
};

// The hook applies to the whole app, not only to routes registered inside this plugin.
(siterestRedirectsFastify as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
