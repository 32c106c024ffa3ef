import type { Migration } from './migration.js';

/** Popups beside their `posts` rows, with their open counters, and the site-wide open total. */
export const popups: Migration = {
  version: 31,
  name: 'popups',
  extensions: [],
  statements: [
    `CREATE TABLE popups (
      post_id bigint PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
      open_count bigint NOT NULL DEFAULT 0,
      open_count_total bigint NOT NULL DEFAULT 0,
      last_opened bigint NOT NULL DEFAULT 0
    )`,
    `CREATE TABLE popup_totals (
      name text PRIMARY KEY,
      value bigint NOT NULL DEFAULT 0
    )`,
    `INSERT INTO popup_totals (name, value) VALUES ('open_count', 0)`,
  ],
};
