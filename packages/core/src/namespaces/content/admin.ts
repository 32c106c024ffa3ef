import { siteZone } from '../../settings.js';
import type { SiteStore } from '../../store/repositories.js';
import type { Site } from '../../site.js';
import type { ContentPatch, ContentRecord, NewContent } from '../../store/content.js';
import type { StatusFilter } from '../../store/queries.js';
import type { Page, TermRecord } from '../../store/records.js';
import { sanitizeTitle } from '../../text/sanitize.js';
import { formatWpDate, parseWpDate, WP_FORMAT } from '../../time.js';
import { ARTICLE_CATEGORY_TAXONOMY, NEWS_TYPE, POST_TYPE_KEY, VIDEO_CATEGORY_TAXONOMY, VIDEO_TYPE } from './constants.js';

/** Search-optimisation meta of a record (Yoast SEO's post meta). */
export interface SeoMetaInput {
  /** The focus keyphrase; `""` removes it. */
  focusKeyphrase?: string;
  /** The SEO score, a whole number from 0 (none) to 100. */
  score?: number;
  /** Keep the record out of search results. */
  noindex?: boolean;
}

type ContentStatus = 'publish' | 'draft' | 'pending' | 'private' | 'future' | 'trash';

export interface NewArticleInput {
  title: string;
  /** Any post type key (default `news`); the `articles` route lists the types the namespace was given. */
  type?: string;
  content?: string;
  excerpt?: string;
  status?: ContentStatus;
  slug?: string;
  authorId?: number;
  /** Site-local publication date, `YYYY-MM-DD HH:MM:SS` (default: now). */
  date?: string;
  password?: string;
  /** Featured image: an attachment id. */
  imageId?: number;
  /** Category ids, or names (found, or created, in the type's category taxonomy). */
  categories?: ReadonlyArray<number | string>;
  seo?: SeoMetaInput;
}

export interface NewVideoInput extends Omit<NewArticleInput, 'type'> {
  videoUrl: string;
}

export type ContentUpdate = Partial<Omit<NewArticleInput, 'type'>> & { videoUrl?: string };

/** The library side of `rest/v1`'s content: articles of any post type and videos, with their categories and SEO meta. */
export interface ContentAdmin {
  createArticle(input: NewArticleInput): Promise<ContentRecord>;
  createVideo(input: NewVideoInput): Promise<ContentRecord>;
  get(id: number): Promise<ContentRecord | null>;
  list(query?: { types?: readonly string[]; statuses?: StatusFilter; offset?: number; limit?: number }): Promise<Page<ContentRecord>>;
  update(id: number, patch: ContentUpdate): Promise<ContentRecord | null>;
  setSeoMeta(id: number, meta: SeoMetaInput): Promise<ContentRecord | null>;
  delete(id: number): Promise<boolean>;
  /** A category of articles (`category`) or videos (`video_category`): found by name, or created. */
  category(name: string, options?: { taxonomy?: 'category' | 'video_category'; parentId?: number }): Promise<TermRecord>;
}

const STATUSES = new Set<string>(['publish', 'draft', 'pending', 'private', 'future', 'trash']);
const MAX_TITLE = 10_000;
const MAX_TEXT = 4 * 1024 * 1024;
/** Statuses whose slugs are unique within their type (WordPress leaves drafts alone). */
const DRAFTS = new Set(['draft', 'pending', 'auto-draft', 'trash']);

function text(value: unknown, name: string, max: number): string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string.`);
  if (value.length > max) throw new RangeError(`${name} is longer than ${max} characters.`);
  return value;
}

function seoFields(meta: SeoMetaInput | undefined): Partial<Pick<ContentRecord, 'focusKeyphrase' | 'seoScore' | 'noindex'>> {
  const out: Partial<Pick<ContentRecord, 'focusKeyphrase' | 'seoScore' | 'noindex'>> = {};
  if (!meta) return out;
  if (meta.focusKeyphrase !== undefined) out.focusKeyphrase = text(meta.focusKeyphrase, 'focusKeyphrase', 1000).trim();
  if (meta.score !== undefined) {
    if (!Number.isInteger(meta.score) || meta.score < 0 || meta.score > 100) throw new RangeError('score must be a whole number from 0 to 100.');
    out.seoScore = meta.score;
  }
  if (meta.noindex !== undefined) out.noindex = meta.noindex === true;
  return out;
}

export function content(site: Site): ContentAdmin {
  const store = () => site.store;
  const zone = () => siteZone(site.settings);

  const dates = (local?: string) => {
    const now = site.now();
    const modified = { modified: formatWpDate(now, zone()), modifiedGmt: formatWpDate(now, 'UTC') };
    if (local === undefined) return { date: modified.modified, dateGmt: modified.modifiedGmt, ...modified };
    const parsed = parseWpDate(text(local, 'date', 19), zone());
    if (!parsed) throw new RangeError('date must be YYYY-MM-DD HH:MM:SS.');
    return { date: parsed.toFormat(WP_FORMAT), dateGmt: parsed.toUTC().toFormat(WP_FORMAT), ...modified };
  };

  /** The slug WordPress would give: the wanted one, or `-2`, `-3`… when another record of the type has it. */
  const uniqueSlug = async (within: SiteStore, type: string, wanted: string, status: string, exceptId?: number) => {
    const base = sanitizeTitle(wanted).slice(0, 190) || 'untitled';
    if (DRAFTS.has(status)) return base;
    for (let n = 1; n < 1000; n++) {
      const slug = n === 1 ? base : `${base}-${n}`;
      if (!(await within.posts.slugTaken(type, slug, exceptId))) return slug;
    }
    return `${base}-${site.now()}`;
  };

  const category = async (name: string, options: { taxonomy?: 'category' | 'video_category'; parentId?: number } = {}) => {
    await site.ready();
    const taxonomy = options.taxonomy ?? ARTICLE_CATEGORY_TAXONOMY;
    const clean = text(name, 'name', 200).trim();
    if (!clean) throw new RangeError('A category needs a name.');
    // In one transaction: the lookups take the taxonomy's naming lock, so concurrent calls (any instance) with one
    // name find the term the first one made instead of making another.
    return store().transaction(async (tx) => {
      const [found] = await tx.terms.findByName(taxonomy, clean, options.parentId);
      if (found) return found;
      const slug = sanitizeTitle(clean) || 'category';
      const bySlug = await tx.terms.findBySlug(taxonomy, slug);
      return tx.terms.create({ taxonomy, name: clean, slug: bySlug ? `${slug}-${site.now()}` : slug, description: '', parentId: options.parentId ?? 0 });
    });
  };

  const categoryIds = async (values: ReadonlyArray<number | string> | undefined, taxonomy: 'category' | 'video_category') => {
    if (!values) return undefined;
    if (values.length > 100) throw new RangeError('At most 100 categories.');
    const ids: number[] = [];
    for (const value of values) {
      const id = typeof value === 'number' ? value : (await category(value, { taxonomy })).id;
      const term = await store().terms.get(id);
      if (!term || term.taxonomy !== taxonomy) throw new RangeError(`${value} is not a ${taxonomy} term.`);
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  };

  const create = async (input: NewArticleInput, type: string, videoUrl: string) => {
    await site.ready();
    if (!POST_TYPE_KEY.test(type)) throw new RangeError(`"${type}" is not a post type key.`);
    const status = input.status ?? 'publish';
    if (!STATUSES.has(status)) throw new RangeError(`Unknown status "${status}".`);
    const title = text(input.title, 'title', MAX_TITLE);
    const record: NewContent = {
      type,
      status,
      authorId: input.authorId ?? 0,
      title,
      content: input.content === undefined ? '' : text(input.content, 'content', MAX_TEXT),
      excerpt: input.excerpt === undefined ? '' : text(input.excerpt, 'excerpt', MAX_TEXT),
      slug: '',
      password: input.password === undefined ? '' : text(input.password, 'password', 255),
      parentId: 0,
      menuOrder: 0,
      ...dates(input.date),
      trashedFrom: null,
      imageId: input.imageId ?? 0,
      categoryIds: (await categoryIds(input.categories, type === VIDEO_TYPE ? VIDEO_CATEGORY_TAXONOMY : ARTICLE_CATEGORY_TAXONOMY)) ?? [],
      videoUrl,
      focusKeyphrase: '',
      seoScore: 0,
      noindex: false,
      linkCount: null,
      ...seoFields(input.seo),
    };
    // The slug is chosen and written in one transaction: its lookups take the post type's naming lock, so
    // concurrent creates (on any instance) get -2, -3… one after another; the unique index backs this up.
    return store().transaction(async (tx) => {
      record.slug = await uniqueSlug(tx, type, input.slug ?? title, status);
      return tx.content.create(record);
    });
  };

  const update = async (id: number, patch: ContentUpdate) => {
    await site.ready();
    const current = await store().content.get(id);
    if (!current) return null;
    const out: ContentPatch = { ...seoFields(patch.seo) };
    const { modified, modifiedGmt } = dates();
    Object.assign(out, { modified, modifiedGmt });
    if (patch.date !== undefined) Object.assign(out, (({ date, dateGmt }) => ({ date, dateGmt }))(dates(patch.date)));
    if (patch.title !== undefined) out.title = text(patch.title, 'title', MAX_TITLE);
    if (patch.content !== undefined) {
      out.content = text(patch.content, 'content', MAX_TEXT);
      // Links are counted again by the next reindex.
      if (out.content !== current.content) out.linkCount = null;
    }
    if (patch.excerpt !== undefined) out.excerpt = text(patch.excerpt, 'excerpt', MAX_TEXT);
    if (patch.password !== undefined) out.password = text(patch.password, 'password', 255);
    if (patch.imageId !== undefined) out.imageId = patch.imageId;
    if (patch.videoUrl !== undefined) out.videoUrl = text(patch.videoUrl, 'videoUrl', 2048);
    if (patch.authorId !== undefined) out.authorId = patch.authorId;
    if (patch.status !== undefined) {
      if (!STATUSES.has(patch.status)) throw new RangeError(`Unknown status "${patch.status}".`);
      out.status = patch.status;
    }
    const status = out.status ?? current.status;
    const ids = await categoryIds(patch.categories, current.type === VIDEO_TYPE ? VIDEO_CATEGORY_TAXONOMY : ARTICLE_CATEGORY_TAXONOMY);
    if (ids) out.categoryIds = ids;
    const newSlug = patch.slug !== undefined || (DRAFTS.has(current.status) && !DRAFTS.has(status));
    if (!newSlug) return store().content.update(id, out);
    return store().transaction(async (tx) => {
      out.slug = await uniqueSlug(tx, current.type, patch.slug ?? current.slug ?? current.title, status, id);
      return tx.content.update(id, out);
    });
  };

  return {
    createArticle: (input) => create(input, input.type ?? NEWS_TYPE, ''),
    createVideo: (input) => create(input, VIDEO_TYPE, text(input.videoUrl, 'videoUrl', 2048)),
    get: async (id) => (await site.ready(), store().content.get(id)),
    list: async (query = {}) => {
      await site.ready();
      return store().content.list({
        types: query.types ?? [NEWS_TYPE],
        statuses: query.statuses ?? 'any',
        offset: Math.max(0, query.offset ?? 0),
        limit: Math.min(Math.max(1, query.limit ?? 50), 1000),
      });
    },
    update,
    // Meta changes leave the record's modification date alone, as WordPress's post meta does.
    setSeoMeta: async (id, meta) => (await site.ready(), store().content.update(id, seoFields(meta))),
    delete: async (id) => (await site.ready(), store().content.delete(id)),
    category,
  };
}
