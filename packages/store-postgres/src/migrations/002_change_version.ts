import type { Migration } from './migration.js';

/**
 * A sequence every committed write advances (store.changeVersion): instances compare it to know whether an
 * answer they cached is still current. Sequences are not transactional, so advancing it never blocks writers.
 */
export const changeVersion: Migration = {
  version: 2,
  name: 'change_version',
  extensions: [],
  statements: ['CREATE SEQUENCE siterest_changes'],
};
