import type { ApiRequest } from '../../http/api-request.js';
import type { SeoRankCounts } from '../../store/content.js';
import { POST_TYPE } from '../content/constants.js';

type Rank = keyof SeoRankCounts;

/** WPSEO_Rank::get_all_ranks(), in order. */
const RANKS: readonly Rank[] = ['bad', 'ok', 'good', 'na', 'noindex'];

/** WPSEO_Statistics_Service's labels (HTML, as upstream sends them). */
const LABELS: Record<Rank, string> = {
  na: 'Posts <strong>without</strong> a focus keyphrase',
  bad: 'Posts with the SEO score: <strong>Needs improvement</strong>',
  ok: 'Posts with the SEO score: <strong>OK</strong>',
  good: 'Posts with the SEO score: <strong>Good</strong>',
  noindex: 'Posts that should not show up in search results',
};

const HEADERS = {
  empty: "You don't have any published posts, your SEO scores will appear here once you make your first post!",
  good: 'Hey, your SEO is doing pretty well! Check out the stats:',
  other: "Below are your published posts' SEO scores. Now is as good a time as any to start improving some of your posts!",
};

/** `esc_url( admin_url( 'edit.php?…' ) )`: `&` written `&#038;`. */
function rankLink(request: ApiRequest, rank: Rank, authorId: number | undefined): string {
  const query = `post_status=publish&post_type=post&seo_filter=${rank}${authorId === undefined ? '' : `&author=${authorId}`}`;
  return `${request.site.settings.url}/wp-admin/edit.php?${query.replaceAll('&', '&#038;')}`;
}

/**
 * Yoast's dashboard statistics: published posts of type `post` per SEO rank (a user who cannot edit others'
 * posts sees only their own), ranks with no posts left out. The header judges the share of good posts among
 * all counts (a post may count in two ranks, as upstream counts it).
 */
export async function statistics(request: ApiRequest): Promise<Record<string, unknown>> {
  const authorId = request.can('edit_others_posts') ? undefined : request.principal?.id ?? 0;
  const counts = await request.site.store.content.seoRankCounts({ type: POST_TYPE, status: 'publish', ...(authorId === undefined ? {} : { authorId }) });
  const total = RANKS.reduce((sum, rank) => sum + counts[rank], 0);
  const header = total === 0 ? HEADERS.empty : counts.good / total > 0.66 ? HEADERS.good : HEADERS.other;
  return {
    header,
    seo_scores: RANKS.filter((rank) => counts[rank] !== 0).map((rank) => ({
      seo_rank: rank,
      label: LABELS[rank],
      count: counts[rank],
      link: rankLink(request, rank, authorId),
    })),
  };
}
