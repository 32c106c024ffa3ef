import { postTypeCaps, registerPostTypeCaps } from '../../auth/roles.js';

export const CALENDAR_NAMESPACE = 'cal/events/v1';

/** Post types and taxonomies, named as The Events Calendar's with `tribe_` → `cal_`. */
export const EVENT_TYPE = 'cal_events';
export const VENUE_TYPE = 'cal_venue';
export const ORGANIZER_TYPE = 'cal_organizer';
export const CATEGORY_TAXONOMY = 'cal_events_cat';
export const TAG_TAXONOMY = 'post_tag';

export const EVENT_CAPS = postTypeCaps('cal_event', 'cal_events');
export const VENUE_CAPS = postTypeCaps('cal_venue', 'cal_venues');
export const ORGANIZER_CAPS = postTypeCaps('cal_organizer', 'cal_organizers');

registerPostTypeCaps(EVENT_CAPS);
registerPostTypeCaps(VENUE_CAPS);
registerPostTypeCaps(ORGANIZER_CAPS);

/** TEC's cap on list pages. */
export const MAX_PER_PAGE = 50;
