import { describe, expect, it } from 'vitest';
import { chunkApplicationPassword, createSite, silentLogger } from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';

describe('application passwords', () => {
  it('are shown once, stored only hashed, and accepted with or without the spaces WordPress shows', async () => {
    const site = createSite({ store: memoryStore(), logger: silentLogger });
    const user = await site.createUser({ login: 'editor', roles: ['editor'] });
    const { password, uuid } = await site.createApplicationPassword(user.id, 'CLI');
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    const [stored] = await site.store.applicationPasswords.listForUser(user.id);
    expect(stored!.uuid).toBe(uuid);
    expect(JSON.stringify(stored)).not.toContain(password);
    expect(stored!.passwordHash).toMatch(/^sha256\$[\w-]+\$[0-9a-f]{64}$/);

    const as = async (secret: string) =>
      site.handle({
        method: 'POST',
        path: '/cal/events/v1/tags',
        headers: { authorization: `Basic ${Buffer.from(`editor:${secret}`).toString('base64')}`, 'content-type': 'application/json' },
        body: { kind: 'raw', contentType: 'application/json', bytes: Buffer.from(JSON.stringify({ name: `Tag ${secret.length}` })) },
      });
    expect((await as(password)).status).toBe(201);
    expect((await as(chunkApplicationPassword(password))).status).toBe(201);
    expect(chunkApplicationPassword(password)).toMatch(/^(\w{4} ){5}\w{4}$/);
    const wrong = await as(password.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')));
    expect([wrong.status, JSON.parse(wrong.body).code]).toEqual([401, 'incorrect_password']);
    // Revoked passwords stop working at once.
    expect(await site.revokeApplicationPasswords(user.id, 'CLI')).toBe(1);
    expect((await as(password)).status).toBe(401);
  });

  it('can be turned off, leaving Basic credentials to the host app', async () => {
    const site = createSite({ store: memoryStore(), applicationPasswords: false, logger: silentLogger });
    const root = JSON.parse((await site.handle({ method: 'GET', path: '/', headers: { authorization: 'Basic eDp5' } })).body);
    expect(root.authentication).toEqual([]);
  });
});
