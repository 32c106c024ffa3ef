/**
 * What the stores persist. Records mirror WordPress's data model closely enough that every wire field can be
 * derived from them, but they are typed per kind instead of being a bag of post meta.
 */

/** WordPress date-time strings, `YYYY-MM-DD HH:MM:SS`; `0000-00-00 00:00:00` where WordPress leaves one unset. */
export type WpDateTime = string;

export const ZERO_DATE: WpDateTime = '0000-00-00 00:00:00';

/** Fields every post-like record has (events, venues, organizers and later articles, forms, popups…). */
export interface PostRecord {
  id: number;
  type: string;
  status: string;
  authorId: number;
  title: string;
  content: string;
  excerpt: string;
  /** `post_name`; empty for drafts that never had one. */
  slug: string;
  password: string;
  parentId: number;
  menuOrder: number;
  /** Site-local publication date. */
  date: WpDateTime;
  dateGmt: WpDateTime;
  modified: WpDateTime;
  modifiedGmt: WpDateTime;
  /** The status before trashing (WordPress `_wp_trash_meta_status`), so trashed posts keep their permissions. */
  trashedFrom: string | null;
  /** Featured image attachment id, 0 for none. */
  imageId: number;
}

export type NewPost = Omit<PostRecord, 'id'>;

export interface EventFields {
  /** Event-local wall clock. */
  startDate: WpDateTime;
  endDate: WpDateTime;
  startDateUtc: WpDateTime;
  endDateUtc: WpDateTime;
  /** Time zone id (`America/New_York`), `UTC+2` style offset, or `""`. */
  timezone: string;
  allDay: boolean;
  /** The cost as entered: one row per value given (TEC keeps one `_EventCost` row each); `[]` for none. */
  cost: string[];
  currencySymbol: string;
  currencyCode: string;
  currencyPosition: string;
  /** `null` when never set: the wire then shows the event's permalink. */
  website: string | null;
  /** `null` when never set: the wire then shows `true`. */
  showMap: boolean | null;
  showMapLink: boolean | null;
  hideFromListings: boolean;
  featured: boolean;
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
}

export type EventRecord = PostRecord & EventFields;
export type NewEvent = NewPost & EventFields;

export interface VenueFields {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateProvince: string;
  showMap: boolean | null;
  showMapLink: boolean | null;
  geoLat: number | null;
  geoLng: number | null;
}

export type VenueRecord = PostRecord & VenueFields;
export type NewVenue = NewPost & VenueFields;

export interface OrganizerFields {
  phone: string;
  website: string;
  email: string;
}

export type OrganizerRecord = PostRecord & OrganizerFields;
export type NewOrganizer = NewPost & OrganizerFields;

export interface TermRecord {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parentId: number;
  termGroup: number;
  /** Published objects the term is assigned to, maintained by the store. */
  count: number;
}

export type NewTerm = Omit<TermRecord, 'id' | 'count' | 'termGroup'> & { termGroup?: number };
export type TermPatch = Partial<Pick<TermRecord, 'name' | 'slug' | 'description' | 'parentId'>>;

export interface UserRecord {
  id: number;
  login: string;
  email: string;
  displayName: string;
  nicename: string;
  url: string;
  registered: WpDateTime;
  roles: string[];
}

export type NewUser = Omit<UserRecord, 'id'>;

export interface ApplicationPasswordRecord {
  uuid: string;
  userId: number;
  name: string;
  /** `scheme$salt$digest`; the secret itself is never stored. */
  passwordHash: string;
  created: number;
  lastUsed: number | null;
  lastIp: string | null;
}

export interface Page<T> {
  items: T[];
  total: number;
}
