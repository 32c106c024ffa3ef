import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { redirectRequestOf, sendDecision, watchResponse, type RedirectMiddlewareOptions, type Site } from '@siterest/core';

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
    site.redirects.handle(request).then(
      (decision) => {
        if (sendDecision(res, decision, options, req.method)) return;
        if (decision.action === 'rewrite') {
          req.url = decision.url;
          return next();
        }
        watchResponse(site, res, request, decision);
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
