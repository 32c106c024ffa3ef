import type { SiteContext } from '../../site-context.js';
import { removeAngleTags } from '../../text/markup-scans.js';
import { escHtml, escUrl } from '../calendar/format/index.js';
import { excerptOf, titleOf } from '../calendar/format/memoized.js';
import { findEmbeddable } from './embeds.js';

/**
 * The page an embed's iframe shows (`<permalink>embed/`): the post's title, excerpt and a link, in a small
 * card. It tells the embedding page its height with the secret from its URL fragment, which the script of
 * the oEmbed HTML waits for. Host apps serve it at that address (the example servers do); null when the URL
 * names nothing embeddable.
 */
export async function embedPage(site: SiteContext, url: string): Promise<string | null> {
  const target = url.replace(/embed\/?(\?.*)?$/, '').replace(/[?&]embed=true/, '');
  const found = await findEmbeddable(site, target);
  if (!found) return null;
  const { post, kind } = found;
  const permalink = kind.permalink(post, site.settings);
  const excerpt = post.password ? '' : excerptOf(post.excerpt) || excerptOf(removeAngleTags(post.content).slice(0, 300));
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, follow">
<title>${titleOf(post.title)} &#8212; ${escHtml(site.settings.name)}</title>
<style>body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d2327}.card{border:1px solid #dcdcde;padding:20px;margin:0;background:#fff}h1{font-size:20px;margin:0 0 8px}a{color:#2271b1}</style>
</head><body><div class="card"><h1><a href="${escUrl(permalink)}" target="_top">${titleOf(post.title)}</a></h1>${excerpt}<p><a href="${escUrl(site.settings.home)}" target="_top">${escHtml(site.settings.name)}</a></p></div>
<script>!function(){var s=(location.hash.match(/secret=([A-Za-z0-9]{10})/)||[])[1];if(!s||window.parent===window)return;function t(){window.parent.postMessage({message:"height",value:document.documentElement.getBoundingClientRect().height,secret:s},"*")}window.addEventListener("load",t);window.addEventListener("resize",t)}();</script>
</body></html>
`;
}
