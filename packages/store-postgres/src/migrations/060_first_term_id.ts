import type { Migration } from './migration.js';

/**
 * A fresh WordPress already has term 1 ("Uncategorized", taxonomy `category`), so the first term a site makes
 * is 2: ids, and the `term_id` of `term_exists` errors, then match a fresh site. The terms sequence starts at 2
 * (emptying the table with RESTART IDENTITY goes back there too); a store that has handed out term ids already
 * keeps its sequence.
 */
export const firstTermId: Migration = {
  version: 60,
  name: 'first_term_id',
  extensions: [],
  statements: [
    `ALTER TABLE terms ALTER COLUMN id SET START WITH 2`,
    `DO $$
DECLARE
  seq text := pg_get_serial_sequence('terms', 'id');
  called boolean;
  last bigint;
BEGIN
  EXECUTE format('SELECT is_called, last_value FROM %s', seq) INTO called, last;
  IF NOT called AND last < 2 THEN
    PERFORM setval(seq, 2, false);
  END IF;
END $$`,
  ],
};
