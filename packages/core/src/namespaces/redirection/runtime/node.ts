import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Site } from '../../../site.js';
import type { RedirectDecision, RedirectRequest } from './engine.js';

/*
 * What both framework adapters share for the redirect middleware, on Node's own request and response objects:
 * build the neutral request, send a decision, and watch the app's answer for a 404.
 */

export interface RedirectMiddlewareOptions {
  /** The page sent with an error action (Redirection shows the theme's 404 template); a small HTML page by default. */
  errorPage?: (status: number) => string;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 410: 'Gone', 418: "I'm a teapot", 451: 'Unavailable For Legal Reasons', 500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

export function defaultErrorPage(status: number): string {
  const text = STATUS_TEXT[status] ?? 'Error';
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="UTF-8"><title>${text}</title></head><body><h1>${status} ${text}</h1></body></html>\n`;
}

export function redirectRequestOf(req: IncomingMessage, url: string, secure: boolean, frameworkRequest?: unknown): RedirectRequest {
  return { method: req.method ?? 'GET', url, headers: req.headers, remoteAddress: req.socket?.remoteAddress, secure, frameworkRequest };
}

/** Sends a redirect or an error decision on the raw response. */
export function sendDecision(res: ServerResponse, decision: RedirectDecision, options: RedirectMiddlewareOptions, method: string): boolean {
  if (decision.action === 'redirect') {
    for (const [name, value] of decision.headers) res.setHeader(name, value);
    res.setHeader('Location', decision.location);
    res.setHeader('Content-type', 'text/html; charset=UTF-8');
    res.setHeader('Content-Length', '0');
    res.statusCode = decision.status;
    res.end();
    return true;
  }
  if (decision.action === 'error') {
    const body = (options.errorPage ?? defaultErrorPage)(decision.status);
    res.statusCode = decision.status;
    res.setHeader('Content-Type', 'text/html; charset=UTF-8');
    for (const [name, value] of decision.headers) res.setHeader(name, value);
    res.setHeader('Content-Length', String(Buffer.byteLength(body)));
    res.end(method === 'HEAD' ? undefined : body);
    return true;
  }
  return false;
}

/**
 * For a request `passNow` left to the app: once the response is finished, a 404 is logged. The neutral request is
 * made only then, so that the app's other pages cost one listener.
 */
export function watchNotFound(site: Site, res: ServerResponse, request: () => RedirectRequest): void {
  res.on('finish', () => {
    if (res.statusCode === 404) site.redirects.notFound(request());
  });
}

/**
 * Watches the app's answer to a request nothing redirected: when it is a 404 and a `page` redirect applies, the
 * redirect is sent instead of the app's page; otherwise a 404 is logged once the response is finished.
 */
export function watchResponse(site: Site, res: ServerResponse, request: RedirectRequest, decision: RedirectDecision): void {
  let replaced = false;
  if (decision.action === 'continue') for (const [name, value] of decision.headers ?? []) res.setHeader(name, value);
  if (decision.action === 'continue' && decision.onNotFound) {
    const onNotFound = decision.onNotFound;
    let decided = false;
    const { writeHead, write, end } = res;
    // Decided before the first byte of the app's 404 goes out, however the app sends it.
    const swap = (status: number) => {
      if (decided || status !== 404 || res.headersSent) return;
      decided = true;
      const redirect = onNotFound();
      if (!redirect || redirect.action !== 'redirect') return;
      replaced = true;
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      for (const [name, value] of redirect.headers) res.setHeader(name, value);
      res.setHeader('Location', redirect.location);
      res.setHeader('Content-type', 'text/html; charset=UTF-8');
      res.setHeader('Content-Length', '0');
      res.statusCode = redirect.status;
    };
    res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      swap(status);
      if (replaced) return (writeHead as (s: number) => ServerResponse).call(this, res.statusCode);
      return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
    } as ServerResponse['writeHead'];
    res.write = function (this: ServerResponse, ...args: unknown[]) {
      swap(res.statusCode);
      if (replaced) return true;
      return (write as (...a: unknown[]) => boolean).apply(this, args);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      swap(res.statusCode);
      if (replaced) {
        // The app's 404 page is not sent.
        const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
        return (end as (cb?: () => void) => ServerResponse).call(this, callback);
      }
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['end'];
  }
  res.on('finish', () => {
    if (!replaced) site.redirects.afterResponse(request, decision, res.statusCode);
  });
}
