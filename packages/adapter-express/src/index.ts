import { Router, type NextFunction, type Request, type Response } from 'express';
import { bodyLength, fatalErrorResponse, forEachHeader, toSiteRequest, type Site, type SiteResponse } from '@siterest/core';

export interface SiterestExpressOptions {
  /**
   * Requests below the mount point that are outside siterest's namespaces (`/api/health` next to
   * `/api/cal/events/v1/…`): `'next'` (the default) passes them on to the app's later routes and its 404 handler;
   * `'rest_no_route'` answers them with WordPress's 404, as WordPress does for everything under `/wp-json/`.
   * Unknown routes inside a namespace always get WordPress's `rest_no_route`.
   */
  unmatched?: 'next' | 'rest_no_route';
}

/** Whether a body parser of the app (express.json(), urlencoded(), text(), raw()) has read the body already. */
function bodyRead(req: Request): boolean {
  return req.readableEnded;
}

/**
 * An Express 5 router serving the site's REST interface; mount it where the API should live:
 * `app.use('/api', siterestExpress(site))`. The site's authenticate hook gets Express's `req` (with the app's
 * `req.session`, `req.user`), so type the site as `Site<Request>` — `createSite<Request>({ … })`.
 */
export function siterestExpress(site: Site<Request>, options: SiterestExpressOptions = {}): Router {
  const router = Router();
  const passOn = (options.unmatched ?? 'next') === 'next';
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      // A kept answer comes at once on the memory store; the PostgreSQL store is asked for its version first.
      let sent = site.sentAnswer(req.method, req.url, req.headers, req.baseUrl);
      if (sent instanceof Promise) sent = await sent;
      if (sent) {
        send(res, sent);
        return;
      }
      if (passOn && !site.serves(req.path)) {
        next();
        return;
      }
      const read = bodyRead(req);
      // Both come at once when nothing has to be waited for (a GET without a body, on the memory store).
      let parts = toSiteRequest(
        {
          raw: req,
          method: req.method,
          url: req.url,
          basePath: req.baseUrl,
          bodyRead: read,
          parsedBody: read ? req.body : undefined,
          frameworkRequest: req,
        },
        site,
      );
      if (parts instanceof Promise) parts = await parts;
      const { request, bodyError } = parts as Awaited<typeof parts>;
      let answer = site.answer(request, bodyError);
      if (answer instanceof Promise) answer = await answer;
      send(res, answer as SiteResponse);
    } catch (error) {
      // Never Express's default handler (an HTML page with the stack): WordPress's JSON envelope.
      site.logger.error('unhandled error in the Express adapter', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      if (res.headersSent) {
        res.destroy();
        return;
      }
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      try {
        send(res, fatalErrorResponse());
      } catch {
        res.destroy();
      }
    }
  });
  return router;
}

function send(res: Response, response: SiteResponse): void {
  res.status(response.status);
  forEachHeader(response, (name, value) => res.setHeader(name, value));
  // HEAD answers carry GET's Content-Length from the pipeline; Node sends no body for them.
  const parts = response.bodyParts;
  if (parts) {
    if (!res.hasHeader('Content-Length')) res.setHeader('Content-Length', bodyLength(parts));
    // Corked: the pieces leave in one system call when the answer ends.
    res.cork();
    for (const part of parts) res.write(part);
    res.end();
    return;
  }
  const body = response.bodyBytes ?? response.body;
  if (!res.hasHeader('Content-Length')) res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.end(body);
}
export { siterestRedirects } from './redirects.js';
/** Answers requests Node's parser refuses (headers over 16 KB, …) with WordPress's envelope: `answerClientErrors(app.listen(…))`. */
export { answerClientErrors } from '@siterest/core';
