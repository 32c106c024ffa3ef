import { DateTime } from 'luxon';
import { principalOf } from '../auth/authenticate.js';
import type { Principal } from '../auth/principal.js';
import { siteZone } from '../settings.js';
import { popups } from '../namespaces/popups/index.js';
import { content } from '../namespaces/content/admin.js';
import { POST_TYPE } from '../namespaces/content/constants.js';
import { WP_FORMAT } from '../time.js';
import type { Site } from '../site.js';
import { DEMO_CATEGORIES, DEMO_EVENTS, DEMO_ORGANIZERS, DEMO_TAGS, DEMO_VENUES, type DemoEvent } from './calendar.js';
import { DEMO_IMAGES, demoPoster } from './images.js';
import { DEMO_REDIRECTS } from './redirects.js';
import { DEMO_ARTICLE_CATEGORIES, DEMO_NEWS, DEMO_POSTS, DEMO_VIDEO_CATEGORIES, DEMO_VIDEOS, type DemoArticle } from './content.js';

export interface DemoSummary {
  categories: number;
  tags: number;
  venues: number;
  organizers: number;
  events: number;
  contactForms: number;
  popups: number;
  images: number;
  redirects: number;
  articles: number;
  videos: number;
}

const NS = '/cal/events/v1';

/**
 * Seeds a believable demo calendar through the site's own REST routes, acting as an administrator, with every
 * date relative to the site clock so the default event list is never empty.
 */
export async function seedDemoSite(site: Site, options: { login?: string } = {}): Promise<DemoSummary> {
  await site.ready();
  const user = await site.store.users.findByLogin(options.login ?? 'admin');
  if (!user || !user.roles.includes('administrator')) throw new Error('seedDemoSite needs an administrator (create user "admin" first).');
  const principal = principalOf(user);
  const call = (method: string, path: string, body: unknown) => send(site, principal, method, path, body);

  for (const category of DEMO_CATEGORIES) {
    const parent = await call('POST', `${NS}/categories`, { name: category.name, description: category.description });
    for (const child of category.children ?? []) await call('POST', `${NS}/categories`, { name: child, parent: parent.id });
  }
  for (const name of DEMO_TAGS) await call('POST', `${NS}/tags`, { name });
  // Images drawn now (no binary files in the repository), uploaded to the media library.
  const images: number[] = [];
  for (const image of DEMO_IMAGES) {
    const data = await demoPoster(image.width, image.height, [...image.from], [...image.to], image.format);
    images.push((await site.media.upload({ data, filename: image.name, authorId: user.id })).id);
  }
  const venues = new Map<string, number>();
  for (const [i, { key, ...venue }] of DEMO_VENUES.entries()) {
    venues.set(key, (await call('POST', `${NS}/venues`, i === 0 ? { ...venue, image: String(images[3]) } : venue)).id);
  }
  const organizers = new Map<string, number>();
  for (const { key, ...organizer } of DEMO_ORGANIZERS) organizers.set(key, (await call('POST', `${NS}/organizers`, organizer)).id);

  const today = DateTime.fromMillis(site.now(), { zone: siteZone(site.settings) }).startOf('day');
  for (const [i, event] of DEMO_EVENTS.entries()) {
    const body = eventBody(event, today, venues, organizers);
    if (i < 3) body.image = String(images[i]);
    await call('POST', `${NS}/events`, body);
  }
  // Contact Form 7 creates "Contact form 1" from its default template on activation; Popup Maker sites have popups.
  await call('POST', '/contact-forms/v1/contact-forms', { title: 'Contact form 1', context: 'save' });
  await popups(site).create({ title: 'Riverside newsletter', content: 'Hear about new events first: join the Riverside newsletter.', authorId: user.id });
  const redirects = await seedDemoRedirects(site, principal);
  const { articles, videos } = await seedDemoContent(site, user.id, images, today);
  return {
    categories: DEMO_CATEGORIES.reduce((n, c) => n + 1 + (c.children?.length ?? 0), 0),
    tags: DEMO_TAGS.length,
    venues: venues.size,
    organizers: organizers.size,
    events: DEMO_EVENTS.length,
    contactForms: 1,
    popups: 1,
    images: images.length,
    redirects,
    articles,
    videos,
  };
}

/** News, blog posts (with their SEO meta) and videos, through the library's content API. */
async function seedDemoContent(site: Site, authorId: number, images: readonly number[], today: DateTime): Promise<{ articles: number; videos: number }> {
  const library = content(site);
  for (const category of DEMO_ARTICLE_CATEGORIES) {
    const parent = await library.category(category.name);
    for (const child of category.children ?? []) await library.category(child, { parentId: parent.id });
  }
  for (const name of DEMO_VIDEO_CATEGORIES) await library.category(name, { taxonomy: 'video_category' });
  const common = (item: DemoArticle) => ({
    title: item.title,
    content: item.content,
    ...(item.excerpt ? { excerpt: item.excerpt } : {}),
    status: item.status ?? 'publish',
    authorId,
    date: today.minus({ days: item.daysAgo }).set({ hour: 9 }).toFormat(WP_FORMAT),
    ...(item.image !== undefined ? { imageId: images[item.image]! } : {}),
    categories: [...(item.categories ?? [])],
    ...(item.seo ? { seo: item.seo } : {}),
  });
  for (const item of DEMO_NEWS) await library.createArticle(common(item));
  for (const item of DEMO_POSTS) await library.createArticle({ ...common(item), type: POST_TYPE });
  for (const item of DEMO_VIDEOS) await library.createVideo({ ...common(item), videoUrl: item.videoUrl });
  return { articles: DEMO_NEWS.length + DEMO_POSTS.length, videos: DEMO_VIDEOS.length };
}

function eventBody(event: DemoEvent, today: DateTime, venues: Map<string, number>, organizers: Map<string, number>): Record<string, unknown> {
  const [hour, minute] = event.start.split(':').map(Number) as [number, number];
  const day = today.plus({ days: event.day });
  const start = (event.weekday ? day.plus({ days: (event.weekday - day.weekday + 7) % 7 }) : day).set({ hour, minute });
  const end = event.allDay ? start.plus({ days: (event.days ?? 1) - 1 }) : start.plus({ minutes: event.minutes ?? 60 });
  const body: Record<string, unknown> = {
    title: event.title,
    description: event.description,
    start_date: start.toFormat(WP_FORMAT),
    end_date: end.toFormat(WP_FORMAT),
    all_day: event.allDay ?? false,
    categories: event.categories ?? [],
    tags: event.tags ?? [],
    featured: event.featured ?? false,
    hide_from_listings: event.hidden ?? false,
    status: event.status ?? 'publish',
  };
  if (event.excerpt) body.excerpt = event.excerpt;
  if (event.cost !== undefined) body.cost = event.cost;
  if (event.website) body.website = event.website;
  if (event.venue) body.venue = venues.get(event.venue);
  if (event.organizers) body.organizer = event.organizers.map((key) => organizers.get(key));
  return body;
}

/** The demo redirects, into Redirection's default group, unless the site has redirects already. */
async function seedDemoRedirects(site: Site, principal: Principal): Promise<number> {
  const existing = await send(site, principal, 'GET', '/redirection/v1/redirect?per_page=5', undefined);
  if (existing.total > 0) return 0;
  const groups = await send(site, principal, 'GET', '/redirection/v1/group?orderby=id&direction=asc', undefined);
  const groupId = groups.items[0]?.id;
  if (!groupId) return 0;
  for (const redirect of DEMO_REDIRECTS) {
    await send(site, principal, 'POST', '/redirection/v1/redirect', {
      url: redirect.url,
      title: redirect.title,
      group_id: groupId,
      match_type: 'url',
      action_type: redirect.action ?? 'url',
      action_code: redirect.code,
      action_data: { url: redirect.target },
      match_data: { source: { flag_regex: redirect.regex ?? false, flag_case: true, flag_trailing: true, flag_query: redirect.flagQuery ?? 'exact' } },
    });
  }
  return DEMO_REDIRECTS.length;
}

async function send(site: Site, principal: Principal, method: string, path: string, body: unknown): Promise<any> {
  const bytes = Buffer.from(JSON.stringify(body ?? {}));
  const q = path.indexOf('?');
  const response = await site.handle({
    method,
    path: q === -1 ? path : path.slice(0, q),
    query: q === -1 ? '' : path.slice(q + 1),
    headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(bytes.length) },
    body: body === undefined ? undefined : { kind: 'raw', contentType: 'application/json', bytes },
    principal,
  });
  if (response.status >= 300) throw new Error(`demo seed: ${method} ${path} answered ${response.status}: ${response.body}`);
  return JSON.parse(response.body);
}
