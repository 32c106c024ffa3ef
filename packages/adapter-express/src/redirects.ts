import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { redirectRequestOf, sendDecision, watchNotFound, watchResponse, type RedirectDecision, type RedirectMiddlewareOptions, type Site } from '@siterest/core';

const CHECKED = Symbol('siterest.redirects.checked');

/**
 * Express middleware doing the Redirection plugin's real job: mount it at the app's root before the app's own
 * routes (`app.use(siterestRedirects(site))`). Matching requests are redirected (or answered with their error
 * status, or served from another local URL); hits and logs are recorded after the response, and a 404 the app
 * ends up answering is logged.
 */
export function siterestRedirects(site: Site, options: RedirectMiddlewareOptions = {}): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const marked = req as Request & { [CHECKED]?: boolean };
    if (marked[CHECKED]) return next();
    marked[CHECKED] = true;
    const url = req.originalUrl || req.url;
    // The app's own pages, most requests, are told apart from the URL alone.
    const pass = site.redirects.passNow(url);
    if (pass !== null) {
      if (pass === 'watch-404') watchNotFound(site, res, () => redirectRequestOf(req, url, req.secure, req));
      return next();
    }
    const request = redirectRequestOf(req, url, req.secure, req);
    const apply = (decision: RedirectDecision) => {
      if (sendDecision(res, decision, options, req.method)) return;
      if (decision.action === 'rewrite') {
        req.url = decision.url;
        return next();
      }
      watchResponse(site, res, request, decision);
      next();
    };
    // Redirects decided at once from what is loaded (a canonical host, say) need no promise either.
    const now = site.redirects.handleNow(request);
    if (now) return apply(now);
    // `apply` failing (a header Node refuses, say) is the app's error, not an unhandled rejection.
    site.redirects.handle(request).then(apply).catch((error: unknown) => next(error));
  };
}
