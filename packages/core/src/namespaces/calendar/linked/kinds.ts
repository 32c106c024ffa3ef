import type { ApiError } from '../../../http/api-error.js';
import type { SiteSettings } from '../../../settings.js';
import type { LinkedPostRepository } from '../../../store/repositories.js';
import type { NewOrganizer, NewVenue, OrganizerRecord, VenueRecord } from '../../../store/records.js';
import type { SiteStore } from '../../../store/repositories.js';
import { ORGANIZER_CAPS, ORGANIZER_TYPE, VENUE_CAPS, VENUE_TYPE } from '../constants.js';
import { calendarErrors } from '../errors.js';
import type { PostTypeConfig } from '../posts/types.js';

/** A meta field of a linked post: its request/wire name and its record field. */
interface LinkedField<R> {
  wire: string;
  record: keyof R & string;
  description: string;
  /** Validated as a URL (or empty) instead of any string. */
  url?: boolean;
}

/** What differs between venues and organizers (TEC's Linked_Post_Base subclasses). */
export interface LinkedKind<R extends VenueRecord | OrganizerRecord = VenueRecord | OrganizerRecord> extends PostTypeConfig {
  /** `venue` / `organizer`: also the name field on the wire. */
  name: 'venue' | 'organizer';
  plural: 'venues' | 'organizers';
  /** Meta fields in the order the create args list them. */
  fields: Array<LinkedField<R>>;
  /** The same fields in wire order (TEC serialises them in another order than it registers them). */
  wireOrder: string[];
  /** Venues carry show_map/show_map_link. */
  hasMapFlags: boolean;
  repository(store: SiteStore): LinkedPostRepository<R, R extends VenueRecord ? NewVenue : NewOrganizer>;
  /** Empty meta values of a new record. */
  blank(): Omit<R, keyof import('../../../store/records.js').PostRecord>;
  errors: {
    notAccessible(): ApiError;
    inTrash(): ApiError;
    couldNotCreate(): ApiError;
    couldNotUpdate(): ApiError;
    couldNotDelete(): ApiError;
    archivePageNotFound(): ApiError;
  };
}

export const VENUES: LinkedKind<VenueRecord> = {
  type: VENUE_TYPE,
  caps: VENUE_CAPS,
  permalinkBase: (settings: SiteSettings) => settings.venue_slug,
  name: 'venue',
  plural: 'venues',
  hasMapFlags: true,
  fields: [
    { wire: 'address', record: 'address', description: 'The venue address' },
    { wire: 'city', record: 'city', description: 'The venue city' },
    { wire: 'country', record: 'country', description: 'The venue country' },
    { wire: 'province', record: 'province', description: 'The venue province' },
    { wire: 'state', record: 'state', description: 'The venue state' },
    { wire: 'zip', record: 'zip', description: 'The venue ZIP code' },
    { wire: 'phone', record: 'phone', description: 'The venue phone number' },
    { wire: 'stateprovince', record: 'stateProvince', description: 'The venue state and province' },
    { wire: 'website', record: 'website', description: 'The venue website URL', url: true },
  ],
  wireOrder: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'],
  repository: (store) => store.venues as LinkedPostRepository<VenueRecord, NewVenue>,
  blank: () => ({
    address: '',
    city: '',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    website: '',
    stateProvince: '',
    showMap: null,
    showMapLink: null,
    geoLat: null,
    geoLng: null,
  }),
  errors: {
    notAccessible: calendarErrors.venueNotAccessible,
    inTrash: calendarErrors.venueInTrash,
    couldNotCreate: calendarErrors.couldNotCreateVenue,
    couldNotUpdate: calendarErrors.couldNotUpdateVenue,
    couldNotDelete: calendarErrors.couldNotDeleteVenue,
    archivePageNotFound: calendarErrors.venueArchivePageNotFound,
  },
};

export const ORGANIZERS: LinkedKind<OrganizerRecord> = {
  type: ORGANIZER_TYPE,
  caps: ORGANIZER_CAPS,
  permalinkBase: (settings: SiteSettings) => settings.organizer_slug,
  name: 'organizer',
  plural: 'organizers',
  hasMapFlags: false,
  fields: [
    { wire: 'phone', record: 'phone', description: 'The organizer phone number' },
    { wire: 'website', record: 'website', description: 'The organizer website', url: true },
    { wire: 'email', record: 'email', description: 'The organizer e-mail address' },
  ],
  wireOrder: ['phone', 'website', 'email'],
  repository: (store) => store.organizers as LinkedPostRepository<OrganizerRecord, NewOrganizer>,
  blank: () => ({ phone: '', website: '', email: '' }),
  errors: {
    notAccessible: calendarErrors.organizerNotAccessible,
    inTrash: calendarErrors.organizerInTrash,
    couldNotCreate: calendarErrors.couldNotCreateOrganizer,
    couldNotUpdate: calendarErrors.couldNotUpdateOrganizer,
    couldNotDelete: calendarErrors.couldNotDeleteOrganizer,
    archivePageNotFound: calendarErrors.organizerArchivePageNotFound,
  },
};

export type AnyLinkedKind = LinkedKind<VenueRecord> | LinkedKind<OrganizerRecord>;
