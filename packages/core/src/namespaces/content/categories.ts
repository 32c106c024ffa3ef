import type { SiteStore } from '../../store/repositories.js';

/** The most categories one filter expands to (a category and its descendants). */
const MAX_CATEGORIES = 1000;

/**
 * The `category` parameter as WordPress's `category_name`/`cat` query vars read it: a term id (digits) or a
 * slug of the taxonomy, with every descendant category included. `null` means "no filter", `[]` a category
 * that does not exist (an empty list, as WordPress answers).
 */
export async function categoryFilter(store: SiteStore, taxonomy: string, value: string): Promise<number[] | null> {
  const text = value.trim();
  if (text === '') return null;
  const term = /^\d{1,15}$/.test(text) ? await store.terms.get(Number(text)) : await store.terms.findBySlug(taxonomy, text);
  if (!term || term.taxonomy !== taxonomy) return [];
  const ids = [term.id];
  const seen = new Set(ids);
  for (let i = 0; i < ids.length && ids.length < MAX_CATEGORIES; i++) {
    const children = await store.terms.list({ taxonomy, parentId: ids[i]!, orderBy: 'id', order: 'asc', offset: 0, limit: MAX_CATEGORIES });
    for (const child of children.items) {
      if (seen.has(child.id) || ids.length >= MAX_CATEGORIES) continue;
      seen.add(child.id);
      ids.push(child.id);
    }
  }
  return ids;
}
