import type { ApiRequest } from '../../http/api-request.js';
import type { SiteContext } from '../../site-context.js';
import { REINDEX_BATCH } from './constants.js';
import { countInternalLinks } from './links.js';

/**
 * Yoast's link reindex: counts the internal links of up to one batch of published records whose links were
 * never counted, stores each count, and answers how many records it processed.
 */
export async function reindexLinks(site: Pick<SiteContext, 'store' | 'settings'>): Promise<number> {
  const pending = await site.store.content.linksPending(REINDEX_BATCH);
  let processed = 0;
  for (const record of pending) {
    if (await site.store.content.setLinkCount(record.id, countInternalLinks(record.content, site.settings.home), record.content)) processed++;
  }
  return processed;
}

export const reindexPosts = (request: ApiRequest) => reindexLinks(request.site);
