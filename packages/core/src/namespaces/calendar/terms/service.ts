import type { SiteStore } from '../../../store/repositories.js';
import type { TermRecord } from '../../../store/records.js';
import type { TermOrderBy, TermQuery } from '../../../store/queries.js';
import { ksesShort, sanitizeTermName, sanitizeTitle, truncateSlug } from '../../../text/sanitize.js';
import { calendarErrors } from '../errors.js';
import type { TaxonomyConfig } from './taxonomies.js';

/*
 * Term rules of WordPress (wp_insert_term, wp_update_term, get_terms) as the calendar's category and tag
 * routes reach them. Stores only persist; the naming, slug and hierarchy rules are here.
 */

export interface TermInput {
  name?: string;
  description?: string;
  slug?: string;
  parentId?: number;
}

/** Slugs from the top ancestor down to the term (category archive URLs nest them). */
export async function slugPath(store: SiteStore, term: TermRecord): Promise<string[]> {
  const path = [term.slug];
  const seen = new Set([term.id]);
  let parentId = term.parentId;
  while (parentId && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = await store.terms.get(parentId);
    if (!parent) break;
    path.unshift(parent.slug);
    parentId = parent.parentId;
  }
  return path;
}

async function slugTaken(store: SiteStore, taxonomy: string, slug: string, exceptId?: number): Promise<boolean> {
  const found = await store.terms.findBySlug(taxonomy, slug);
  return found !== null && found.id !== exceptId;
}

/** wp_unique_term_slug: parent slugs first for child terms, then `-2`, `-3`, … */
async function uniqueSlug(store: SiteStore, tax: TaxonomyConfig, slug: string, parentId: number, exceptId?: number): Promise<string> {
  if (!(await slugTaken(store, tax.taxonomy, slug, exceptId))) return slug;
  let candidate = slug;
  if (tax.hierarchical && parentId) {
    let parent = await store.terms.get(parentId);
    while (parent) {
      candidate += `-${parent.slug}`;
      if (!(await slugTaken(store, tax.taxonomy, candidate, exceptId))) return candidate;
      parent = parent.parentId ? await store.terms.get(parent.parentId) : null;
    }
  }
  for (let n = 2; ; n++) {
    const numbered = `${candidate}-${n}`;
    if (!(await slugTaken(store, tax.taxonomy, numbered, exceptId))) return numbered;
  }
}

/**
 * wp_insert_term. The checks and the insert are one transaction, so concurrent requests get the answers they get
 * one after another (the store serialises name lookups and retries a lost race, see docs/security.md).
 */
/** WordPress's `terms.name` column holds 200 characters; a longer name is refused, never cut. */
const TERM_NAME_MAX_LENGTH = 200;

/** A term name as stored: sanitized, not empty, and short enough for WordPress's column. */
function termName(input: string): string {
  const name = sanitizeTermName(input);
  if (!name) throw calendarErrors.emptyTermName();
  if (name.length > TERM_NAME_MAX_LENGTH) throw calendarErrors.termNameTooLong();
  return name;
}

export function createTerm(store: SiteStore, tax: TaxonomyConfig, input: TermInput): Promise<TermRecord> {
  return store.transaction((tx) => insertTerm(tx, tax, input));
}

async function insertTerm(store: SiteStore, tax: TaxonomyConfig, input: TermInput): Promise<TermRecord> {
  const name = termName(input.name ?? '');
  const parentId = tax.hierarchical ? (input.parentId ?? 0) : 0;
  const slugProvided = Boolean(input.slug);
  const slug = truncateSlug(sanitizeTitle(slugProvided ? input.slug! : name) || sanitizeTitle(name));

  const nameMatch = (await store.terms.findByName(tax.taxonomy, name, parentId))[0];
  if (nameMatch) {
    const slugMatch = await store.terms.findBySlug(tax.taxonomy, slug);
    if (!slugProvided || nameMatch.slug === slug || slugMatch) {
      if (!tax.hierarchical) throw calendarErrors.termExists(false, nameMatch.id);
      const siblings = (await store.terms.list({ taxonomy: tax.taxonomy, parentId, orderBy: 'none', order: 'asc', offset: 0, limit: 10_000 })).items;
      let existing: TermRecord | undefined;
      if ((!slugProvided || nameMatch.slug === slug) && siblings.some((t) => t.name === name)) existing = nameMatch;
      else if (slugMatch && siblings.some((t) => t.slug === slug)) existing = slugMatch;
      if (existing) throw calendarErrors.termExists(true, existing.id);
    }
  }
  return store.terms.create({
    taxonomy: tax.taxonomy,
    name,
    slug: await uniqueSlug(store, tax, slug, parentId),
    description: ksesShort(input.description ?? ''),
    parentId,
  });
}

async function isAncestorOrSelf(store: SiteStore, termId: number, candidateParent: number): Promise<boolean> {
  let current: number = candidateParent;
  const seen = new Set<number>();
  while (current && !seen.has(current)) {
    if (current === termId) return true;
    seen.add(current);
    current = (await store.terms.get(current))?.parentId ?? 0;
  }
  return false;
}

/** wp_update_term, its checks and write in one transaction (as createTerm). */
export function updateTerm(store: SiteStore, tax: TaxonomyConfig, term: TermRecord, input: TermInput): Promise<TermRecord> {
  return store.transaction((tx) => changeTerm(tx, tax, term, input));
}

async function changeTerm(store: SiteStore, tax: TaxonomyConfig, term: TermRecord, input: TermInput): Promise<TermRecord> {
  const patch: Partial<TermRecord> = {};
  let name = term.name;
  if (input.name !== undefined) {
    name = termName(input.name);
    patch.name = name;
  }
  if (input.description !== undefined) patch.description = ksesShort(input.description);
  let parentId = term.parentId;
  if (tax.hierarchical && input.parentId !== undefined && input.parentId !== term.parentId) {
    if (await isAncestorOrSelf(store, term.id, input.parentId)) throw calendarErrors.termParentLoop();
    parentId = input.parentId;
    patch.parentId = parentId;
  }
  const emptySlug = input.slug !== undefined && !input.slug;
  let slug = emptySlug ? truncateSlug(sanitizeTitle(name)) : input.slug !== undefined ? truncateSlug(sanitizeTitle(input.slug)) : term.slug;
  if (await slugTaken(store, tax.taxonomy, slug, term.id)) {
    if (!emptySlug && parentId === term.parentId) throw calendarErrors.duplicateTermSlug(slug);
    slug = await uniqueSlug(store, tax, slug, parentId, term.id);
  }
  if (slug !== term.slug) patch.slug = slug;
  if (!Object.keys(patch).length) return term;
  return store.terms.update(term.id, patch);
}

export interface TermListParams {
  page: number;
  perPage: number;
  search?: string;
  include?: number[];
  exclude?: number[];
  order?: string;
  orderBy?: string;
  hideEmpty: boolean;
  parentId?: number;
  objectId?: number;
  slug?: string;
}

const ORDER_BY: Record<string, TermOrderBy> = {
  name: 'name',
  slug: 'slug',
  term_group: 'term_group',
  term_id: 'id',
  id: 'id',
  description: 'description',
  count: 'count',
  parent: 'parent',
  include: 'include',
  none: 'none',
};

/** get_terms as the WordPress terms controller calls it. */
export function termQuery(tax: TaxonomyConfig, params: TermListParams): TermQuery {
  const orderKey = (params.orderBy ?? 'name').toLowerCase();
  let orderBy: TermOrderBy = ORDER_BY[orderKey] ?? (orderKey === '' ? 'id' : 'name');
  if (orderBy === 'include' && !params.include?.length) orderBy = 'name';
  return {
    taxonomy: tax.taxonomy,
    search: params.search || undefined,
    include: params.include?.length ? params.include : undefined,
    exclude: params.exclude?.length ? params.exclude : undefined,
    slugs: params.slug ? [sanitizeTitle(params.slug)] : undefined,
    parentId: tax.hierarchical ? params.parentId : undefined,
    objectId: params.objectId,
    hideEmpty: params.hideEmpty,
    hierarchical: tax.hierarchical,
    orderBy,
    order: (params.order ?? '').toUpperCase() === 'DESC' ? 'desc' : 'asc',
    offset: (params.page - 1) * params.perPage,
    limit: params.perPage,
  };
}
