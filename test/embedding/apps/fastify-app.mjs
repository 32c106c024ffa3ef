// A Fastify 5 app that embeds siterest the way the README says, built on the packed packages.
import Fastify from 'fastify';
import { siterestFastify } from '@siterest/adapter-fastify';
import { announce, openDatabase, openSite, sessionStore, stopOnSignal } from './common.mjs';

const database = await openDatabase();
const sessions = sessionStore();
// The hook gets Fastify's request: here the app's own onRequest hook has put the session on it.
const { site, editor } = await openSite(database.store, (_request, request) =>
  request.session ? { userId: request.session.userId, session: request.session.sid } : null,
);

const app = Fastify();
app.decorateRequest('session', null);
// The app's own body parser for forms (Fastify has one for JSON already).
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
  done(null, Object.fromEntries(new URLSearchParams(body))),
);
app.addHook('onRequest', async (request) => {
  request.session = sessions.find(request.headers.cookie);
});
app.get('/api/app/before', async () => ({ app: 'before' }));
app.post('/app/login', async (_request, reply) => {
  const sid = sessions.start(editor.id);
  reply.header('Set-Cookie', `app.sid=${sid}; HttpOnly; SameSite=Lax; Path=/`);
  return { nonce: await site.createNonce(editor.id, { session: sid }) };
});
await app.register(siterestFastify, { site, prefix: '/api' });
app.get('/api/app/after', async () => ({ app: 'after', appUsers: await database.countAppUsers() }));
app.post('/api/app/echo', async (request) => ({ echoed: request.body }));
app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ app: 'not found' }));

await app.listen({ port: 0, host: '127.0.0.1' });
announce(app.server.address().port);
stopOnSignal(async () => {
  await app.close();
  await site.close();
  await database.close();
});
