import type { DateTime, Zone } from 'luxon';
import { memoize } from '../../../util/memo.js';
import { costDetails, formatCost, type CostDetails, type CurrencyMeta, type CurrencySettings } from './cost.js';
import { WP_FORMAT } from '../../../time.js';
import { parseDateInput } from './dates.js';
import { escJs } from './escape.js';
import { tecExcerpt } from './excerpt.js';
import { renderContent, renderExcerpt, renderTitle } from './render.js';

/*
 * The serializers' view of the formatting rules: the same pure functions, remembering their recent answers
 * (lists render the same titles, texts and costs over and over). Texts are the records' own, of any length (an
 * author may write megabytes): each memo holds at most twice `TEXT_CHARS` characters of them, or a single text in
 * each generation when one is longer.
 */
const TEXT_CHARS = 8 * 1024 * 1024;
export const titleOf = memoize(renderTitle, (raw) => raw, 2000, Infinity, TEXT_CHARS);
export const contentOf = memoize(renderContent, (raw) => raw, 1000, Infinity, TEXT_CHARS);
export const excerptOf = memoize(renderExcerpt, (raw) => raw, 1000, Infinity, TEXT_CHARS);
/**
 * The JSON-LD `description` of a post (TEC's excerpt, `esc_js`ed): a venue or organizer is described again for every
 * event that links it, and the excerpt (shortcodes, the HTML filter, wpautop) was a fifth of a single event's answer.
 * The key tells the two texts apart by the excerpt's length: no two pairs of texts share a key.
 */
export const jsonLdDescriptionOf = memoize(
  (excerpt: string, content: string) => escJs(tecExcerpt({ excerpt, content })),
  (excerpt, content) => `${excerpt.length}:${excerpt}${content}`,
  1000,
  Infinity,
  TEXT_CHARS,
);

export const costOf = memoize(
  (rows: readonly string[], meta: CurrencyMeta, settings: CurrencySettings) => formatCost(rows, meta, settings),
  (rows, meta, settings) => JSON.stringify([rows, meta.currencySymbol, meta.currencyPosition, settings.currency_symbol, settings.currency_position]),
  2000,
  Infinity,
  TEXT_CHARS,
);

const details = memoize(
  (rows: readonly string[], meta: CurrencyMeta & { currencyCode: string }) => costDetails(rows, meta),
  (rows, meta) => JSON.stringify([rows, meta.currencySymbol, meta.currencyPosition, meta.currencyCode]),
  2000,
  Infinity,
  TEXT_CHARS,
);

/** A fresh object each time: callers may hand it on. */
export function costDetailsOf(rows: readonly string[], meta: CurrencyMeta & { currencyCode: string }): CostDetails {
  const cached = details(rows, meta);
  return { ...cached, values: [...cached.values] };
}

/** Absolute dates (`2027-01-15`, `2027-01-15 19:00:00`, ISO 8601) do not depend on the clock, so they are remembered. */
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
/**
 * The longest key of a remembered date: a zone name and a date. Dates and zone names come from requests, and an
 * absolute date may carry a fraction of any length: longer ones are parsed each time, never kept.
 */
const DATE_KEY_CHARS = 128;
const absoluteDate = memoize(
  (input: string, zone: string | Zone) => parseDateInput(input, zone, 0),
  (input, zone) => `${typeof zone === 'string' ? zone : zone.name}|${input}`,
  2000,
  DATE_KEY_CHARS,
);

export function dateOf(input: unknown, zone: string | Zone, nowMs: number): DateTime | null {
  return typeof input === 'string' && ABSOLUTE.test(input) ? absoluteDate(input, zone) : parseDateInput(input, zone, nowMs);
}

/*
 * A list's date parameters as TEC reads them (in UTC, PHP's default zone) and shows them: as a wall clock in the
 * site's zone, or as the UTC day. Every list request does this for its default window, whose dates are absolute:
 * formatted once, not per request.
 */
const absoluteWallClock = memoize(
  (input: string, zone: Zone) => absoluteDate(input, 'UTC')?.setZone(zone).toFormat(WP_FORMAT),
  (input, zone) => `${zone.name}|${input}`,
  2000,
  DATE_KEY_CHARS,
);
const absoluteUtcDay = memoize(
  (input: string) => absoluteDate(input, 'UTC')?.toFormat('yyyy-MM-dd'),
  (input) => input,
  2000,
  DATE_KEY_CHARS,
);

/** The date parameter `input`, read in UTC, as a WordPress wall clock in `zone`. */
export function wallClockOf(input: unknown, zone: Zone, nowMs: number): string | undefined {
  if (typeof input === 'string' && ABSOLUTE.test(input)) return absoluteWallClock(input, zone);
  return parseDateInput(input, 'UTC', nowMs)?.setZone(zone).toFormat(WP_FORMAT);
}

/** The UTC day (`YYYY-MM-DD`) of the date parameter `input`, read in UTC. */
export function utcDayOf(input: unknown, nowMs: number): string | undefined {
  if (typeof input === 'string' && ABSOLUTE.test(input)) return absoluteUtcDay(input);
  return parseDateInput(input, 'UTC', nowMs)?.toUTC().toFormat('yyyy-MM-dd');
}
