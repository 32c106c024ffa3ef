import type { MediaLibrary } from '../../media/library.js';
import type { SiteSettings } from '../../settings.js';
import type { ContentRecord } from '../../store/content.js';
import type { AttachmentRecord } from '../../store/media-records.js';
import type { EventRecord, PostRecord, TermRecord, VenueRecord } from '../../store/records.js';
import { trimWords } from '../calendar/format/excerpt.js';
import { renderContent, renderTitle } from '../calendar/format/render.js';
import { POST_TYPE, VIDEO_TYPE } from './constants.js';

/** What summaries need besides the records: their categories, images and (events) venues, by id. */
export interface Related {
  terms: ReadonlyMap<number, TermRecord>;
  images: ReadonlyMap<number, AttachmentRecord>;
  venues?: ReadonlyMap<number, VenueRecord>;
}

export interface Serializer {
  settings: SiteSettings;
  media: MediaLibrary;
  /** The permalink base of single events (The Events Calendar's `event`). */
  eventBase: string;
}

/** `YYYY-MM-DDTHH:MM:SS`, as WordPress's REST API writes local dates. */
const restDate = (date: string) => date.replace(' ', 'T');

/** The permalink with pretty permalinks (`/news/slug/`, posts at `/slug/`), else WordPress's query form. */
export function contentLink(post: PostRecord, settings: SiteSettings, base: string | null): string {
  const home = settings.home;
  if (!post.slug) return post.type === POST_TYPE ? `${home}/?p=${post.id}` : `${home}/?post_type=${post.type}&p=${post.id}`;
  if (!settings.permalink_structure) return post.type === POST_TYPE ? `${home}/?p=${post.id}` : `${home}/?${post.type}=${post.slug}`;
  return base ? `${home}/${base}/${post.slug}/` : `${home}/${post.slug}/`;
}

/** The end of a block (or a line break): where stripping tags must leave a space so words do not run together. */
const BLOCK_END = /<\/(?:p|div|li|h[1-6]|blockquote|figcaption|td|th)\s*>|<br\s*\/?>/gi;

/** The explicit excerpt, else the first 55 words of the content, as plain text; none for a protected post. */
function excerptOf(post: PostRecord): string {
  if (post.password !== '') return '';
  // An explicit excerpt is shown whole, as WordPress shows it; only the generated one is cut.
  if (post.excerpt.trim() !== '') return trimWords(post.excerpt.replace(BLOCK_END, '$& '), Number.MAX_SAFE_INTEGER, '');
  return trimWords(post.content.replace(BLOCK_END, '$& '), 55, '…');
}

/** The featured image: full size, with the thumbnail's URL when that size exists; null when there is none. */
function imageOf(media: MediaLibrary, images: ReadonlyMap<number, AttachmentRecord>, id: number): Record<string, unknown> | null {
  const record = id ? images.get(id) : undefined;
  if (!record) return null;
  const full = media.downsize(record, 'full');
  const thumbnail = media.downsize(record, 'thumbnail');
  return {
    id: record.id,
    url: full?.url ?? media.url(record),
    width: full?.width ?? null,
    height: full?.height ?? null,
    alt: record.altText,
    thumbnail: thumbnail?.url ?? media.url(record),
  };
}

function categoriesOf(ids: readonly number[], terms: ReadonlyMap<number, TermRecord>): Array<{ id: number; name: string; slug: string }> {
  return ids.flatMap((id) => {
    const term = terms.get(id);
    return term ? [{ id: term.id, name: term.name, slug: term.slug }] : [];
  });
}

/** The fields every summary shares, in this order. */
function summary(s: Serializer, post: PostRecord, base: string | null, categoryIds: readonly number[], related: Related): Record<string, unknown> {
  return {
    id: post.id,
    title: renderTitle(post.title),
    slug: post.slug,
    date: restDate(post.date),
    link: contentLink(post, s.settings, base),
    excerpt: excerptOf(post),
    image: imageOf(s.media, related.images, post.imageId),
    categories: categoriesOf(categoryIds, related.terms),
  };
}

const articleBase = (type: string) => (type === POST_TYPE ? null : type);

export function articleSummary(s: Serializer, record: ContentRecord, related: Related): Record<string, unknown> {
  return summary(s, record, articleBase(record.type), record.categoryIds, related);
}

/** The single article: the summary plus its type, modification date, author and rendered content. */
export function articleDetail(s: Serializer, record: ContentRecord, related: Related, author: string): Record<string, unknown> {
  return {
    ...articleSummary(s, record, related),
    type: record.type,
    modified: restDate(record.modified),
    author,
    content: renderContent(record.content),
  };
}

export function videoSummary(s: Serializer, record: ContentRecord, related: Related): Record<string, unknown> {
  return { ...summary(s, record, VIDEO_TYPE, record.categoryIds, related), video_url: record.videoUrl };
}

/** An event: the summary plus its start and end (event-local wall clock), all-day flag and venue. */
export function eventSummary(s: Serializer, record: EventRecord, related: Related): Record<string, unknown> {
  const venue = record.venueIds.map((id) => related.venues?.get(id)).find((v) => v !== undefined && v.status === 'publish');
  return {
    ...summary(s, record, s.eventBase, record.categoryIds, related),
    start_date: restDate(record.startDate),
    end_date: restDate(record.endDate),
    all_day: record.allDay,
    venue: venue ? { id: venue.id, name: renderTitle(venue.title) } : null,
  };
}
