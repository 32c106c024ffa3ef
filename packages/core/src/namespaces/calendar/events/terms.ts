import type { ApiRequest } from '../../../http/api-request.js';
import { isNumeric } from '../../../http/php.js';
import type { SiteStore } from '../../../store/repositories.js';
import { EVENT_CAPS } from '../constants.js';
import { createTerm } from '../terms/service.js';
import type { TaxonomyConfig } from '../terms/taxonomies.js';
import { sanitizeTitle } from '../../../text/sanitize.js';
import { listToArray } from '../validators.js';

/**
 * Tribe__Terms::translate_terms_to_ids for an event write: ids of existing terms are kept (unknown ids are
 * skipped), names and slugs are looked up and, when unknown, created — by callers who may manage the
 * taxonomy's terms (others cannot create terms through an event, see docs/compatibility.md).
 */
export async function termIdsForEvent(request: ApiRequest, store: SiteStore, tax: TaxonomyConfig, value: unknown): Promise<number[]> {
  const ids: number[] = [];
  const mayCreate = request.can(EVENT_CAPS.edit_posts) && request.can(tax.manageCap);
  for (const item of listToArray(value)) {
    let id: number | null = null;
    if (isNumeric(item)) {
      const term = await store.terms.get(Number(item));
      id = term && term.taxonomy === tax.taxonomy ? term.id : null;
    } else {
      const name = String(item).trim();
      if (!name) continue;
      const existing = (await store.terms.findBySlug(tax.taxonomy, sanitizeTitle(name))) ?? (await store.terms.findByName(tax.taxonomy, name))[0];
      if (existing) id = existing.id;
      else if (mayCreate) id = (await createTerm(store, tax, { name })).id;
    }
    if (id !== null && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
