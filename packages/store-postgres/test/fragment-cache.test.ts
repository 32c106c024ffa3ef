import { fragmentCacheContractSuite } from '@siterest/core/testing';
import { emptySchema, useMigratedStore } from './support/database.js';

const migrated = useMigratedStore('fragment_cache');

fragmentCacheContractSuite(process.env.DATABASE_URL ? 'postgres (server)' : 'postgres (PGlite)', {
  create: async () => {
    await emptySchema(migrated.db, migrated.schema);
    return migrated.store;
  },
});
