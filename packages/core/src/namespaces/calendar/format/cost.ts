import { phpTrim, splitAtCommas } from '../../../http/php.js';
import type { SiteSettings } from '../../../settings.js';
import { sanitizeTitle, specialChars } from '../../../text/sanitize.js';

/*
 * TEC's cost handling: tribe-common src/Tribe/Cost_Utils.php (`parse_cost_range`, `get_cost_by_func`,
 * `parse_currency_symbol`, `parse_currency_position`, `parse_separators`, `maybe_replace_cost_with_free`,
 * `maybe_format_with_currency`), TEC src/Tribe/Cost_Utils.php (`get_event_costs`, `get_formatted_event_cost`),
 * `tribe_format_currency`, the REST repository's `cost_details` and the JSON-LD `normalize_price`.
 *
 * An event's cost is stored as one or more `_EventCost` rows (one per value when a list was sent) plus the
 * currency symbol and position parsed from what was sent. Everything on the wire is derived from those.
 */

/** PHP `is_numeric` (PHP 8: surrounding whitespace allowed, sign, decimals, exponent). */
function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string') return false;
  return /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(value);
}

/** PHP's numeric value of a string (leading number, 0 when none), as SORT_NUMERIC and arithmetic read it. */
function numericValue(value: string): number {
  const m = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(value);
  return m ? Number(m[0]) : 0;
}

/** PHP `number_format($n, $decimals)` (half away from zero), with the separators removed. */
function numberFormatDigits(value: number, decimals: number): string {
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor * (1 + Number.EPSILON))) / factor;
  return rounded.toFixed(decimals).replace(/[.,]/g, '');
}

/**
 * Sorts by key as PHP 8 compares array keys (numerically when both are numeric, else byte-wise), each key's
 * numeric test made once rather than at every comparison.
 */
function sortByPhpKey<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const decorated = items.map((item) => {
    const key = keyOf(item);
    return { item, key, number: isNumeric(key) ? Number(key) : null };
  });
  decorated.sort((a, b) => {
    if (a.number !== null && b.number !== null) return a.number - b.number;
    return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
  return decorated.map((d) => d.item);
}

/**
 * The longest cost siterest takes, all values together (TEC has no limit; a cost is a few prices, and every read
 * parses it again).
 */
const COST_MAX_LENGTH = 10_000;

/** PHP loose equality (`==`) of two strings. */
function looseEquals(a: string, b: string): boolean {
  return isNumeric(a) && isNumeric(b) ? Number(a) === Number(b) : a === b;
}

/** An ordered PHP associative array of `index => cost string`. */
export type CostPairs = Array<[key: string, value: string]>;

const COST_REGEX = /([,.]?(\d+)[,.]?(\d*))/g;

/** `parse_cost_range`: every number in the cost strings, keyed by a sortable index (non-numbers by slug). */
export function parseCostRange(costs: string | readonly string[], maxDecimals: number | null = null, sort = true): CostPairs {
  const list = typeof costs === 'string' ? [costs] : [...costs];
  if (list.length === 0) return [];
  let max = 0;
  const tokens: string[] = [];
  for (const cost of list) {
    let matched = false;
    for (const match of String(cost).matchAll(COST_REGEX)) {
      matched = true;
      tokens.push(match[0]);
      // A loop, not Math.max(...all): a spread of a hundred thousand numbers overflows the stack.
      if (match[3]!.length > max) max = match[3]!.length;
    }
    if (!matched) tokens.push(String(cost));
  }
  if (maxDecimals !== null) max = Math.max(maxDecimals, max);
  // A PHP array by index: a later token with the same index replaces the value in place. A Map keeps that
  // order and finds an index in constant time (a search of the list made long costs quadratic).
  const byIndex = new Map<string, string>();
  for (const token of tokens) {
    const numeric = token.replace(/[,.]/g, '.');
    const index = isNumeric(numeric) ? numberFormatDigits(numericValue(numeric), max) : sanitizeTitle(numeric);
    byIndex.set(index, token);
  }
  const pairs: CostPairs = [...byIndex];
  return sort ? sortByPhpKey(pairs, ([key]) => key) : pairs;
}

/** The `_EventCost` rows of a stored cost: a list as is, a string as one row; empty rows dropped. */
export function costRows(stored: string | readonly string[] | null | undefined): string[] {
  if (stored === null || stored === undefined) return [];
  const rows = typeof stored === 'string' ? [stored] : [...stored];
  return rows.map(String).filter((row) => row !== '');
}

/** `get_event_costs`: the rows parsed one by one and merged (first occurrence of an index wins). */
function eventCosts(stored: string | readonly string[]): CostPairs {
  const merged = new Map<string, string>();
  for (const row of costRows(stored)) {
    for (const [key, value] of parseCostRange(row)) {
      if (!merged.has(key)) merged.set(key, value);
    }
  }
  return [...merged];
}

/** `get_cost_by_func`: the lowest or highest numeric cost, a lone non-numeric cost as is, else "0". */
function costByFunc(pairs: CostPairs, fn: 'min' | 'max'): string {
  const costs = parseCostRange(pairs.map(([, value]) => value));
  if (costs.length === 1 && !isNumeric(costs[0]![1])) return costs[0]![1];
  const numeric = costs.filter(([, value]) => isNumeric(value));
  if (numeric.length === 0) return '0';
  const keys = sortByPhpKey(numeric.map(([key]) => key), (key) => key);
  const key = fn === 'min' ? keys[0]! : keys[keys.length - 1]!;
  const cost = numeric.find(([k]) => k === key)![1];
  return cost === '' || cost === '0' ? '0' : cost;
}

/** `maybe_replace_cost_with_free`: a cost of zero reads "Free". */
function replaceZeroWithFree(cost: string): string {
  const withPeriod = cost.replace(/[.,]/g, '.');
  if (isNumeric(withPeriod) && numberFormatDigits(numericValue(withPeriod), 2) === '000') return 'Free';
  return cost;
}

export interface CurrencyMeta {
  /** `_EventCurrencySymbol`, `""` when none was detected. */
  currencySymbol: string;
  /** `_EventCurrencyPosition`: `prefix`, `postfix` or `""`. */
  currencyPosition: string;
}

export type CurrencySettings = Pick<SiteSettings, 'currency_symbol' | 'currency_code' | 'currency_position'>;

/** `maybe_format_with_currency` + `tribe_format_currency` for one cost value. */
function withCurrency(cost: string, meta: CurrencyMeta, settings: CurrencySettings): string {
  if (!isNumeric(cost.replace(/[,.]/g, ''))) return cost;
  // An empty stored position falls back to the site's (reverseCurrencyPosition → "suffix", else "prefix").
  const position = meta.currencyPosition || (settings.currency_position === 'postfix' ? 'suffix' : 'prefix');
  const symbol = meta.currencySymbol || settings.currency_symbol;
  return position === 'prefix' ? symbol + cost : cost + symbol;
}

/**
 * `tribe_get_cost( $id, $with_currency_symbol )`: "" without cost; one value, or "min – max" (en dash) when the
 * lowest and highest differ; zero reads "Free"; numeric values get the event's symbol (or the site's) on the
 * event's side (or the site's).
 */
export function formatCost(
  stored: string | readonly string[],
  meta: CurrencyMeta,
  settings: CurrencySettings,
  withCurrencySymbol = true,
): string {
  const costs = eventCosts(stored);
  if (costs.length === 0) return '';
  const [min, max] = (['min', 'max'] as const).map((fn) => {
    let cost = replaceZeroWithFree(costByFunc(costs, fn));
    if (withCurrencySymbol) cost = withCurrency(cost, meta, settings);
    return specialChars(cost).replace(/"/g, '&quot;').replace(/'/g, '&#039;');
  }) as [string, string];
  return looseEquals(min, max) ? min : `${min} – ${max}`;
}

/** `Tribe__Cost_Utils::parse_separators` with the en_US locale (`.` decimal point, `,` thousands). */
export function parseSeparators(value: string): [decimal: string, thousands: string] {
  const localeDecimal = '.';
  const localeThousands = ',';
  const runs = value.match(/[.,]+/g);
  if (!runs) return [localeDecimal, localeThousands];
  if (new Set(runs).size > 1) return [runs[runs.length - 1]!, runs[0]!];
  const last = runs[runs.length - 1]!;
  const fragments = value.split(last);
  if (fragments[fragments.length - 1]!.length !== 3) {
    return [last, last === localeDecimal ? localeThousands : localeDecimal];
  }
  return [localeDecimal, localeThousands];
}

/** `cost_details.values`: numeric costs as numeric strings, others by their index, ascending (SORT_NUMERIC). */
export function costValues(stored: string | readonly string[]): string[] {
  const values = eventCosts(stored).map(([key, raw]) => {
    const [decimal, thousands] = parseSeparators(raw);
    const value = raw.split(thousands).join('').split(decimal).join('.');
    return isNumeric(value) ? value : key;
  });
  // PHP's sort is stable; SORT_NUMERIC compares the strings' numeric values (non-numbers count as 0).
  return values.map((value, i) => ({ value, i })).sort((a, b) => numericValue(a.value) - numericValue(b.value) || a.i - b.i).map((x) => x.value);
}

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  values: string[];
}

/** The event's `cost_details`, keys in wire order; the stored meta as is (not the site defaults). */
export function costDetails(stored: string | readonly string[], meta: CurrencyMeta & { currencyCode: string }): CostDetails {
  return {
    currency_symbol: meta.currencySymbol,
    currency_code: meta.currencyCode,
    currency_position: meta.currencyPosition,
    values: costValues(stored),
  };
}

/** Split a string cost the way `parse_currency_*` do (`/\s*,\s*\/`); lists are used as they are. */
function splitForCurrency(cost: string | readonly string[]): string[] {
  return typeof cost === 'string' ? splitAtCommas(cost) : [...cost];
}

function phpEmptyCost(cost: string | readonly string[]): boolean {
  return typeof cost === 'string' ? cost === '' || cost === '0' : cost.length === 0;
}

/**
 * `parse_currency_symbol`: what surrounds the numbers, if the same everywhere; null when none/inconsistent.
 * `originalAt` reads the i-th original value as PHP's `$original[ $i ]` does (an object sent as the cost has
 * no index 0: its values then read as empty).
 */
export function parseCurrencySymbol(cost: string | readonly string[], originalAt?: (index: number) => string): string | null {
  if (phpEmptyCost(cost)) return null;
  const originals = splitForCurrency(cost);
  const pairs = parseCostRange(originals, null, false);
  if (pairs.length === 0) return null;
  // Upstream pairs the i-th parsed number with the i-th original string, even when one string held several
  // numbers (then the two drift apart: reproduced).
  let first: string | null = null;
  for (const [i, [key, value]] of pairs.entries()) {
    if (!isNumeric(key)) continue;
    const original = originalAt ? originalAt(i) : (originals[i] ?? '');
    const symbol = phpTrim(original.split(value).join(''));
    if (first === null) first = symbol;
    else if (symbol !== first) return null;
  }
  return first;
}

/** `parse_currency_position`: `prefix` when every value starts with the symbol, `postfix` when none does. */
export function parseCurrencyPosition(cost: string | readonly string[], originalAt?: (index: number) => string): 'prefix' | 'postfix' | null {
  if (phpEmptyCost(cost)) return null;
  const originals = splitForCurrency(cost);
  const symbol = parseCurrencySymbol(originals, originalAt);
  if (!symbol) return null;
  const positions: Array<'prefix' | 'postfix'> = [];
  for (const original of originals) {
    const at = phpTrim(original).indexOf(symbol);
    if (at === -1) continue;
    positions.push(at === 0 ? 'prefix' : 'postfix');
    if (positions[positions.length - 1] !== positions[0]) return null;
  }
  return positions[0] ?? null;
}

export interface StoredCost {
  /** The `_EventCost` rows. */
  rows: string[];
  /** The rows joined with ", " (the record's `cost` field). */
  cost: string;
  currencySymbol: string;
  /** Never set by the REST API (`""`); only the admin UI stores a currency code. */
  currencyCode: string;
  currencyPosition: string;
}

/** PHP's string of a float (`5`, `5.5`, `1.0E+21`): what a number sent as the cost is stored as. */
function phpNumberString(value: number): string {
  const text = String(value);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-])(\d+)$/.exec(text);
  if (!m) return text;
  return `${m[1]}${m[2]}.${m[3] ?? '0'}E${m[4]}${m[5]}`;
}

/** A scalar as `add_metadata` stores it: numbers as PHP prints them, true "1", false and null "". */
function scalarRow(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? phpNumberString(value) : undefined;
  if (typeof value === 'boolean') return value ? '1' : '';
  if (value === null) return '';
  return undefined;
}

/**
 * The falsy values `array_filter` drops from TEC's post array, so no cost is stored. (The string "0" is kept
 * as the cost "Free", as siterest always did.)
 */
function phpFalsy(value: unknown): boolean {
  return value === null || value === false || value === 0 || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * What TEC's REST insert/update stores for a `cost` parameter: TEC registers `cost` without a type or validator
 * and saves `(array) $cost` one meta row per value, so a string is one row, a list or an object (`{"amount": 5}`)
 * one row per value, a number or boolean one row as PHP prints it; a falsy value stores no cost. The symbol and
 * position are parsed from what was sent (`""` when none or inconsistent). Null only for a value whose values are
 * themselves lists or objects (PHP would store them serialised and print "Array").
 */
export function parseCostInput(input: unknown): StoredCost | null {
  if (phpFalsy(input) || (typeof input === 'object' && input !== null && !Array.isArray(input) && Object.keys(input).length === 0)) {
    return { rows: [], cost: '', currencySymbol: '', currencyCode: '', currencyPosition: '' };
  }
  let raw: string | string[];
  let originalAt: ((index: number) => string) | undefined;
  if (typeof input === 'object' && input !== null) {
    const entries: Array<[string, unknown]> = Array.isArray(input) ? input.map((v, i) => [String(i), v]) : Object.entries(input);
    const rows = entries.map(([, value]) => scalarRow(value));
    if (rows.some((row) => row === undefined)) return null;
    raw = rows as string[];
    if (!Array.isArray(input)) {
      // PHP indexes the original by position: an object's values are found only under keys "0", "1", …
      const byKey = new Map(entries.map(([key], i) => [key, raw[i]!]));
      originalAt = (index) => byKey.get(String(index)) ?? '';
    }
  } else {
    const row = scalarRow(input);
    if (row === undefined) return null;
    raw = row;
  }
  if ((typeof raw === 'string' ? raw.length : raw.reduce((sum, row) => sum + row.length, 0)) > COST_MAX_LENGTH) return null;
  const rows = costRows(raw);
  return {
    rows,
    cost: rows.join(', '),
    currencySymbol: parseCurrencySymbol(raw, originalAt) ?? '',
    currencyCode: '',
    currencyPosition: parseCurrencyPosition(raw, originalAt) ?? '',
  };
}

/**
 * The JSON-LD offer price (`Tribe__Events__JSON_LD__Event::normalize_price` of `tribe_get_cost( $id )`): the cost
 * without currency, "Free" written "0"; `""` means no offer. (The locale separators it also normalises are empty
 * in PHP's default C locale, so nothing else changes: a range stays "Free – 30".)
 */
export function jsonLdPrice(stored: string | readonly string[], meta: CurrencyMeta, settings: CurrencySettings): string {
  const price = formatCost(stored, meta, settings, false);
  return /^\s*Free\s*$/i.test(price) ? '0' : price;
}
