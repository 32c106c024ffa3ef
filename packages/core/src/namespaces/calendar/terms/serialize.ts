import type { SiteSettings } from '../../../settings.js';
import type { TermRecord } from '../../../store/records.js';
import { CALENDAR_NAMESPACE } from '../constants.js';
import { taxonomyConfig, type TaxonomyConfig } from './taxonomies.js';

/** Everything a term serializer needs besides the term: where things live. */
export interface TermContext {
  apiRoot: string;
  settings: SiteSettings;
  /** Slugs from the top ancestor down to the term itself (category archive URLs nest them). */
  slugPath: string[];
}

/** TEC's `urls`: this term, the collection and (for child terms) the parent, on our routes. */
function termUrls(term: TermRecord, tax: TaxonomyConfig, apiRoot: string): Record<string, string> {
  const base = `${apiRoot}${CALENDAR_NAMESPACE}/${tax.restBase}`;
  const urls: Record<string, string> = { self: `${base}/${term.id}`, collection: base };
  if (term.parentId) urls.up = `${base}/${term.parentId}`;
  return urls;
}

/** A term from the `/categories` and `/tags` routes. */
export function serializeTerm(term: TermRecord, ctx: TermContext): Record<string, unknown> {
  const tax = taxonomyConfig(term.taxonomy);
  const data: Record<string, unknown> = {
    id: term.id,
    count: term.count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
  };
  if (tax.hierarchical) data.parent = term.parentId;
  data.meta = [];
  data.url = tax.archiveUrl(ctx.settings, ctx.slugPath);
  data.urls = termUrls(term, tax, ctx.apiRoot);
  return data;
}

/** A term embedded in an event: the raw WordPress term, with `urls`. */
export function serializeEmbeddedTerm(term: TermRecord, apiRoot: string): Record<string, unknown> {
  const tax = taxonomyConfig(term.taxonomy);
  return {
    name: term.name,
    slug: term.slug,
    term_group: term.termGroup,
    term_taxonomy_id: term.id,
    taxonomy: term.taxonomy,
    description: term.description,
    parent: term.parentId,
    count: term.count,
    filter: 'raw',
    id: term.id,
    urls: termUrls(term, tax, apiRoot),
  };
}

/**
 * The `_links` WordPress's terms controller adds to single-term answers. They name WordPress's own `wp/v2`
 * routes, as upstream does (see docs/compatibility.md); `allow` is computed from our matching item route.
 */
export function termLinks(term: TermRecord, apiRoot: string, allow: readonly string[]): Record<string, unknown> {
  const tax = taxonomyConfig(term.taxonomy);
  const base = `${apiRoot}wp/v2/${tax.wpRestBase}`;
  const links: Record<string, unknown> = {
    self: [{ href: `${base}/${term.id}`, targetHints: { allow } }],
    collection: [{ href: base }],
    about: [{ href: `${apiRoot}wp/v2/taxonomies/${term.taxonomy}` }],
  };
  if (term.parentId) links.up = [{ embeddable: true, href: `${base}/${term.parentId}` }];
  links['wp:post_type'] = tax.wpObjectTypes.map((type) => ({ href: `${apiRoot}wp/v2/${type}?${tax.wpQueryVar}=${term.id}` }));
  links.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return links;
}
