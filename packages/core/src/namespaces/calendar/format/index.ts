/*
 * Wire formatting for the calendar namespace: how The Events Calendar 6.17.2 renders stored event, venue and
 * organizer data. Pure functions only.
 */
export { texturize, DEFAULT_SHORTCODE_TAGS, NO_TEXTURIZE_TAGS, NO_TEXTURIZE_SHORTCODES, type TexturizeOptions } from './texturize.js';
export {
  renderTitle,
  renderContent,
  renderExcerpt,
  convertChars,
  capitalPDangit,
  capitalPDangitTitle,
  wpautop,
  doBlocks,
  hasBlocks,
} from './render.js';
export { escHtml, escJs, escUrl, phpTrim, addSlashes, stripSlashes } from './escape.js';
export { tecExcerpt, trimWords, stripAllTags, type ExcerptSource } from './excerpt.js';
export { antispambot, decodeAntispambot, type RandomSource } from './antispambot.js';
export {
  parseCostInput,
  costRows,
  eventCosts,
  formatCost,
  costDetails,
  costValues,
  jsonLdPrice,
  parseCostRange,
  parseCurrencySymbol,
  parseCurrencyPosition,
  parseSeparators,
  replaceZeroWithFree,
  isNumeric,
  type StoredCost,
  type CostDetails,
  type CurrencyMeta,
  type CurrencySettings,
  type CostPairs,
} from './cost.js';
export {
  parseDateInput,
  wallClock,
  startOfDay,
  endOfDay,
  allDayBounds,
  eventDateFields,
  type EventDateFields,
} from './dates.js';
export {
  isValidTimezone,
  isUtcOffset,
  siteTimezoneName,
  timezoneAbbr,
  phpZoneAbbr,
  zoneOf,
  zoneFromUtcOffset,
  utcOffsetMinutes,
} from './timezones.js';
export {
  eventJsonLd,
  venueJsonLd,
  organizerJsonLd,
  eventJsonLdUrl,
  jsonLdDate,
  jsonLdValidFrom,
  jsonLdName,
  type EventJsonLd,
  type PlaceJsonLd,
  type PersonJsonLd,
  type OfferJsonLd,
  type PostalAddress,
  type EventJsonLdInput,
  type VenueJsonLdInput,
  type OrganizerJsonLdInput,
  type EventStatus,
  type JsonLdSettings,
} from './json-ld.js';
