export { storeContractSuite, type StoreFactory } from './store-contract.js';
export { newEvent, newOrganizer, newVenue, taxonomies } from './fixtures.js';
