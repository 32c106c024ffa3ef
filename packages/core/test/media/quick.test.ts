import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { createSite, localFileStorage } from '../../src/index.js';
import { memoryStore } from '@siterest/store-memory';

it('uploads', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'm-'));
  const site = createSite({ store: memoryStore(), files: localFileStorage({ directory: dir, baseUrl: 'https://example.org/uploads' }), settings: { url: 'https://example.org', home: 'https://example.org' } });
  const admin = await site.createUser({ login: 'admin', roles: ['administrator'] });
  const jpeg = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#336699' } }).jpeg().toBuffer();
  const res = await site.handle({ method: 'POST', path: '/wp/v2/media', headers: { 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="big photo.jpg"' }, body: { kind: 'raw', contentType: 'image/jpeg', bytes: jpeg }, principal: { id: admin.id, login: 'admin', roles: ['administrator'] } });
  console.log(res.status, res.body.slice(0, 3000));
  expect(res.status).toBe(201);
  await rm(dir, { recursive: true });
});
