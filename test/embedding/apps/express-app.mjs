// An Express 5 app that embeds siterest the way the README says, built on the packed packages.
import express from 'express';
import { siterestExpress } from '@siterest/adapter-express';
import { announce, openDatabase, openSite, sessionStore, stopOnSignal } from './common.mjs';

const database = await openDatabase();
const sessions = sessionStore();
// The hook gets Express's req: here the app's own session middleware has put the signed-in user on it.
const { site, editor } = await openSite(database.store, (_request, req) =>
  req.session ? { userId: req.session.userId, session: req.session.sid } : null,
);

const app = express();
app.use(express.json());
app.use(express.urlencoded());
app.use((req, _res, next) => {
  req.session = sessions.find(req.headers.cookie);
  next();
});
app.get('/api/app/before', (_req, res) => res.json({ app: 'before' }));
app.post('/app/login', async (_req, res) => {
  const sid = sessions.start(editor.id);
  res.setHeader('Set-Cookie', `app.sid=${sid}; HttpOnly; SameSite=Lax; Path=/`);
  res.json({ nonce: await site.createNonce(editor.id, { session: sid }) });
});
app.use('/api', siterestExpress(site));
app.get('/api/app/after', async (_req, res) => res.json({ app: 'after', appUsers: await database.countAppUsers() }));
app.post('/api/app/echo', (req, res) => res.json({ echoed: req.body }));
app.use((_req, res) => res.status(404).json({ app: 'not found' }));

const server = app.listen(0, '127.0.0.1', () => announce(server.address().port));
stopOnSignal(async () => {
  await new Promise((resolve) => server.close(resolve));
  await site.close();
  await database.close();
});
