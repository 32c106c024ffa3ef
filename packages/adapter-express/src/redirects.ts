import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { redirectRequestOf, sendDecision, watchResponse, type RedirectDecision, type RedirectMiddlewareOptions, type Site } from '@siterest/core';

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
    const request = redirectRequestOf(req, req.originalUrl || req.url, req.secure, req);
    const apply = (decision: RedirectDecision) => {
      if (sendDecision(res, decision, options, req.method)) return;
      if (decision.action === 'rewrite') {
        req.url = decision.url;
        return next();
      }
      watchResponse(site, res, request, decision);
      next();
    };
    // Most requests are the app's own pages, decided at once from what is loaded: no promise for them.
    const now = site.redirects.handleNow(request);
    if (now) return apply(now);
    site.redirects.handle(request).then(apply, (error: unknown) => next(error));
  };
}
