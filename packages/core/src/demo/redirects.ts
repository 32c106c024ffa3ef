/** Redirects of the demo site: old addresses of a site that moved its calendar under /api. */
export interface DemoRedirect {
  url: string;
  target: string;
  code: number;
  title: string;
  regex?: boolean;
  action?: 'url' | 'error';
  flagQuery?: 'exact' | 'ignore' | 'pass';
}

export const DEMO_REDIRECTS: readonly DemoRedirect[] = [
  { url: '/old-page', target: '/api/', code: 301, title: 'The old home page' },
  { url: '/calendar', target: '/api/cal/events/v1/events', code: 301, title: 'Old calendar address', flagQuery: 'pass' },
  { url: '^/events/(\\d+)/?$', target: '/api/cal/events/v1/events/$1', code: 302, title: 'Old event pages', regex: true },
  { url: '/venues', target: '/api/cal/events/v1/venues', code: 307, title: 'Venue list', flagQuery: 'ignore' },
  { url: '/retired-page', target: '', code: 410, title: 'Gone for good', action: 'error' },
];
