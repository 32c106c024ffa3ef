import type { ArgSpec, ArgValidator } from '../../args/spec.js';
import { ApiError } from '../../http/api-error.js';
import { isPlainObject } from '../../http/php.js';
import { MAX_TEXT } from './constants.js';

const CONTEXTS = ['view', 'embed', 'edit'];

export const contextArg = (defaultValue = 'view'): ArgSpec => ({
  description: 'Scope under which the request is made; determines fields present in response.',
  type: 'string',
  enum: CONTEXTS,
  default: defaultValue,
});

export const idArg: ArgSpec = { description: 'Unique identifier for the post.', type: 'integer' };

/**
 * Title, caption and description come as a string or as `{ raw }` (WordPress skips schema validation for
 * them); either way a string, and bounded.
 */
export const rawOrString: ArgValidator = (value, { param }) => {
  const text = isPlainObject(value) ? value.raw : value;
  if (text === undefined && isPlainObject(value)) return true;
  if (typeof text !== 'string') return ApiError.detail('rest_invalid_type', `${param} is not of type string.`, { param });
  if (text.length > MAX_TEXT) return ApiError.detail('rest_too_long', `${param} must be at most ${MAX_TEXT} characters long.`, { param });
  return true;
};

/** The text a title / caption / description arg carries, or undefined when it names none. */
export function rawText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isPlainObject(value) && typeof value.raw === 'string') return value.raw;
  return undefined;
}

/**
 * Bounds list and string sizes before any work (WordPress has no such bounds; the index keeps showing
 * WordPress's own arg objects, so the bound lives in a validate callback).
 */
const bounded =
  (maxItems: number, maxLength = 1000): ArgValidator =>
  (value, { param }) => {
    const items = Array.isArray(value) ? value : typeof value === 'string' && maxItems > 1 ? value.split(/[\s,]+/) : isPlainObject(value) ? Object.values(value) : [value];
    if (items.length > maxItems) return ApiError.detail('rest_too_many_items', `${param} must contain at most ${maxItems} items.`, { param });
    if (items.some((item) => typeof item === 'string' && item.length > maxLength)) {
      return ApiError.detail('rest_too_long', `${param} must be at most ${maxLength} characters long.`, { param });
    }
    return true;
  };

const ids = (description: string): ArgSpec => ({ description, type: 'array', items: { type: 'integer' }, default: [], validate: bounded(100) });

/** The attachments collection's parameters (WordPress 7.0, `get_collection_params`), in WordPress's order. */
export const listArgs: Record<string, ArgSpec> = {
  context: contextArg(),
  page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
  per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
  search: { description: 'Limit results to those matching a string.', type: 'string', validate: bounded(1) },
  after: { description: 'Limit response to posts published after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  modified_after: { description: 'Limit response to posts modified after a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  author: ids('Limit result set to posts assigned to specific authors.'),
  author_exclude: ids('Ensure result set excludes posts assigned to specific authors.'),
  before: { description: 'Limit response to posts published before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  modified_before: { description: 'Limit response to posts modified before a given ISO8601 compliant date.', type: 'string', format: 'date-time' },
  exclude: ids('Ensure result set excludes specific IDs.'),
  include: ids('Limit result set to specific IDs.'),
  search_semantics: { description: 'How to interpret the search input.', type: 'string', enum: ['exact'] },
  offset: { description: 'Offset the result set by a specific number of items.', type: 'integer' },
  order: { description: 'Order sort attribute ascending or descending.', type: 'string', default: 'desc', enum: ['asc', 'desc'] },
  orderby: {
    description: 'Sort collection by post attribute.',
    type: 'string',
    default: 'date',
    enum: ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'],
  },
  parent: ids('Limit result set to items with particular parent IDs.'),
  parent_exclude: ids('Limit result set to all items except those of a particular parent ID.'),
  search_columns: {
    validate: bounded(3),
    default: [],
    description: 'Array of column names to be searched.',
    type: 'array',
    items: { enum: ['post_title', 'post_content', 'post_excerpt'], type: 'string' },
  },
  slug: { description: 'Limit result set to posts with one or more specific slugs.', type: 'array', items: { type: 'string' }, validate: bounded(100, 200) },
  status: {
    default: 'inherit',
    description: 'Limit result set to posts assigned one or more statuses.',
    type: 'array',
    items: { enum: ['inherit', 'private', 'trash'], type: 'string' },
  },
  media_type: {
    default: null,
    description: 'Limit result set to attachments of a particular media type or media types.',
    type: 'array',
    items: { type: 'string', enum: ['image', 'video', 'text', 'application', 'audio'] },
  },
  mime_type: {
    default: null,
    description: 'Limit result set to attachments of a particular MIME type or MIME types.',
    type: 'array',
    items: { type: 'string' },
    validate: bounded(20, 100),
  },
};

/** Writable fields of an attachment (get_endpoint_args_for_item_schema), in schema order. */
export function itemArgs(): Record<string, ArgSpec> {
  return {
    date: { description: "The date the post was published, in the site's timezone.", type: ['string', 'null'], format: 'date-time' },
    date_gmt: { description: 'The date the post was published, as GMT.', type: ['string', 'null'], format: 'date-time' },
    slug: { description: 'An alphanumeric identifier for the post unique to its type.', type: 'string', validate: bounded(1, 200) },
    status: { description: 'A named status for the post.', type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private'] },
    title: {
      description: 'The title for the post.',
      type: 'object',
      properties: {
        raw: { description: 'Title for the post, as it exists in the database.', type: 'string', context: ['edit'] },
        rendered: { description: 'HTML title for the post, transformed for display.', type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
      },
      validate: rawOrString,
      sanitize: false,
    },
    author: { description: 'The ID for the author of the post.', type: 'integer' },
    featured_media: { description: 'The ID of the featured media for the post.', type: 'integer' },
    comment_status: { description: 'Whether or not comments are open on the post.', type: 'string', enum: ['open', 'closed'] },
    ping_status: { description: 'Whether or not the post can be pinged.', type: 'string', enum: ['open', 'closed'] },
    meta: { description: 'Meta fields.', type: 'object', properties: {}, validate: bounded(100) },
    template: { description: 'The theme file to use to display the post.', type: 'string', validate: bounded(1, 200) },
    alt_text: { description: 'Alternative text to display when attachment is not displayed.', type: 'string', validate: bounded(1, MAX_TEXT) },
    caption: {
      description: 'The attachment caption.',
      type: 'object',
      properties: {
        raw: { description: 'Caption for the attachment, as it exists in the database.', type: 'string', context: ['edit'] },
        rendered: { description: 'HTML caption for the attachment, transformed for display.', type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
      },
      validate: rawOrString,
      sanitize: false,
    },
    description: {
      description: 'The attachment description.',
      type: 'object',
      properties: {
        raw: { description: 'Description for the attachment, as it exists in the database.', type: 'string', context: ['edit'] },
        rendered: { description: 'HTML description for the attachment, transformed for display.', type: 'string', context: ['view', 'edit'], readonly: true },
      },
      validate: rawOrString,
      sanitize: false,
    },
    post: { description: 'The ID for the associated post of the attachment.', type: 'integer' },
  };
}
