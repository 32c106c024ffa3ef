import { filterHtml } from '../../text/html-filter.js';

/** Schemes that never name a page of the site. */
const NOT_A_PAGE = /^(mailto|tel|javascript|data|ftp|sms):/i;

/** Every `href` of the `<a>` elements in the HTML, read by a real parser (linear in the input). */
function hrefsOf(html: string): string[] {
  const hrefs: string[] = [];
  filterHtml(html, {
    allowedTags: ['a'],
    allowedAttributes: { a: ['href'] },
    allowedSchemes: ['http', 'https', 'mailto', 'tel', 'ftp', 'sms', 'data', 'javascript'],
    transformTags: {
      a: (tagName, attribs) => {
        if (typeof attribs.href === 'string') hrefs.push(attribs.href);
        return { tagName, attribs };
      },
    },
  });
  return hrefs;
}

/**
 * Yoast's link classifier, counting internal links: an address relative to the site, or an http(s) address on
 * the home URL's host. Fragments alone (`#top`) and other schemes are not links to a page.
 */
export function countInternalLinks(html: string, home: string): number {
  const host = new URL(home).host.toLowerCase();
  let count = 0;
  for (const raw of hrefsOf(html)) {
    const href = raw.trim();
    if (href === '' || href.startsWith('#') || NOT_A_PAGE.test(href)) continue;
    let url: URL;
    try {
      url = new URL(href, `${home}/`);
    } catch {
      continue;
    }
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host.toLowerCase() === host) count++;
  }
  return count;
}
