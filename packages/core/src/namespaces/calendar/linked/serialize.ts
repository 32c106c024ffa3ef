import type { SiteSettings } from '../../../settings.js';
import type { OrganizerRecord, VenueRecord } from '../../../store/records.js';
import { organizerJsonLd, venueJsonLd } from '../format/index.js';
import { contentOf, excerptOf, titleOf } from '../format/memoized.js';
import { globalId, permalink } from '../posts/permalinks.js';
import { isFalsy } from '../posts/serialize.js';
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

/** Each kind's wire fields in wire order, with the record field each is read from. */
const wireFields = new WeakMap<AnyLinkedKind, Array<[wire: string, field: string]>>();

function wireFieldsOf(kind: AnyLinkedKind): Array<[string, string]> {
  let fields = wireFields.get(kind);
  if (!fields) {
    const byWire = new Map(kind.fields.map((field) => [field.wire, field.record as string]));
    fields = kind.wireOrder.map((wire) => [wire, byWire.get(wire)!]);
    wireFields.set(kind, fields);
  }
  return fields;
}

/**
 * A venue or organizer as TEC puts it on the wire: every empty field before the map
 * flags (venues) or the global id (organizers) is left out.
 *
 * Built by adding keys to one object in wire order, never by spreading into a literal and adding to it or
 * deleting from it: V8 turns such objects into slow dictionaries, and this runs for every event of a list.
 */
export function serializeLinked(kind: AnyLinkedKind, record: VenueRecord | OrganizerRecord, options: LinkedSerializeOptions): Record<string, unknown> {
  const { settings, redact } = options;
  const data: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (!isFalsy(value)) data[key] = value;
  };
  put('id', record.id);
  put('author', String(record.authorId));
  put('status', record.status);
  put('date', record.date);
  put('date_utc', record.dateGmt);
  put('modified', record.modified);
  put('modified_utc', record.modifiedGmt);
  put('url', permalink(record, kind, settings));
  put(kind.name, titleOf(record.title));
  put('description', contentOf(record.content));
  put('excerpt', excerptOf(record.excerpt));
  put('slug', record.slug);
  put('image', redact ? false : (options.image ?? false));
  const fields = record as unknown as Record<string, unknown>;
  for (const [wire, field] of wireFieldsOf(kind)) put(wire, fields[field]);
  if (kind.name === 'venue') {
    const venue = record as VenueRecord;
    if (venue.geoLat !== null && venue.geoLng !== null) {
      put('geo_lat', venue.geoLat);
      put('geo_lng', venue.geoLng);
    }
  }
  if (options.withJsonLd) {
    const imageUrl = options.image ? String(options.image.url) : null;
    put('json_ld', kind.name === 'venue' ? venueJsonLd({ venue: record as VenueRecord, imageUrl }) : organizerJsonLd({ organizer: record as OrganizerRecord, imageUrl }));
  }
  if (redact) {
    for (const key of REDACTED_TO_EMPTY) if (Object.hasOwn(data, key)) data[key] = '';
    data[kind.name] = [];
    if (Object.hasOwn(data, 'geo_lat')) data.geo_lat = 0;
    if (Object.hasOwn(data, 'geo_lng')) data.geo_lng = 0;
  }
  if (kind.hasMapFlags) {
    const venue = record as VenueRecord;
    data.show_map = redact ? null : venue.showMap ?? true;
    data.show_map_link = redact ? null : venue.showMapLink ?? true;
  }
  const id = globalId(record.id, settings);
  data.global_id = id;
  data.global_id_lineage = [id];
  return data;
}
