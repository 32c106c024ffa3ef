import type { Site } from '../site.js';
import { createTerm } from '../namespaces/calendar/terms/service.js';
import { CATEGORIES, TAGS } from '../namespaces/calendar/terms/taxonomies.js';

/**
 * A believable demo calendar for the example servers and for trying siterest out: a small town's events
 * calendar. Everything is created through the same services the REST routes use.
 */
export interface DemoSummary {
  categories: number;
  tags: number;
}

const CATEGORY_TREE: Array<{ name: string; description: string; children?: string[] }> = [
  { name: 'Music', description: 'Concerts & gigs', children: ['Jazz', 'Classical', 'Folk'] },
  { name: 'Workshops', description: 'Learn something hands-on' },
  { name: 'Markets', description: 'Farmers, makers and flea markets' },
  { name: 'Family', description: 'Fun for all ages' },
  { name: 'Theatre', description: 'Plays, musicals and readings' },
  { name: 'Sports', description: 'Runs, rides and matches' },
];

const TAG_NAMES = ['Free entry', 'Outdoor', 'Weekend', 'Accessible', 'Kids', 'Evening', 'Online'];

export async function seedDemoSite(site: Site): Promise<DemoSummary> {
  await site.ready();
  let categories = 0;
  for (const category of CATEGORY_TREE) {
    const parent = await createTerm(site.store, CATEGORIES, { name: category.name, description: category.description });
    categories++;
    for (const child of category.children ?? []) {
      await createTerm(site.store, CATEGORIES, { name: child, parentId: parent.id });
      categories++;
    }
  }
  for (const name of TAG_NAMES) await createTerm(site.store, TAGS, { name });
  return { categories, tags: TAG_NAMES.length };
}
