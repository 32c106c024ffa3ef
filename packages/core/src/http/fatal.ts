import { coreErrors } from './errors.js';
import { encodeJson } from './json.js';
import type { SiteResponse } from './request.js';

/**
 * The answer when answering failed: WordPress's fatal-error envelope (500 `internal_server_error`), with only the
 * headers it needs. Adapters send it when even writing the pipeline's answer threw, so a client never sees a
 * framework's HTML error page or raw exception text.
 */
export function fatalErrorResponse(): SiteResponse {
  const body = encodeJson(coreErrors.internal().toWire());
  return {
    status: 500,
    headers: [
      ['Content-Type', 'application/json; charset=UTF-8'],
      ['X-Content-Type-Options', 'nosniff'],
      ['Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private'],
    ],
    body,
  };
}
