import { filterHtml } from '../../text/html-filter.js';
import { escUrl } from '../calendar/format/index.js';

const BASE_ALLOWED: Record<string, string[]> = {
  a: ['href'],
  blockquote: [],
  iframe: ['src', 'width', 'height', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'title'],
};

function kses(html: string, allowed: Record<string, string[]>): string {
  return filterHtml(html, {
    allowedTags: Object.keys(allowed),
    allowedAttributes: allowed,
    allowedSchemes: ['http', 'https'],
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: true,
    selfClosing: [],
  });
}

/**
 * The last `<iframe …></iframe>` with its end, as WordPress's greedy pattern finds it; null without one: the last
 * `<iframe` that a `></iframe>` follows, up to the first one after it. Found from the last `></iframe>`: trying
 * each `<iframe` from the end and searching forward from it read to the end once for every iframe with content.
 */
export function lastIframe(html: string): string | null {
  const lastEnd = html.lastIndexOf('></iframe>');
  if (lastEnd === -1) return null;
  const start = html.lastIndexOf('<iframe', lastEnd);
  if (start === -1) return null;
  return html.slice(start, html.indexOf('></iframe>', start) + '></iframe>'.length);
}

/**
 * wp_filter_oembed_result for providers found by discovery: only an optional leading `<blockquote>` and an
 * `<iframe>` survive (kses), both get a per-answer secret, and the iframe is sandboxed (and hidden behind the
 * blockquote when there is one). No iframe, no HTML: `false`. Worked with index scans, linear in the input.
 */
export function filterDiscoveredHtml(html: string, secret: string): string | false {
  const cleaned = kses(html, BASE_ALLOWED);
  const iframe = lastIframe(cleaned);
  if (!iframe) return false;
  let blockquote = '';
  if (cleaned.startsWith('<blockquote>')) {
    const end = cleaned.indexOf('</blockquote>');
    if (end !== -1 && end + '</blockquote>'.length <= cleaned.indexOf(iframe)) blockquote = cleaned.slice(0, end + '</blockquote>'.length);
  }
  let out = blockquote + iframe;
  const src = / src=(['"])(.*?)\1/.exec(out);
  if (src) {
    const quote = src[1]!;
    const url = escUrl(`${src[2]}#?secret=${secret}`);
    out = out.replace(src[0], ` src=${quote}${url}${quote} data-secret=${quote}${secret}${quote}`);
    out = out.replace('<blockquote', `<blockquote data-secret="${secret}"`);
  }
  out = kses(out, { ...BASE_ALLOWED, blockquote: ['data-secret'], iframe: [...BASE_ALLOWED.iframe!, 'data-secret'] });
  if (blockquote) {
    out = out.replace('<iframe', '<iframe style="position: absolute; visibility: hidden;"');
    out = out.replace('<blockquote', '<blockquote class="wp-embedded-content"');
  }
  return out.replace(/<iframe/gi, '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"');
}
