/*
 * The documentation of every calendar route and method for the OpenAPI document (`GET /doc`): the responses
 * TEC 6.17.2 documents, word for word, and the few hints the args cannot give (`style: form` on the CSV list
 * filters of `/events`, `boolean` for the untyped `has_events`, TEC's own description of the by-slug
 * parameter, the id or slug TEC repeats in some request bodies). Parameters and request bodies are derived from
 * the routes' args by registry/openapi.ts.
 *
 * A route file attaches them to its endpoint definitions: `{ methods: READABLE, args, handler, doc: docs.event.get }`.
 *
 * The create operations of the archive routes (`POST /events`, `/venues`, `/organizers`, `/categories`,
 * `/tags`) are not in TEC's document (it documents creation under the single routes, hence the 201 there);
 * theirs are written here with TEC's wording so the document covers every route siterest serves.
 */
import type { OpenApiOperationDoc } from '../../../registry/openapi.js';

type Responses = Record<string, Record<string, unknown>>;

function plain(description: string): Record<string, unknown> {
  return { description };
}

function one(description: string, schema: string): Record<string, unknown> {
  return { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } };
}

function list(description: string, title: string, schema: string): Record<string, unknown> {
  return {
    description,
    content: {
      'application/json': { schema: { title, type: 'array', items: { $ref: `#/components/schemas/${schema}` } } },
    },
  };
}

const BAD_QUERY = 'One or more of the specified query variables has a bad format';
const PAGE_NOT_FOUND = 'The requested page was not found.';
const BAD_INPUT = 'A required parameter is missing or an input parameter is in the wrong format';

/** TEC's `style: form` on the comma-separated list filters of `/events` (its `collectionFormat: csv`). */
const csv = (name: string) => ({ name, style: 'form' });

function createResponses(label: string, plural: string, schema: string): Responses {
  return {
    '201': one(`Returns the data of the created ${label}`, schema),
    '400': plain(BAD_INPUT),
    '403': plain(`The user is not authorized to create ${plural}`),
  };
}

/** Post-like types (event, venue, organizer): `a`/`an` and the not-found wording differ, as in TEC. */
function postDocs(options: {
  label: string;
  article: string;
  plural: string;
  schema: string;
  notFound: string;
  updated: boolean;
  /** TEC's event archive says "all the upcoming events". */
  archiveAdjective?: string;
}) {
  const { label, article, plural, schema } = options;
  const get: OpenApiOperationDoc = {
    responses: {
      '200': one(`Returns the data of the ${label} with the specified post ID`, schema),
      '400': plain(`The ${label} post ID is missing.`),
      '403': plain(`The ${label} with the specified ID is not accessible.`),
      '404': plain(options.notFound),
    },
  };
  const create = createResponses(label, plural, schema);
  const post: OpenApiOperationDoc = {
    responses: options.updated
      ? { '200': one(`Returns the data of the updated ${label}`, schema), ...create }
      : create,
  };
  const remove: OpenApiOperationDoc = {
    responses: {
      '200': one(`Deletes ${article} ${label} and returns its data`, schema),
      '400': plain(`The ${label} post ID is missing or does not exist.`),
      '403': plain(`The current user cannot delete the ${label} with the specified ID.`),
      '410': plain(`The ${label} with the specified ID has been deleted already.`),
      '500': plain(`The ${label} with the specified ID could not be deleted.`),
    },
  };
  const archive: OpenApiOperationDoc = {
    responses: {
      '200': list(`Returns all the ${options.archiveAdjective ?? ''}${plural} matching the search criteria`, plural, schema),
      '400': plain(BAD_QUERY),
      '404': plain(PAGE_NOT_FOUND),
    },
  };
  return { archive, create: { responses: create } as OpenApiOperationDoc, get, post, remove };
}

/** Term routes: the same texts for event categories and event tags. */
function termDocs(options: { label: string; plural: string; restBase: string; archiveNotFound: string; bodyIncludesPath: boolean }) {
  const { label, plural } = options;
  const create = createResponses(label, plural, 'Term');
  return {
    list: {
      get: {
        responses: {
          '200': list(`Returns all the ${plural} matching the search criteria`, options.restBase, 'Term'),
          '400': plain(BAD_QUERY),
          '404': plain(options.archiveNotFound),
        },
      } satisfies OpenApiOperationDoc,
      post: { responses: create } satisfies OpenApiOperationDoc,
    },
    item: {
      get: {
        responses: {
          '200': one(`Returns the data of the ${label} with the specified term ID`, 'Term'),
          '400': plain(`The ${label} term ID is missing.`),
          '404': plain(`An ${label} with the specified term ID does not exist.`),
        },
      } satisfies OpenApiOperationDoc,
      post: {
        responses: { '200': one(`Returns the data of the updated ${label}`, 'Term'), ...create },
        ...(options.bodyIncludesPath ? { bodyIncludesPath: true } : {}),
      } satisfies OpenApiOperationDoc,
      delete: {
        responses: {
          '200': one(`Deletes an ${label} and returns its data`, 'Term'),
          '400': plain(`The ${label} term ID is missing or does not exist.`),
          '403': plain(`The current user cannot delete the ${label} with the specified term ID.`),
          '410': plain(`The ${label} with the specified term ID has been deleted already.`),
          '500': plain(`The ${label} with the specified term ID could not be deleted.`),
        },
      } satisfies OpenApiOperationDoc,
    },
  };
}

const event = postDocs({
  label: 'event',
  article: 'an',
  plural: 'events',
  schema: 'Event',
  notFound: 'An event with the specified ID does not exist.',
  updated: true,
  archiveAdjective: 'upcoming ',
});
const venue = postDocs({
  label: 'venue',
  article: 'a',
  plural: 'venues',
  schema: 'Venue',
  notFound: 'A venue with the specified post ID does not exist.',
  updated: true,
});
// TEC documents an organizer update with the 201 of a creation only.
const organizer = postDocs({
  label: 'organizer',
  article: 'an',
  plural: 'organizers',
  schema: 'Organizer',
  notFound: 'An organizer with the specified event does not exist.',
  updated: false,
});
const category = termDocs({
  label: 'event category',
  plural: 'event categories',
  restBase: 'categories',
  archiveNotFound: PAGE_NOT_FOUND,
  bodyIncludesPath: true,
});
const tag = termDocs({
  label: 'event tag',
  plural: 'event tags',
  restBase: 'tags',
  archiveNotFound: 'No event tags match the query or the requested page was not found.',
  bodyIncludesPath: false,
});

/** The untyped `has_events` filter, documented boolean by TEC. */
const hasEvents = { name: 'has_events', schema: { type: 'boolean' } };

/** `doc` objects for every calendar endpoint, by route (`event` = `/events/{id}`) and OpenAPI operation. */
export const docs = {
  doc: {
    get: {
      responses: {
        '200': plain('Returns the documentation for The Events Calendar REST API in Swagger consumable format.'),
      },
    } satisfies OpenApiOperationDoc,
  },
  events: {
    get: {
      ...event.archive,
      parameters: [csv('categories'), csv('tags'), csv('venue'), csv('organizer'), csv('include')],
    } satisfies OpenApiOperationDoc,
    post: event.create,
  },
  event: { get: event.get, post: event.post, delete: event.remove },
  eventBySlug: {
    get: event.get,
    post: { ...event.post, parameters: [{ name: 'slug', description: 'the event post name' }] } satisfies OpenApiOperationDoc,
    delete: event.remove,
  },
  venues: { get: { ...venue.archive, parameters: [hasEvents] } satisfies OpenApiOperationDoc, post: venue.create },
  venue: { get: venue.get, post: venue.post, delete: venue.remove },
  venueBySlug: { get: venue.get, post: venue.post, delete: venue.remove },
  organizers: { get: { ...organizer.archive, parameters: [hasEvents] } satisfies OpenApiOperationDoc, post: organizer.create },
  organizer: {
    get: organizer.get,
    post: { ...organizer.post, bodyIncludesPath: true } satisfies OpenApiOperationDoc,
    delete: organizer.remove,
  },
  organizerBySlug: {
    get: organizer.get,
    post: { ...organizer.post, bodyIncludesPath: true } satisfies OpenApiOperationDoc,
    delete: organizer.remove,
  },
  categories: category.list,
  category: category.item,
  tags: tag.list,
  tag: tag.item,
};

/** The docs of a term taxonomy's two routes, by its REST base (`categories` or `tags`). */
export function termRouteDocs(restBase: string): { list: typeof docs.categories; item: typeof docs.category } {
  if (restBase === 'categories') return { list: docs.categories, item: docs.category };
  if (restBase === 'tags') return { list: docs.tags, item: docs.tag };
  throw new Error(`No documentation for the term routes "/${restBase}".`);
}

interface PostRouteDocs {
  list: OpenApiOperationDoc;
  create: OpenApiOperationDoc;
  read: OpenApiOperationDoc;
  update: OpenApiOperationDoc;
  remove: OpenApiOperationDoc;
  readBySlug: OpenApiOperationDoc;
  updateBySlug: OpenApiOperationDoc;
  removeBySlug: OpenApiOperationDoc;
}

type Get = { get: OpenApiOperationDoc };
type GetPost = Get & { post: OpenApiOperationDoc };
type GetPostDelete = GetPost & { delete: OpenApiOperationDoc };

function postRouteDocs(archive: GetPost, single: GetPostDelete, bySlug: GetPostDelete): PostRouteDocs {
  return {
    list: archive.get,
    create: archive.post,
    read: single.get,
    update: single.post,
    remove: single.delete,
    readBySlug: bySlug.get,
    updateBySlug: bySlug.post,
    removeBySlug: bySlug.delete,
  };
}

/** The docs in the shape `eventRoutes(docs)` and `linkedRoutes(kind, docs)` take. */
export const eventRouteDocs = postRouteDocs(docs.events, docs.event, docs.eventBySlug);
export const venueRouteDocs = postRouteDocs(docs.venues, docs.venue, docs.venueBySlug);
export const organizerRouteDocs = postRouteDocs(docs.organizers, docs.organizer, docs.organizerBySlug);
