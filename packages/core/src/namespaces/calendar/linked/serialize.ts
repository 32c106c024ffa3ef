import type { SiteSettings } from '../../../settings.js';
import type { OrganizerRecord, VenueRecord } from '../../../store/records.js';
import { organizerJsonLd, venueJsonLd } from '../format/index.js';
import { contentOf, excerptOf, titleOf } from '../format/memoized.js';
import { globalIds, isFalsy, postHead } from '../posts/serialize.js';
import type { AnyLinkedKind } from './kinds.js';

export interface LinkedSerializeOptions {
  settings: SiteSettings;
  /** Single reads carry schema.org data. */
  withJsonLd: boolean;
  /** The caller may not see a password-protected record's content. */
  redact: boolean;
  /** The featured image object (see posts/images.ts), false for none. */
  image?: Record<string, unknown> | false;
}

const REDACTED_TO_EMPTY = ['description', 'excerpt', 'address', 'city', 'country', 'province', 'zip', 'stateprovince', 'phone', 'email', 'website'];

/**
 * A venue or organizer as TEC puts it on the wire: every empty field before the map
 * flags (venues) or the global id (organizers) is left out.
 */
export function serializeLinked(kind: AnyLinkedKind, record: VenueRecord | OrganizerRecord, options: LinkedSerializeOptions): Record<string, unknown> {
  const { settings } = options;
  const data: Record<string, unknown> = {
    ...postHead(record, kind, settings),
    [kind.name]: titleOf(record.title),
    description: contentOf(record.content),
    excerpt: excerptOf(record.excerpt),
    slug: record.slug,
    image: options.redact ? false : (options.image ?? false),
  };
  const byWire = new Map(kind.fields.map((field) => [field.wire, field.record as string]));
  for (const wire of kind.wireOrder) data[wire] = (record as unknown as Record<string, unknown>)[byWire.get(wire)!];
  if (kind.name === 'venue') {
    const venue = record as VenueRecord;
    if (venue.geoLat !== null && venue.geoLng !== null) {
      data.geo_lat = venue.geoLat;
      data.geo_lng = venue.geoLng;
    }
  }
  if (options.withJsonLd) {
    const imageUrl = options.image ? String(options.image.url) : null;
    data.json_ld =
      kind.name === 'venue' ? venueJsonLd({ venue: record as VenueRecord, imageUrl }) : organizerJsonLd({ organizer: record as OrganizerRecord, imageUrl });
  }
  for (const [key, value] of Object.entries(data)) if (isFalsy(value)) delete data[key];
  if (options.redact) {
    for (const key of REDACTED_TO_EMPTY) if (key in data) data[key] = '';
    data[kind.name] = [];
    if ('geo_lat' in data) data.geo_lat = 0;
    if ('geo_lng' in data) data.geo_lng = 0;
  }
  if (kind.hasMapFlags) {
    const venue = record as VenueRecord;
    data.show_map = options.redact ? null : venue.showMap ?? true;
    data.show_map_link = options.redact ? null : venue.showMapLink ?? true;
  }
  return { ...data, ...globalIds(record, settings) };
}
