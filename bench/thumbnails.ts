/**
 * `pnpm bench:thumbnails`: regenerating the sizes of 100 large JPEGs through `regenerate-thumbnails/v1`
 * (images per second), and the latency of other API requests while that runs, next to the same requests on
 * an idle server. Results go to bench/RESULTS.md (section "thumbnails").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import express from 'express';
import sharp from 'sharp';
import { siterestExpress } from '@siterest/adapter-express';
import { createSite, localFileStorage, silentLogger } from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';
import { machine, recordSection } from './lib/results.js';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 100);
const WIDTH = 4000;
const HEIGHT = 3000;
const CLIENTS = Number(process.env.BENCH_REGENERATE_CLIENTS ?? 4);

const directory = await mkdtemp(join(tmpdir(), 'siterest-bench-thumbnails-'));
const site = createSite({
  store: memoryStore(),
  settings: { name: 'Bench', url: 'http://127.0.0.1' },
  logger: silentLogger,
  files: localFileStorage({ directory, baseUrl: 'http://127.0.0.1/uploads' }),
});
await site.ready();
const admin = await site.createUser({ login: 'admin', roles: ['administrator'] });
const { password } = await site.createApplicationPassword(admin.id, 'bench');
const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

// A 12-megapixel photo-like JPEG (gradient plus noise, so the encoder has real work), stored 100 times.
const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
for (let i = 0; i < pixels.length; i++) pixels[i] = ((i % (WIDTH * 3)) / 12 + Math.floor(i / (WIDTH * 3)) / 12 + Math.random() * 40) & 0xff;
const photo = await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
const ids: number[] = [];
for (let i = 0; i < IMAGES; i++) {
  const stored = await site.files.write(`2026/11/photo-${i}.jpg`, photo);
  const record = await site.store.attachments.create({
    type: 'attachment', status: 'inherit', authorId: admin.id, title: `photo-${i}`, content: '', excerpt: '', slug: `photo-${i}`, password: '',
    parentId: 0, menuOrder: 0, date: '2026-11-01 10:00:00', dateGmt: '2026-11-01 10:00:00', modified: '2026-11-01 10:00:00',
    modifiedGmt: '2026-11-01 10:00:00', trashedFrom: null, imageId: 0, mimeType: 'image/jpeg', file: stored.key,
    guid: site.files.url(stored.key), altText: '', sourceUrl: '', context: '',
    metadata: { width: WIDTH, height: HEIGHT, file: stored.key, filesize: stored.size, sizes: {}, image_meta: { aperture: '0', credit: '', camera: '', caption: '', created_timestamp: '0', copyright: '', focal_length: '0', iso: '0', shutter_speed: '0', title: '', orientation: '0', keywords: [] } },
  });
  ids.push(record.id);
}
// Something for the other requests to read: a few events.
for (let i = 0; i < 20; i++) {
  await site.store.events.create({
    type: 'cal_events', status: 'publish', authorId: admin.id, title: `Event ${i}`, content: '<p>Text</p>', excerpt: '', slug: `event-${i}`,
    password: '', parentId: 0, menuOrder: 0, date: '2026-11-01 10:00:00', dateGmt: '2026-11-01 10:00:00', modified: '2026-11-01 10:00:00',
    modifiedGmt: '2026-11-01 10:00:00', trashedFrom: null, imageId: ids[i % ids.length]!, startDate: '2030-01-01 10:00:00', endDate: '2030-01-01 12:00:00',
    startDateUtc: '2030-01-01 10:00:00', endDateUtc: '2030-01-01 12:00:00', timezone: 'UTC', allDay: false, cost: [], currencySymbol: '', currencyCode: '',
    currencyPosition: '', website: null, showMap: null, showMapLink: null, hideFromListings: false, featured: false, venueIds: [], organizerIds: [], categoryIds: [], tagIds: [],
  });
}

const app = express();
app.use('/api', siterestExpress(site));
const server = app.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;

const PROBES = [`${base}/cal/events/v1/events/${ids.length + 1}`, `${base}/wp/v2/media/${ids[0]}`, `${base}/cal/events/v1/categories`];

/** Back-to-back GETs of other routes for `until`; latencies in ms. */
async function probe(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; !until(); i++) {
    const start = performance.now();
    const response = await fetch(PROBES[i % PROBES.length]!);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`probe answered ${response.status}`);
    times.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return times;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const summary = (values: number[]) => ({ n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99), max: Math.max(...values) });

// Idle: the same probes with nothing else going on.
const idleEnd = performance.now() + 5000;
const idle = summary(await probe(() => performance.now() > idleEnd));

// Regeneration: CLIENTS requests at a time, every size made again (only_regenerate_missing_thumbnails=false).
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
let next = 0;
let done = false;
const started = performance.now();
const regenerating = Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const response = await fetch(`${base}/regenerate-thumbnails/v1/regenerate/${id}?only_regenerate_missing_thumbnails=false`, { method: 'POST', headers: { Authorization: auth } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`regenerate ${id} answered ${response.status}`);
    }
  }),
).then(() => {
  done = true;
});
const busy = summary(await probe(() => done));
await regenerating;
const seconds = (performance.now() - started) / 1000;
loop.disable();

const check = await site.store.attachments.get(ids[0]!);
const sizes = Object.keys(check!.metadata!.sizes).length;
server.close();
await rm(directory, { recursive: true, force: true });

const ms = (n: number) => n.toFixed(1);
const markdown = [
  '## Thumbnail regeneration',
  '',
  `\`POST /api/regenerate-thumbnails/v1/regenerate/{id}?only_regenerate_missing_thumbnails=false\` for ${IMAGES} JPEGs of ${WIDTH}×${HEIGHT} (12 MP, ${(photo.length / 1e6).toFixed(1)} MB), ${CLIENTS} requests at a time, memory store, Express, one process. Each run writes the \`-scaled\` copy and ${sizes} sizes (WordPress's defaults), all with sharp; image work is limited to 2 images at once (\`media.processor.concurrency\`).`,
  `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}.`,
  '',
  `| images | seconds | images/s | sizes written/s |`,
  '|---|---|---|---|',
  `| ${IMAGES} | ${seconds.toFixed(1)} | ${(IMAGES / seconds).toFixed(2)} | ${(((sizes + 1) * IMAGES) / seconds).toFixed(1)} |`,
  '',
  'Other requests meanwhile (back-to-back GETs of an event, an attachment and the categories, one client):',
  '',
  '| while | requests | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |',
  '|---|---|---|---|---|---|',
  `| idle | ${idle.n} | ${ms(idle.p50)} | ${ms(idle.p95)} | ${ms(idle.p99)} | ${ms(idle.max)} |`,
  `| regenerating | ${busy.n} | ${ms(busy.p50)} | ${ms(busy.p95)} | ${ms(busy.p99)} | ${ms(busy.max)} |`,
  '',
  `Event-loop delay during regeneration: p50 ${ms(loop.percentile(50) / 1e6)} ms, p99 ${ms(loop.percentile(99) / 1e6)} ms, max ${ms(loop.max / 1e6)} ms.`,
].join('\n');
recordSection('thumbnails', markdown);
console.log(markdown);
