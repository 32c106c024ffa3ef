// Compiled by pack:check against the packed tarballs with `strict` and `skipLibCheck: false` (ESM).
import express, { type Request } from 'express';
import Fastify, { type FastifyRequest } from 'fastify';
import pg from 'pg';
import { ApiError, createSite, defineNamespace, READABLE, type AuthenticateResult, type Site, type SiteStore } from '@siterest/core';
import { seedDemoSite } from '@siterest/core/demo';
import { adapterContractSuite, contractSite, type AdapterHarness } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { openPGlite, postgresStore, type PostgresStoreOptions } from '@siterest/store-postgres';
import { siterestExpress } from '@siterest/adapter-express';
import { siterestFastify } from '@siterest/adapter-fastify';

type SignedIn = Request & { user?: { id: number } };

const fromPool: SiteStore = postgresStore({ pool: new pg.Pool({ connectionString: 'postgres://127.0.0.1/app' }) });
const fromPGlite: SiteStore = postgresStore({ pglite: await openPGlite('./data') });
const options: PostgresStoreOptions = { pglite: await openPGlite(), schema: 'siterest', migrate: true };
const own = postgresStore({ connectionString: 'postgres://127.0.0.1/app', poolConfig: { max: 5, statement_timeout: 5000 } });
await own.migrate();

const mine = defineNamespace({
  namespace: 'mine/v1',
  routes: [{ path: '/hello', endpoints: [{ methods: READABLE, handler: () => ({ hello: 'world' }) }] }],
});

const expressSite = createSite({
  store: memoryStore(),
  namespaces: [mine],
  cors: { origins: ['https://app.example'] },
  authenticate: (_request, req: SignedIn): AuthenticateResult => (req.user ? { userId: req.user.id, session: 'x' } : null),
});
const app = express();
app.use(express.json());
app.use('/api', siterestExpress(expressSite, { unmatched: 'next' }));

const fastifySite: Site<FastifyRequest> = createSite({ store: fromPool, authenticate: (_request, request: FastifyRequest) => (request.headers.authorization ? { login: 'admin', credentials: 'header' } : null) });
const fastify = Fastify();
await fastify.register(siterestFastify, { site: fastifySite, prefix: '/api', unmatched: 'rest_no_route' });

const nonce: string = await expressSite.createNonce(1, { session: 'x' });
const error = new ApiError('custom', 'Custom.', 400);
await seedDemoSite(createSite({ store: fromPGlite }));
const harness: AdapterHarness = { createStore: () => memoryStore(), serve: async () => ({ url: '', close: async () => {} }) };
void [options, nonce, error, harness, adapterContractSuite, contractSite];
