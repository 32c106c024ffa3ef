/** The demo site's own content: news, blog posts with their SEO meta, and videos. Dates are days before seeding. */

export interface DemoArticle {
  title: string;
  content: string;
  excerpt?: string;
  /** Days before the seed date. */
  daysAgo: number;
  categories?: readonly string[];
  status?: 'publish' | 'draft';
  /** Index into the demo images for the featured image. */
  image?: number;
  seo?: { focusKeyphrase?: string; score?: number; noindex?: boolean };
}

export interface DemoVideo extends DemoArticle {
  videoUrl: string;
}

/** Article categories; `children` are created under their parent. */
export const DEMO_ARTICLE_CATEGORIES: ReadonlyArray<{ name: string; children?: readonly string[] }> = [
  { name: 'Community' },
  { name: 'Culture', children: ['Music'] },
  { name: 'Announcements' },
];

export const DEMO_NEWS: readonly DemoArticle[] = [
  {
    title: 'Riverside Jazz Night is back',
    content: '<p>After a summer break the <a href="/event/riverside-jazz-night/">Riverside Jazz Night</a> returns to the Old Harbour Hall.</p><p>Doors open at seven.</p>',
    daysAgo: 1,
    categories: ['Music'],
    image: 0,
  },
  {
    title: 'Farmers market moves to the square',
    content: '<p>From next month the farmers market sets up on the town square. See the <a href="https://example.org/markets/">regional market list</a>.</p>',
    excerpt: 'The farmers market has a new home.',
    daysAgo: 3,
    categories: ['Community'],
    image: 1,
  },
  { title: 'New opening hours for the library', content: '<p>The library now opens at nine on weekdays.</p>', daysAgo: 6, categories: ['Announcements'] },
  { title: 'Volunteers wanted for the winter fair', content: '<p>The winter fair needs helpers. <a href="/contact/">Get in touch</a>.</p>', daysAgo: 9, categories: ['Community'] },
  { title: 'Choir concert sold out', content: '<p>All seats for the choir concert are taken.</p>', daysAgo: 12, categories: ['Culture'] },
  { title: 'Harbour clean-up results', content: '<p>Forty volunteers collected 300 kg of litter.</p>', daysAgo: 20, categories: ['Community'], image: 2 },
  { title: 'Draft: spring programme', content: '<p>Not ready yet.</p>', daysAgo: 0, categories: ['Announcements'], status: 'draft' },
];

/** Blog posts (post type `post`): what the SEO statistics count. */
export const DEMO_POSTS: readonly DemoArticle[] = [
  { title: 'How we plan a festival', content: '<p>Planning starts a year ahead.</p>', daysAgo: 2, seo: { focusKeyphrase: 'festival planning', score: 82 } },
  { title: 'Ten years of jazz by the river', content: '<p>A look back.</p>', daysAgo: 5, seo: { focusKeyphrase: 'jazz river', score: 76 } },
  { title: 'Our favourite market stalls', content: '<p>Cheese, bread and flowers.</p>', daysAgo: 8, seo: { focusKeyphrase: 'market stalls', score: 55 } },
  { title: 'Behind the scenes at the hall', content: '<p>Meet the crew.</p>', daysAgo: 11, seo: { focusKeyphrase: 'concert hall', score: 30 } },
  { title: 'Notes from the committee', content: '<p>Minutes of the last meeting.</p>', daysAgo: 15, seo: { score: 0, noindex: true } },
  { title: 'Photo walk around the harbour', content: '<p>Bring a camera.</p>', daysAgo: 18, seo: { focusKeyphrase: 'harbour photo walk', score: 91 } },
  { title: 'Unfinished post', content: '<p>Draft.</p>', daysAgo: 0, status: 'draft', seo: { focusKeyphrase: 'draft', score: 95 } },
];

export const DEMO_VIDEO_CATEGORIES: readonly string[] = ['Highlights', 'Interviews'];

export const DEMO_VIDEOS: readonly DemoVideo[] = [
  { title: 'Jazz Night highlights', content: '<p>Three minutes of the best moments.</p>', daysAgo: 4, categories: ['Highlights'], videoUrl: 'https://videos.example.org/jazz-night-highlights.mp4', image: 0 },
  { title: 'Meet the market traders', content: '<p>Stories from the stalls.</p>', daysAgo: 10, categories: ['Interviews'], videoUrl: 'https://videos.example.org/market-traders.mp4' },
  { title: 'Clean-up day in ninety seconds', content: '<p>Time-lapse.</p>', daysAgo: 21, categories: ['Highlights'], videoUrl: 'https://videos.example.org/clean-up.mp4' },
  { title: 'Rough cut', content: '<p>Not public.</p>', daysAgo: 0, categories: ['Interviews'], videoUrl: 'https://videos.example.org/rough-cut.mp4', status: 'draft' },
];
