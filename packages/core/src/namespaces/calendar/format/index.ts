/*
 * Wire formatting for the calendar namespace: how The Events Calendar 6.17.2 renders stored event, venue and
 * organizer data. Pure functions only.
 */
export { parseCostInput } from './cost.js';
export { escHtml, escUrl } from './escape.js';
export { parseDateInput, allDayBounds } from './dates.js';
export { isValidTimezone, siteTimezoneName, timezoneAbbr, zoneOf } from './timezones.js';
export { eventJsonLd, venueJsonLd, organizerJsonLd } from './json-ld.js';
