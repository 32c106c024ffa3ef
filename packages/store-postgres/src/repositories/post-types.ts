import { calendar } from '@siterest/core';
import type { Tables } from '../tables.js';
import { col, type Column } from './columns.js';

/** Fields every post-like record keeps in `posts`. */
export const POST_COLUMNS: readonly Column[] = [
  col('id', 'id', 'bigint'),
  col('type', 'type', 'text'),
  col('status', 'status', 'text'),
  col('authorId', 'author_id', 'bigint'),
  col('title', 'title', 'text'),
  col('content', 'content', 'text'),
  col('excerpt', 'excerpt', 'text'),
  col('slug', 'slug', 'text'),
  col('password', 'password', 'text'),
  col('parentId', 'parent_id', 'bigint'),
  col('menuOrder', 'menu_order', 'integer'),
  col('date', 'post_date', 'text'),
  col('dateGmt', 'post_date_gmt', 'text'),
  col('modified', 'post_modified', 'text'),
  col('modifiedGmt', 'post_modified_gmt', 'text'),
  col('trashedFrom', 'trashed_from', 'text'),
  col('imageId', 'image_id', 'bigint'),
];

/** A post type: its own table keyed by post id, and the columns there. */
export interface PostType {
  readonly type: string;
  readonly table: (t: Tables) => string;
  readonly columns: readonly Column[];
}

export const EVENT: PostType = {
  type: calendar.EVENT_TYPE,
  table: (t) => t.events,
  columns: [
    col('status', 'status', 'text', true),
    col('startDate', 'start_local', 'text'),
    col('endDate', 'end_local', 'text'),
    col('startDateUtc', 'start_utc', 'utc'),
    col('endDateUtc', 'end_utc', 'utc'),
    col('timezone', 'timezone', 'text'),
    col('allDay', 'all_day', 'boolean'),
    col('cost', 'cost', 'texts'),
    col('currencySymbol', 'currency_symbol', 'text'),
    col('currencyCode', 'currency_code', 'text'),
    col('currencyPosition', 'currency_position', 'text'),
    col('website', 'website', 'text'),
    col('showMap', 'show_map', 'boolean'),
    col('showMapLink', 'show_map_link', 'boolean'),
    col('hideFromListings', 'hide_from_listings', 'boolean'),
    col('featured', 'featured', 'boolean'),
    col('venueIds', 'venue_ids', 'bigints'),
    col('organizerIds', 'organizer_ids', 'bigints'),
  ],
};

export const VENUE: PostType = {
  type: calendar.VENUE_TYPE,
  table: (t) => t.venues,
  columns: [
    col('address', 'address', 'text'),
    col('city', 'city', 'text'),
    col('country', 'country', 'text'),
    col('province', 'province', 'text'),
    col('state', 'state', 'text'),
    col('zip', 'zip', 'text'),
    col('phone', 'phone', 'text'),
    col('website', 'website', 'text'),
    col('stateProvince', 'state_province', 'text'),
    col('showMap', 'show_map', 'boolean'),
    col('showMapLink', 'show_map_link', 'boolean'),
    col('geoLat', 'geo_lat', 'float'),
    col('geoLng', 'geo_lng', 'float'),
  ],
};

export const ORGANIZER: PostType = {
  type: calendar.ORGANIZER_TYPE,
  table: (t) => t.organizers,
  columns: [col('phone', 'phone', 'text'), col('website', 'website', 'text'), col('email', 'email', 'text')],
};

/** Columns searched for venues and organizers: the post's text and their own details. */
export const VENUE_SEARCH = ['p.title', 'p.content', 'p.excerpt', 'x.address', 'x.city', 'x.country', 'x.province', 'x.state', 'x.state_province', 'x.zip', 'x.phone', 'x.website'];
export const ORGANIZER_SEARCH = ['p.title', 'p.content', 'p.excerpt', 'x.phone', 'x.website', 'x.email'];
