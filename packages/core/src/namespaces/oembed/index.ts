import type { ApiRequest } from '../../http/api-request.js';
import { ApiError } from '../../http/api-error.js';
import { coreErrors } from '../../http/errors.js';
import { absint } from '../../http/php.js';
import { defineNamespace, defineRoute, READABLE, type NamespaceDefinition } from '../../registry/types.js';
import { embedResponse, findEmbeddable } from './embeds.js';
import { proxy } from './proxy.js';
import { oembedXml } from './xml.js';

const OEMBED_NAMESPACE = 'oembed/1.0';

/** WordPress answers an unknown URL with the HTTP reason phrase. */
const invalidUrl = () => new ApiError('oembed_invalid_url', 'Not Found', 404);

/** wp_oembed_ensure_format: anything but `xml` is `json`. */
const ensureFormat = (value: unknown) => (value === 'xml' ? 'xml' : 'json');

/** Longest URL looked at (longer ones cannot name anything here or at a provider). */
const MAX_URL = 2048;

async function embed(request: ApiRequest) {
  const url = String(request.get('url') ?? '');
  const found = url.length <= MAX_URL ? await findEmbeddable(request.site, url) : null;
  if (!found) throw invalidUrl();
  return embedResponse(request.site, found, absint(request.get('maxwidth') ?? 600));
}

/** _oembed_rest_pre_serve_request: `format=xml` on GET `/embed` serves the data (or the error) as XML. */
function renderXml(request: ApiRequest, data: unknown): { contentType: string; body: string } | null {
  if (request.method !== 'GET' || request.get('format') !== 'xml') return null;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  return { contentType: 'text/xml', body: oembedXml(data as Record<string, unknown>) };
}

/** Audio and video file URLs WordPress embeds with its own handlers when no provider answers. */
function embedHandler(url: string): Record<string, unknown> | null {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return null;
  }
  const ext = path.slice(path.lastIndexOf('.') + 1);
  const safe = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const audio: Record<string, string> = { mp3: 'audio/mpeg', m4a: 'audio/mpeg', ogg: 'audio/ogg', wav: 'audio/wav', flac: 'audio/flac' };
  const video: Record<string, string> = { mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', ogv: 'video/ogg', mov: 'video/quicktime' };
  if (audio[ext]) {
    return {
      provider_name: 'Embed Handler',
      html: `<audio class="wp-audio-shortcode" preload="none" style="width: 100%;" controls="controls"><source type="${audio[ext]}" src="${safe}" /><a href="${safe}">${safe}</a></audio>`,
      scripts: [],
    };
  }
  if (video[ext]) {
    return {
      provider_name: 'Embed Handler',
      html: `<video class="wp-video-shortcode" preload="metadata" controls="controls"><source type="${video[ext]}" src="${safe}" /><a href="${safe}">${safe}</a></video>`,
      scripts: [],
    };
  }
  return null;
}

async function proxyItem(request: ApiRequest) {
  const url = String(request.get('url') ?? '');
  if (url.length > MAX_URL) throw invalidUrl();
  const params = request.all();
  delete params._wpnonce;
  const keyed = Object.fromEntries(Object.entries(params).filter(([name]) => !name.startsWith('_')).sort(([a], [b]) => (a < b ? -1 : 1)));
  const data = await proxy(
    request.site,
    {
      url,
      format: String(request.get('format') ?? 'json'),
      maxwidth: absint(request.get('maxwidth') ?? 600),
      maxheight: request.has('maxheight') ? absint(request.get('maxheight')) : undefined,
      discover: request.get('discover') !== false,
    },
    keyed,
  );
  if (data) return data;
  const handled = embedHandler(url);
  if (handled) return handled;
  throw invalidUrl();
}

const canProxy = (request: ApiRequest) =>
  request.can('edit_posts') ? true : coreErrors.forbidden(request.authorizationStatus, 'Sorry, you are not allowed to make proxied oEmbed requests.');

/** `oembed/1.0`: `/embed` for this site's own content (JSON or XML) and `/proxy` for anything embeddable. */
export function oembedNamespace(): NamespaceDefinition {
  return defineNamespace({
    namespace: OEMBED_NAMESPACE,
    routes: [
      defineRoute('/embed', [
        {
          methods: READABLE,
          args: {
            url: { description: 'The URL of the resource for which to fetch oEmbed data.', required: true, type: 'string', format: 'uri' },
            format: { default: 'json', sanitize: ensureFormat },
            maxwidth: { default: 600, sanitize: (value) => absint(value) },
          },
          handler: embed,
          render: renderXml,
        },
      ]),
      defineRoute('/proxy', [
        {
          methods: READABLE,
          args: {
            url: { description: 'The URL of the resource for which to fetch oEmbed data.', required: true, type: 'string', format: 'uri' },
            format: { description: 'The oEmbed format to use.', type: 'string', default: 'json', enum: ['json', 'xml'] },
            maxwidth: { description: 'The maximum width of the embed frame in pixels.', type: 'integer', default: 600, sanitize: (value) => absint(value) },
            maxheight: { description: 'The maximum height of the embed frame in pixels.', type: 'integer', sanitize: (value) => absint(value) },
            discover: { description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.', type: 'boolean', default: true },
          },
          permission: canProxy,
          handler: proxyItem,
        },
      ]),
    ],
  });
}
