import type { Migration } from './migration.js';

/**
 * One change-version sequence per change scope (store.changeVersion(scopes)), replacing the single
 * `siterest_changes`: a write to one scope (an application password's use stamp) leaves cached answers of the
 * others valid. Sequences are not transactional, so advancing them never blocks writers.
 */
export const changeScopes: Migration = {
  version: 10,
  name: 'change_scopes',
  extensions: [],
  statements: [
    'CREATE SEQUENCE siterest_changes_calendar',
    'CREATE SEQUENCE siterest_changes_options',
    'CREATE SEQUENCE siterest_changes_users',
    'CREATE SEQUENCE siterest_changes_application_passwords',
    'DROP SEQUENCE siterest_changes',
  ],
};
