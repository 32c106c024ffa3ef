import type { Migration } from './migration.js';

/** Appends `-<id>` to every row that shares its key with an older row, until no two rows do (a slug may grow twice). */
const dedupe = (table: string, key: string, where: string) => `DO $$
BEGIN
  LOOP
    UPDATE ${table} t SET slug = t.slug || '-' || t.id
     WHERE ${where.replaceAll('{}', 't')}
       AND EXISTS (SELECT 1 FROM ${table} o WHERE ${key.split(', ').map((c) => `o.${c} = t.${c}`).join(' AND ')} AND o.id < t.id AND ${where.replaceAll('{}', 'o')});
    EXIT WHEN NOT FOUND;
  END LOOP;
END $$`;

/** The statuses WordPress gives a unique slug (wp_unique_post_slug leaves drafts alone; siterest's trash keeps `__trashed` slugs as they come). */
const SLUGGED_POST = `{}.slug <> '' AND {}.status NOT IN ('draft', 'pending', 'auto-draft', 'trash')`;

/**
 * Uniqueness WordPress's model needs, kept by the database so that it holds under concurrent requests and
 * across instances: a term slug is unique within its taxonomy, and a post slug within its type once the post
 * is past the draft stage. Rows that broke the rule before (written concurrently) are renamed `<slug>-<id>`,
 * the oldest keeping its slug.
 */
export const uniqueSlugs: Migration = {
  version: 3,
  name: 'unique_slugs',
  extensions: [],
  statements: [
    dedupe('terms', 'taxonomy, slug', 'TRUE'),
    `DROP INDEX terms_taxonomy_slug`,
    `CREATE UNIQUE INDEX terms_taxonomy_slug ON terms (taxonomy, slug)`,
    dedupe('posts', 'type, slug', SLUGGED_POST),
    `CREATE UNIQUE INDEX posts_type_slug_unique ON posts (type, slug) WHERE ${SLUGGED_POST.replaceAll('{}.', '')}`,
  ],
};
