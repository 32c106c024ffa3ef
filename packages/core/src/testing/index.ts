export { storeContractSuite, type StoreFactory } from './store-contract.js';
export { adapterContractSuite, contractSite, type AdapterHarness, type ContractSessions, type RunningServer, type ServeOptions } from './adapter-contract.js';
export { rawRequest, comparable, header, headerNames, basicAuth, type RawResponse, type RawRequestOptions } from './http-client.js';
export { newEvent, newOrganizer, newVenue, taxonomies } from './fixtures.js';
export { newContactForm, newPopup, newSubmission } from './store-contract-forms.js';
export { mediaStoreContract, newAttachment } from './media-contract.js';
export { redirectionStoreContract, newRedirect, newLogRow } from './redirection-contract.js';
export { answerCacheContractSuite, type AnswerCacheHarness } from './answer-cache-contract.js';
