import type { ArgValidator } from '../../args/spec.js';
import type { ApiRequest } from '../../http/api-request.js';
import { intval, isEmpty, isNumeric, splitAtCommas, strval } from '../../http/php.js';
import { phpUrlDecode } from '../../http/query.js';
import { sanitizeTitle } from '../../text/sanitize.js';
import { EVENT_TYPE, ORGANIZER_TYPE, VENUE_TYPE } from './constants.js';
import { andThen, isPending, type Maybe } from '../../util/maybe.js';

/*
 * The Events Calendar's argument validators (Tribe__Validator__Base and its events subclass). A validator
 * that returns false makes WordPress answer "Invalid parameter." for the arg.
 */

/** Tribe__Utils__Array::list_to_array: arrays as they are, strings URL-decoded and split on commas. */
export function listToArray(value: unknown): unknown[] {
  if (value === null || value === undefined || value === '') return [];
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'object') items = Object.values(value as object);
  else {
    const text = phpUrlDecode(String(value));
    items = splitAtCommas(text);
  }
  return items.filter((v) => v !== '').map((v) => (isNumeric(v) ? Number(v) : v));
}

export const isPositiveInt: ArgValidator = (value) => {
  if (!isNumeric(value)) return false;
  const n = Number(typeof value === 'string' ? value.trim() : value);
  return Math.trunc(n) === n && n > 0;
};

/**
 * Text without NUL characters: PostgreSQL text cannot hold U+0000, so it is refused in every store alike
 * (WordPress keeps or strips it; see docs/compatibility.md).
 */
export const isText = (value: unknown): value is string => typeof value === 'string' && !value.includes('\u0000');

export const isString: ArgValidator = (value) => !isEmpty(value) && isText(value);

/**
 * Resolves a term given as id, slug or name (WordPress term_exists) within a taxonomy. Remembered for the
 * request: the list's validation and its query both resolve the same terms, and on PostgreSQL each lookup is a
 * round trip.
 */
export function findTerm(request: ApiRequest, taxonomy: string, value: unknown): Maybe<number | null> {
  const key = typeof value === 'number' ? `term ${taxonomy} id ${value}` : `term ${taxonomy} = ${strval(value)}`;
  return request.remember(key, () => lookUpTerm(request, taxonomy, value));
}

function lookUpTerm(request: ApiRequest, taxonomy: string, value: unknown): Maybe<number | null> {
  const terms = request.site.store.terms;
  if (typeof value === 'number') return andThen(terms.get(value), (term) => (term && term.taxonomy === taxonomy ? term.id : null));
  const text = strval(value).trim();
  if (!text) return null;
  return andThen(terms.findBySlug(taxonomy, sanitizeTitle(text)), (bySlug) => {
    if (bySlug) return bySlug.id;
    return andThen(terms.findByName(taxonomy, text), (byName) => byName[0]?.id ?? null);
  });
}

/** The terms' ids in order, the unknown ones left out; at once when every lookup is. */
export function findTerms(request: ApiRequest, taxonomy: string, values: readonly unknown[], from = 0, ids: number[] = []): Maybe<number[]> {
  for (let index = from; index < values.length; index++) {
    const id = findTerm(request, taxonomy, values[index]);
    // Waited for outside the loop: a closure here over `index` would make a context per turn.
    if (isPending(id)) return findTermsAfter(id, request, taxonomy, values, index, ids);
    if (id !== null) ids.push(id);
  }
  return ids;
}

function findTermsAfter(id: PromiseLike<number | null>, request: ApiRequest, taxonomy: string, values: readonly unknown[], index: number, ids: number[]): Promise<number[]> {
  return Promise.resolve(id).then((found) => {
    if (found !== null) ids.push(found);
    return findTerms(request, taxonomy, values, index + 1, ids);
  });
}

export function isTermOf(taxonomy: string): ArgValidator {
  return (value, { request }) => {
    const terms = listToArray(value);
    if (!terms.length) return false;
    return everyTermFound(request, taxonomy, terms, 0);
  };
}

/** Whether each of the terms exists, asked in order until one does not. */
function everyTermFound(request: ApiRequest, taxonomy: string, terms: readonly unknown[], from: number): Maybe<boolean> {
  for (let index = from; index < terms.length; index++) {
    const id = findTerm(request, taxonomy, terms[index]);
    if (isPending(id)) return everyTermFoundAfter(id, request, taxonomy, terms, index);
    if (id === null) return false;
  }
  return true;
}

function everyTermFoundAfter(id: PromiseLike<number | null>, request: ApiRequest, taxonomy: string, terms: readonly unknown[], index: number): Promise<boolean> {
  return Promise.resolve(id).then((found) => found !== null && everyTermFound(request, taxonomy, terms, index + 1));
}

async function isPostOfType(request: ApiRequest, value: unknown, type: string): Promise<boolean> {
  if (isEmpty(value)) return false;
  const id = intval(value);
  return id > 0 && (await request.site.store.posts.typeOf(id)) === type;
}

export const isEventId: ArgValidator = (value, { request }) => isPostOfType(request, value, EVENT_TYPE);
export const isVenueId: ArgValidator = (value, { request }) => isNumeric(value) && isPostOfType(request, value, VENUE_TYPE);
export const isOrganizerId: ArgValidator = (value, { request }) =>
  isNumeric(value) && isPostOfType(request, value, ORGANIZER_TYPE);

function isSlugOf(type: string): ArgValidator {
  return async (value, { request }) =>
    !isEmpty(value) && typeof value === 'string' && (await request.site.store.posts.idBySlug(type, value)) !== null;
}

export const isEventSlug = isSlugOf(EVENT_TYPE);
export const isVenueSlug = isSlugOf(VENUE_TYPE);
export const isOrganizerSlug = isSlugOf(ORGANIZER_TYPE);

/** Every listed id is a post of `type` (CSV, list, or an associative list of ids). */
export function isIdListOf(type: string): ArgValidator {
  return async (value, { request }) => {
    const ids = listToArray(value);
    if (!ids.length) return false;
    for (const id of ids) {
      if (!isNumeric(id) || !(await isPostOfType(request, id, type))) return false;
    }
    return true;
  };
}

export const isUserId: ArgValidator = async (value, { request }) =>
  isNumeric(value) && (await request.site.store.users.get(intval(value))) !== null;
