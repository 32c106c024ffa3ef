import { Router, type Request, type Response } from 'express';
import { groupHeaders, toSiteRequest, type Site } from '@siterest/core';

/** A body an app-level parser (express.json(), urlencoded()) already consumed. */
function parsedBody(req: Request): unknown {
  return (req as Request & { _body?: boolean })._body === true ? req.body : undefined;
}

/**
 * An Express 5 router serving the site's REST interface; mount it where the API should live:
 * `app.use('/api', siterestExpress(site))`.
 */
export function siterestExpress(site: Site): Router {
  const router = Router();
  router.use(async (req: Request, res: Response, next) => {
    try {
      const { request, bodyError } = await toSiteRequest(
        { raw: req, method: req.method, url: req.url, basePath: req.baseUrl, parsedBody: parsedBody(req) },
        site.bodyLimit,
      );
      const response = await site.handle(request, bodyError);
      res.status(response.status);
      for (const [name, value] of Object.entries(groupHeaders(response))) res.setHeader(name, value);
      res.setHeader('Content-Length', Buffer.byteLength(response.body));
      res.end(response.body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
export { siterestRedirects } from './redirects.js';
