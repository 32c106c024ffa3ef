import type { ArgSchema, ArgSpec, ArgValidator } from '../../args/spec.js';
import { ApiError } from '../../http/api-error.js';
import { contextArg, idArg, rawOrString } from '../media/args.js';

/** Passwords and slugs are short; they are bounded before any work (WordPress bounds only the password, to 255). */
const shortText =
  (max: number): ArgValidator =>
  (value, { param }) =>
    typeof value === 'string' && value.length > max ? ApiError.detail('rest_too_long', `${param} must be at most ${max} characters long.`, { param }) : true;

const rendered = (what: string, contexts: string[]): ArgSchema & { required?: boolean } => ({ description: `HTML ${what} for the post, transformed for display.`, type: 'string' as const, context: contexts, readonly: true });

/** `GET wp/v2/<type>/<id>` (the posts controller's item args), in WordPress's order. */
export const readArgs: Record<string, ArgSpec> = {
  id: idArg,
  context: contextArg(),
  excerpt_length: { description: 'Override the default excerpt length.', type: 'integer' },
  password: { description: 'The password for the post if it is password protected.', type: 'string', validate: shortText(255) },
};

/**
 * The fields TEC clients set through `POST wp/v2/<type>/<id>` (get_endpoint_args_for_item_schema, those
 * siterest serves), in WordPress's order and with its descriptions.
 */
export const updateArgs: Record<string, ArgSpec> = {
  id: idArg,
  date: { description: "The date the post was published, in the site's timezone.", type: ['string', 'null'], format: 'date-time' },
  date_gmt: { description: 'The date the post was published, as GMT.', type: ['string', 'null'], format: 'date-time' },
  slug: { description: 'An alphanumeric identifier for the post unique to its type.', type: 'string', validate: shortText(200) },
  status: { description: 'A named status for the post.', type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private'] },
  password: { description: 'A password to protect access to the content and excerpt.', type: 'string', validate: shortText(255) },
  title: {
    description: 'The title for the post.',
    type: 'object',
    properties: {
      raw: { description: 'Title for the post, as it exists in the database.', type: 'string', context: ['edit'] },
      rendered: rendered('title', ['view', 'edit', 'embed']),
    },
    validate: rawOrString,
    sanitize: false,
  },
  content: {
    description: 'The content for the post.',
    type: 'object',
    properties: {
      raw: { description: 'Content for the post, as it exists in the database.', type: 'string', context: ['edit'] },
      rendered: rendered('content', ['view', 'edit']),
      block_version: { description: 'Version of the content block format used by the post.', type: 'integer', context: ['edit'], readonly: true },
      protected: { description: 'Whether the content is protected with a password.', type: 'boolean', context: ['view', 'edit', 'embed'], readonly: true },
    },
    validate: rawOrString,
    sanitize: false,
  },
  excerpt: {
    description: 'The excerpt for the post.',
    type: 'object',
    properties: {
      raw: { description: 'Excerpt for the post, as it exists in the database.', type: 'string', context: ['edit'] },
      rendered: rendered('excerpt', ['view', 'edit', 'embed']),
      protected: { description: 'Whether the excerpt is protected with a password.', type: 'boolean', context: ['view', 'edit', 'embed'], readonly: true },
    },
    validate: rawOrString,
    sanitize: false,
  },
  featured_media: { description: 'The ID of the featured media for the post.', type: 'integer' },
};
