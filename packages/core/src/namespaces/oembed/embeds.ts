import { randomInt } from 'node:crypto';
import type { SiteContext } from '../../site-context.js';
import type { SiteSettings } from '../../settings.js';
import type { PostRecord } from '../../store/records.js';
import { escUrl } from '../calendar/format/index.js';
import { titleOf } from '../calendar/format/memoized.js';
import { escAttr } from '../../text/sanitize.js';

/**
 * A post type whose public posts other sites may embed. Each namespace lists its own (events now; articles
 * and videos with the content namespace): `defineNamespace({ …, embeddables: [...] })`.
 */
export interface EmbeddablePostType {
  type: string;
  /** The post a URL of this site names (WordPress url_to_postid), whatever its status; null otherwise. */
  find(url: URL, site: SiteContext): Promise<PostRecord | null>;
  /** Its public URL (get_permalink), ending in `/` with pretty permalinks. */
  permalink(post: PostRecord, settings: SiteSettings): string;
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** wp_generate_password( 10, false ): the per-answer secret tying an iframe to its blockquote. */
export function embedSecret(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/** get_post_embed_url: `<permalink>embed/`, or `?embed=true` with plain permalinks. */
function embedUrl(permalink: string, settings: SiteSettings): string {
  if (!settings.permalink_structure || permalink.includes('?')) return `${permalink}${permalink.includes('?') ? '&' : '?'}embed=true`;
  return `${permalink.replace(/\/?$/, '/')}embed/`;
}


/**
 * The script the embedding page runs (WordPress ships wp-embed.js for the same job, written here anew): it
 * listens for the height the embedded page announces with its secret, sizes the matching iframe within
 * 200–1000 px, reveals it and hides the fallback blockquote.
 */
const EMBED_SCRIPT =
  '!function(w,d){if(w.siterestEmbed)return;w.siterestEmbed=1;w.addEventListener("message",function(e){var m=e.data;' +
  'if(!m||"object"!=typeof m||!/^[A-Za-z0-9]{10}$/.test(m.secret||""))return;' +
  'var q=d.querySelectorAll(\'blockquote[data-secret="\'+m.secret+\'"]\'),f=d.querySelectorAll(\'iframe[data-secret="\'+m.secret+\'"]\'),i,x,h;' +
  'for(i=0;i<f.length;i++){x=f[i];if(e.source!==x.contentWindow)continue;x.removeAttribute("style");' +
  'for(var j=0;j<q.length;j++)q[j].style.display="none";' +
  'if("height"===m.message){h=parseInt(m.value,10);x.height=String(h>1000?1000:h<200||!h?200:h)}}},!1)}(window,document);';

/** get_post_embed_html: a blockquote link for sites without iframes, the sandboxed iframe, then the script. */
function embedHtml(post: PostRecord, permalink: string, width: number, height: number, settings: SiteSettings, secret = embedSecret()): string {
  const title = titleOf(post.title);
  const src = `${embedUrl(permalink, settings)}#?secret=${secret}`;
  return (
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escUrl(permalink)}">${title}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${escUrl(src)}" width="${width}" height="${height}" ` +
    `title="${escAttr(`&#8220;${title}&#8221; &#8212; ${settings.name}`)}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>` +
    `<script>\n${EMBED_SCRIPT}\n</script>\n`
  );
}

/** The post of this site a URL names, and its type, when the post can be embedded (published). */
export async function findEmbeddable(site: SiteContext, raw: string): Promise<{ post: PostRecord; kind: EmbeddablePostType } | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const home = new URL(site.settings.home);
  // url_to_postid only knows this site's URLs (scheme-insensitive, as WordPress compares hosts).
  if (url.hostname.toLowerCase() !== home.hostname.toLowerCase()) return null;
  for (const definition of site.registry.definitions.values()) {
    for (const kind of definition.embeddables ?? []) {
      const post = await kind.find(url, site);
      if (post) return post.status === 'publish' ? { post, kind } : null;
    }
  }
  return null;
}

/**
 * get_oembed_response_data (+ the rich filter): width clamped to 200–600, height 9/16 of it (at least 200),
 * the author, the HTML, and the featured image as thumbnail constrained to the width.
 */
export async function embedResponse(site: SiteContext, found: { post: PostRecord; kind: EmbeddablePostType }, maxwidth: number): Promise<Record<string, unknown>> {
  const { post, kind } = found;
  const settings = site.settings;
  const width = Math.min(Math.max(200, maxwidth), 600);
  const height = Math.max(Math.ceil((width / 16) * 9), 200);
  const author = post.authorId ? await site.store.users.get(post.authorId) : null;
  const title = post.password ? `Protected: ${titleOf(post.title)}` : titleOf(post.title);
  const permalink = kind.permalink(post, settings);
  const data: Record<string, unknown> = {
    version: '1.0',
    provider_name: settings.name,
    provider_url: settings.home,
    author_name: author ? author.displayName : settings.name,
    author_url: author ? `${settings.home}/author/${author.nicename}/` : settings.home,
    title,
    type: 'rich',
    width,
    height,
    html: embedHtml(post, permalink, width, height, settings),
  };
  if (post.imageId) {
    const image = await site.store.attachments.get(post.imageId);
    const shown = image ? site.media.fitWidth(image, width) : null;
    if (shown) {
      data.thumbnail_url = shown.url;
      data.thumbnail_width = shown.width;
      data.thumbnail_height = shown.height;
    }
  }
  return data;
}
