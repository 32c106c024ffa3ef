import type { ArgSpec } from '../../args/spec.js';
import type { ApiRequest } from '../../http/api-request.js';
import { ApiResponse } from '../../http/api-response.js';
import { coreErrors } from '../../http/errors.js';
import { paginationHeaders } from '../../http/pagination.js';
import { formatWpDate } from '../../time.js';
import type { ContentRecord } from '../../store/content.js';
import type { EventRecord, Page, TermRecord } from '../../store/records.js';
import { CATEGORY_TAXONOMY, EVENT_TYPE } from '../calendar/constants.js';
import { categoryFilter } from './categories.js';
import { ARTICLE_CATEGORY_TAXONOMY, CONTENT_NAMESPACE, NEWS_TYPE, VIDEO_TYPE } from './constants.js';
import { contentErrors } from './errors.js';
import { articleDetail, articleSummary, eventSummary, videoSummary, type Related, type Serializer } from './serialize.js';

/** The namespace's settings, fixed when the site is made. */
export interface ContentSettings {
  articleTypes: readonly string[];
  maxItems: number;
}

const PUBLISHED = ['publish'] as const;

function serializer(request: ApiRequest): Serializer {
  return { settings: request.site.settings, media: request.site.media, eventBase: request.site.settings.single_event_slug };
}

/** Categories, images and venues of the records on one page, each fetched once. */
async function related(request: ApiRequest, records: ReadonlyArray<ContentRecord | EventRecord>, withVenues = false): Promise<Related> {
  const store = request.site.store;
  const termIds = [...new Set(records.flatMap((r) => r.categoryIds))];
  const imageIds = [...new Set(records.map((r) => r.imageId).filter((id) => id > 0))];
  const venueIds = withVenues ? [...new Set(records.flatMap((r) => ('venueIds' in r ? r.venueIds : [])))] : [];
  const [terms, images, venues] = await Promise.all([
    termIds.length ? store.terms.getMany(termIds) : Promise.resolve([] as TermRecord[]),
    imageIds.length ? store.attachments.getMany(imageIds) : Promise.resolve([]),
    venueIds.length ? store.venues.getMany(venueIds) : Promise.resolve([]),
  ]);
  return {
    terms: new Map(terms.map((t) => [t.id, t])),
    images: new Map(images.map((i) => [i.id, i])),
    venues: new Map(venues.map((v) => [v.id, v])),
  };
}

/**
 * `posts_per_page` and `page` as WordPress's query reads them: -1 means all (served in pages of `maxItems`, so no
 * answer grows without bound), 0 means 1.
 */
function paging(request: ApiRequest, settings: ContentSettings): { page: number; perPage: number } {
  const asked = Number(request.get('posts_per_page'));
  const perPage = asked === -1 ? settings.maxItems : Math.max(1, asked);
  return { page: Number(request.get('page') ?? 1), perPage };
}

/** A page of a list with WordPress's collection headers; a page past the last one is WordPress's 400. */
function pageAnswer<R>(request: ApiRequest, route: string, page: number, perPage: number, list: Page<R>, wire: (items: R[]) => unknown[]): ApiResponse {
  const maxPages = Math.ceil(list.total / perPage);
  if (list.total > 0 && page > maxPages) throw coreErrors.invalidPageNumber();
  return new ApiResponse(wire(list.items), 200, paginationHeaders(request, `${CONTENT_NAMESPACE}${route}`, page, perPage, list.total));
}

async function listArticles(request: ApiRequest, settings: ContentSettings, route: string, type: string): Promise<ApiResponse> {
  const { page, perPage } = paging(request, settings);
  const store = request.site.store;
  const categoryIds = await categoryFilter(store, ARTICLE_CATEGORY_TAXONOMY, String(request.get('category') ?? ''));
  const list: Page<ContentRecord> =
    categoryIds && categoryIds.length === 0
      ? { items: [], total: 0 }
      : await store.content.list({
          types: [type],
          statuses: PUBLISHED,
          withoutPassword: true,
          ...(categoryIds ? { categoryIds } : {}),
          offset: (page - 1) * perPage,
          limit: perPage,
        });
  const rel = await related(request, list.items);
  const s = serializer(request);
  return pageAnswer(request, route, page, perPage, list, (items) => items.map((record) => articleSummary(s, record, rel)));
}

export function articles(settings: ContentSettings) {
  return (request: ApiRequest) => listArticles(request, settings, '/articles', String(request.get('post_type') ?? NEWS_TYPE));
}

/** One published article of a listed type; anything else (a draft, a video, an event) is WordPress's 404. */
export function article(settings: ContentSettings) {
  return async (request: ApiRequest) => {
    const id = Number(request.get('id'));
    const record = Number.isSafeInteger(id) ? await request.site.store.content.get(id) : null;
    if (!record || record.status !== 'publish' || record.password !== '' || !settings.articleTypes.includes(record.type)) throw contentErrors.invalidId();
    const [rel, author] = await Promise.all([related(request, [record]), request.site.store.users.get(record.authorId)]);
    return articleDetail(serializer(request), record, rel, author?.displayName ?? '');
  };
}

export function videos(settings: ContentSettings) {
  return async (request: ApiRequest) => {
    const offset = Number(request.get('offset') ?? 0);
    const length = request.has('length') ? Number(request.get('length')) : settings.maxItems;
    const list = await request.site.store.content.list({ types: [VIDEO_TYPE], statuses: PUBLISHED, withoutPassword: true, offset, limit: length });
    const rel = await related(request, list.items);
    const s = serializer(request);
    return new ApiResponse(
      list.items.map((record) => videoSummary(s, record, rel)),
      200,
      [
        ['X-WP-Total', String(list.total)],
        ['X-WP-TotalPages', String(Math.ceil(list.total / length))],
      ],
    );
  };
}

/** Upcoming published events (still running or yet to start), soonest first, without those hidden from listings. */
export function events(settings: ContentSettings) {
  return async (request: ApiRequest) => {
    const type = String(request.get('post_type') ?? EVENT_TYPE);
    if (type !== EVENT_TYPE) return listArticles(request, settings, '/events', type);
    const { page, perPage } = paging(request, settings);
    const store = request.site.store;
    const categoryIds = await categoryFilter(store, CATEGORY_TAXONOMY, String(request.get('category') ?? ''));
    const list: Page<EventRecord> =
      categoryIds && categoryIds.length === 0
        ? { items: [], total: 0 }
        : await store.events.list({
            statuses: PUBLISHED,
            endsAfter: formatWpDate(request.site.now(), 'UTC'),
            excludeHidden: true,
            ...(categoryIds ? { categoryIds } : {}),
            orderBy: 'start',
            offset: (page - 1) * perPage,
            limit: perPage,
          });
    const rel = await related(request, list.items, true);
    const s = serializer(request);
    return pageAnswer(request, '/events', page, perPage, list, (items) => items.map((record) => eventSummary(s, record, rel)));
  };
}

/** `posts_per_page`, `page`, `post_type` and `category`, validated and coerced as WordPress validates args. */
export function listArgs(defaultPerPage: number, defaultType: string, types: readonly string[]): Record<string, ArgSpec> {
  return {
    posts_per_page: {
      description: 'Maximum number of items to return; -1 for all.',
      type: 'integer',
      default: defaultPerPage,
      minimum: -1,
      maximum: 100,
    },
    page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1, maximum: 1_000_000 },
    post_type: { description: 'The post type to list.', type: 'string', default: defaultType, enum: [...types] },
    category: { description: 'A category slug or id; empty for every category.', type: 'string', default: '', maxLength: 200 },
  };
}

export const videoArgs: Record<string, ArgSpec> = {
  offset: { description: 'Number of videos to skip.', type: 'integer', default: 0, minimum: 0, maximum: 1_000_000_000 },
  length: { description: 'Maximum number of videos to return; all when absent.', type: 'integer', minimum: 1, maximum: 100 },
};

export const idArgs: Record<string, ArgSpec> = {
  id: { description: 'Unique identifier for the article.', type: 'integer', required: true },
};

