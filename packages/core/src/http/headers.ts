/** Headers WordPress sends on every REST response, before the response's own. */
export function baseHeaders(apiRoot: string, contentType: string): Array<[string, string]> {
  return [
    ['Content-Type', `${contentType}; charset=UTF-8`],
    ['X-Robots-Tag', 'noindex'],
    ['Link', `<${apiRoot}>; rel="https://api.w.org/"`],
    ['X-Content-Type-Options', 'nosniff'],
    ['Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link'],
    ['Access-Control-Allow-Headers', 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type'],
  ];
}

export const NO_CACHE_HEADERS: ReadonlyArray<[string, string]> = [
  ['Expires', 'Wed, 11 Jan 1984 05:00:00 GMT'],
  ['Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private'],
];

/** WordPress rest_send_cors_headers: echo the Origin; anonymous GETs without one still vary on it. */
export function corsHeaders(origin: string | undefined, rawMethod: string, loggedIn: boolean): Array<[string, string]> {
  if (origin) {
    return [
      ['Access-Control-Allow-Origin', origin === 'null' ? 'null' : sanitizeOrigin(origin)],
      ['Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE'],
      ['Access-Control-Allow-Credentials', 'true'],
      ['Vary', 'Origin'],
    ];
  }
  if (rawMethod === 'GET' && !loggedIn) return [['Vary', 'Origin']];
  return [];
}

/** Header values must not smuggle line breaks; an origin is a URL without spaces. */
function sanitizeOrigin(origin: string): string {
  return origin.replace(/[\s<>"'`\\]/g, '');
}
