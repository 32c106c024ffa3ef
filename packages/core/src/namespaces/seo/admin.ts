import type { Site } from '../../site.js';
import type { ContentRecord, SeoRankCounts } from '../../store/content.js';
import { content, type SeoMetaInput } from '../content/admin.js';
import { POST_TYPE } from '../content/constants.js';
import { configurationValues } from './configurator.js';
import { reindexLinks } from './reindex.js';
import { readSeoSettings, writeSeoSettings, type SeoSettings } from './settings.js';

/** The library side of `seo/v1`: post meta, the checker's settings, reindexing and the counts behind the statistics. */
export interface SeoAdmin {
  /** Sets a record's focus keyphrase, score and noindex flag (only the fields given). */
  setPostMeta(id: number, meta: SeoMetaInput): Promise<ContentRecord | null>;
  settings(): Promise<SeoSettings>;
  updateSettings(patch: Partial<SeoSettings>): Promise<SeoSettings>;
  /** Counts the links of one batch of records, as `reindex_posts` does; returns how many it processed. */
  reindex(): Promise<number>;
  /** Published posts (type `post`) per SEO rank, optionally one author's. */
  rankCounts(authorId?: number): Promise<SeoRankCounts>;
  /** The configuration wizard's stored values (defaults where nothing was stored). */
  configuration(): Promise<Record<string, unknown>>;
}

export function seo(site: Site): SeoAdmin {
  return {
    setPostMeta: (id, meta) => content(site).setSeoMeta(id, meta),
    settings: async () => (await site.ready(), readSeoSettings(site.store)),
    updateSettings: async (patch) => (await site.ready(), writeSeoSettings(site.store, patch)),
    reindex: async () => (await site.ready(), reindexLinks(site)),
    rankCounts: async (authorId) => {
      await site.ready();
      return site.store.content.seoRankCounts({ type: POST_TYPE, status: 'publish', ...(authorId === undefined ? {} : { authorId }) });
    },
    configuration: async () => (await site.ready(), configurationValues(site.store)),
  };
}
