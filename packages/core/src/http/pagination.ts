import type { ApiRequest } from './api-request.js';

/** PHP urlencode: everything but letters, digits and `-_.` percent-encoded, spaces as `+`. */
function urlencode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
}

/** PHP http_build_query over already-decoded params: nested keys as `a%5B0%5D`. */
function buildQuery(params: Record<string, unknown>, prefix = ''): string[] {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    const name = prefix ? `${prefix}%5B${urlencode(key)}%5D` : urlencode(key);
    if (value !== null && typeof value === 'object') parts.push(...buildQuery(value as Record<string, unknown>, name));
    else if (value !== undefined && value !== null) parts.push(`${name}=${urlencode(value === true ? '1' : value === false ? '0' : String(value))}`);
  }
  return parts;
}

/**
 * WordPress's collection headers: `X-WP-Total`, `X-WP-TotalPages` and `Link` prev/next built from the
 * collection URL and the request's own query parameters with `page` replaced.
 */
export function paginationHeaders(request: ApiRequest, collectionPath: string, page: number, perPage: number, total: number): Array<[string, string]> {
  const maxPages = total > 0 ? Math.ceil(total / perPage) : 0;
  const headers: Array<[string, string]> = [
    ['X-WP-Total', String(total)],
    ['X-WP-TotalPages', String(maxPages)],
  ];
  const base = request.restUrl(collectionPath);
  const link = (target: number) => {
    // add_query_arg replaces `page` where it stands, or appends it.
    const params: Record<string, unknown> = { ...request.sentQueryParams() };
    params.page = target;
    const query = buildQuery(params).join("&");
    return `${base}?${query}`;
  };
  if (page > 1) headers.push(['Link', `<${link(Math.min(page - 1, Math.max(maxPages, 1)))}>; rel="prev"`]);
  if (maxPages > page) headers.push(['Link', `<${link(page + 1)}>; rel="next"`]);
  return headers;
}
