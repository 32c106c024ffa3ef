import { storeContractSuite } from '@siterest/core/testing';
import { emptySchema, useMigratedStore } from './support/database.js';

// One schema for the file, migrated once; every test starts from emptied tables and restarted sequences.
const migrated = useMigratedStore('contract');

storeContractSuite(DATABASE_LABEL(), {
  create: async () => {
    await emptySchema(migrated.db, migrated.schema);
    return migrated.store;
  },
});

function DATABASE_LABEL(): string {
  return process.env.DATABASE_URL ? 'postgres (server)' : 'postgres (PGlite)';
}
