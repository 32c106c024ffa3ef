import { Readable } from 'node:stream';
import { gzipSync, gunzipSync } from 'node:zlib';
import { request as httpRequest, ServerResponse } from 'node:http';
import type { onSendHookHandler } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createSite, manualClock, silentLogger } from '@siterest/core';
import { newEvent, rawRequest } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { siterestFastify } from '@siterest/adapter-fastify';
import { BodyParts } from '../src/body-parts.js';
import { serveWithFastify } from './serve.js';

/** The raw bytes of a GET, undecoded. */
function getBytes(url: string, headers: Record<string, string> = {}): Promise<{ headers: Record<string, unknown>; trailers: Record<string, unknown>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, trailers: response.trailers, bytes: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** An uncached site on the memory store with `count` events, one a day from 2027-03-01. */
async function siteWithEvents(count: number, title: (day: number) => string) {
  const store = memoryStore();
  const site = createSite({ store, cache: false, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
  for (let day = 1; day <= count; day++) {
    const date = `2027-03-0${day} 20:00:00`;
    await store.events.create(newEvent({ title: title(day), startDate: date, startDateUtc: date }));
  }
  return site;
}

describe('fastify: a list sent in pieces', () => {
  it('reaches an onSend hook of the app as an ordinary stream, and the client whole', async () => {
    const site = await siteWithEvents(5, (day) => `Concert ${day} — Café`);
    const expected = (await site.handle({ method: 'GET', path: '/cal/events/v1/events', query: '', headers: {}, basePath: '/api' })).body;
    const hooked: string[] = [];
    const server = await serveWithFastify(site, {
      configure: (app) => {
        // As a compression plugin does: the payload is read as a stream and replaced by the compressed bytes.
        app.addHook('onSend', async (request, reply, payload) => {
          if (request.headers['x-trailer'] === 'yes') reply.trailer('Server-Timing', async () => 'list');
          if (request.headers['accept-encoding'] !== 'gzip' || !(payload instanceof Readable)) return payload;
          const chunks: Buffer[] = [];
          for await (const chunk of payload) chunks.push(chunk as Buffer);
          hooked.push(request.url);
          reply.header('Content-Encoding', 'gzip');
          return gzipSync(Buffer.concat(chunks));
        });
      },
    });
    try {
      const plain = await getBytes(`${server.url}/cal/events/v1/events`);
      expect(plain.bytes.toString('utf8')).toBe(expected);
      expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
      const zipped = await getBytes(`${server.url}/cal/events/v1/events`, { 'Accept-Encoding': 'gzip' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(Number(zipped.headers['content-length'])).toBe(zipped.bytes.length);
      expect(gunzipSync(zipped.bytes).toString('utf8')).toBe(expected);
      expect(hooked).toEqual(['/api/cal/events/v1/events']);
      // An app hook that adds a trailer: Fastify then sends the answer chunked and pipes the stream itself.
      const trailed = await getBytes(`${server.url}/cal/events/v1/events`, { 'X-Trailer': 'yes' });
      expect(trailed.bytes.toString('utf8')).toBe(expected);
      expect(trailed.headers['content-length']).toBeUndefined();
      expect(trailed.trailers['server-timing']).toBe('list');
      // Keep-alive connections go on serving after a list sent in pieces.
      for (let i = 0; i < 3; i++) expect((await rawRequest(`${server.url}/cal/events/v1/events?per_page=2&page=${i + 1}`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('reach an onSend hook another plugin adds to every route through onRoute, as @fastify/compress does', async () => {
    const site = await siteWithEvents(3, (day) => `Talk ${day}`);
    const expected = (await site.handle({ method: 'GET', path: '/cal/events/v1/events', query: '', headers: {}, basePath: '/api' })).body;
    const hooked: string[] = [];
    const server = await serveWithFastify(site, {
      configure: (app) => {
        // Registered before the plugin, on the app's context: the plugin's routes inherit it. It appends its
        // hook after the route's own, as @fastify/compress (global) does.
        app.addHook('onRoute', (route) => {
          const compress: onSendHookHandler = async (request, reply, payload) => {
            hooked.push(request.url);
            if (request.headers['accept-encoding'] !== 'gzip' || !(payload instanceof Readable)) return payload;
            const chunks: Buffer[] = [];
            for await (const chunk of payload) chunks.push(chunk as Buffer);
            reply.header('Content-Encoding', 'gzip');
            return gzipSync(Buffer.concat(chunks));
          };
          const hooks = route.onSend;
          route.onSend = hooks === undefined ? [compress] : [...(Array.isArray(hooks) ? hooks : [hooks]), compress];
        });
      },
    });
    try {
      const zipped = await getBytes(`${server.url}/cal/events/v1/events`, { 'Accept-Encoding': 'gzip' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(Number(zipped.headers['content-length'])).toBe(zipped.bytes.length);
      expect(gunzipSync(zipped.bytes).toString('utf8')).toBe(expected);
      const plain = await getBytes(`${server.url}/cal/events/v1/events`);
      expect(plain.bytes.toString('utf8')).toBe(expected);
      expect(hooked).toEqual(['/api/cal/events/v1/events', '/api/cal/events/v1/events']);
    } finally {
      await server.close();
    }
  });

  it('skip Fastify\'s stream sending when no hook of the app takes them, with the app\'s reply headers and onResponse hooks', async () => {
    const site = await siteWithEvents(3, (day) => `Talk ${day}`);
    const expected = await site.handle({ method: 'GET', path: '/cal/events/v1/events', query: '', headers: {}, basePath: '/api' });
    const responded: Array<[string, number]> = [];
    const server = await serveWithFastify(site, {
      configure: (app) => {
        app.addHook('onRequest', async (request, reply) => {
          reply.header('X-App', 'kept');
          // A header siterest sets too: Fastify's reply headers win when it sends, and so here.
          if (request.headers['x-override'] === 'yes') reply.header('X-Robots-Tag', 'none');
          if (request.headers['x-trailer'] === 'yes') reply.trailer('Server-Timing', async () => 'list');
        });
        app.addHook('onResponse', async (request, reply) => {
          responded.push([request.url, reply.statusCode]);
        });
      },
    });
    const piped = vi.spyOn(BodyParts.prototype, 'pipe');
    // With no onSend hook of the app, the answer never becomes a stream: the plugin writes it before Fastify sends.
    const streamed = vi.spyOn(BodyParts.prototype, 'writeInto');
    try {
      const plain = await getBytes(`${server.url}/cal/events/v1/events`);
      expect(plain.bytes.toString('utf8')).toBe(expected.body);
      expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
      expect(plain.headers['x-app']).toBe('kept');
      expect(plain.headers['x-tec-total']).toBe('3');
      expect(plain.headers['x-robots-tag']).toBe('noindex');
      expect(piped).not.toHaveBeenCalled();
      expect(streamed).not.toHaveBeenCalled();
      const overridden = await getBytes(`${server.url}/cal/events/v1/events`, { 'X-Override': 'yes' });
      expect(overridden.headers['x-robots-tag']).toBe('none');
      expect(overridden.bytes.toString('utf8')).toBe(expected.body);
      expect(piped).not.toHaveBeenCalled();
      // A trailer is written by Fastify after the body: such an answer goes Fastify's way.
      const trailed = await getBytes(`${server.url}/cal/events/v1/events`, { 'X-Trailer': 'yes' });
      expect(trailed.bytes.toString('utf8')).toBe(expected.body);
      expect(trailed.trailers['server-timing']).toBe('list');
      expect(piped).toHaveBeenCalledTimes(1);
      await vi.waitFor(() => expect(responded).toEqual([['/api/cal/events/v1/events', 200], ['/api/cal/events/v1/events', 200], ['/api/cal/events/v1/events', 200]]));
      for (let i = 0; i < 3; i++) expect((await rawRequest(`${server.url}/cal/events/v1/events?per_page=1&page=${i + 1}`)).status).toBe(200);
    } finally {
      piped.mockRestore();
      streamed.mockRestore();
      await server.close();
    }
  });
});

describe('fastify: an answer of kept bytes', () => {
  it('is written at once, with the app\'s reply headers and onResponse hooks, and reaches an onSend hook of the app as bytes', async () => {
    const store = memoryStore();
    const site = createSite({ store, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
    await store.events.create(newEvent({ title: 'Recital', startDate: '2027-03-01 20:00:00', startDateUtc: '2027-03-01 20:00:00' }));
    const expected = await site.handle({ method: 'GET', path: '/cal/events/v1/events', query: '', headers: {}, basePath: '/api' });
    const responded: string[] = [];
    const hooked: string[] = [];
    const server = await serveWithFastify(site, {
      configure: (app) => {
        app.addHook('onRequest', async (request, reply) => {
          reply.header('X-App', 'kept');
          if (request.headers['x-override'] === 'yes') reply.header('X-Robots-Tag', 'none');
        });
        app.addHook('onResponse', async (request) => {
          responded.push(request.url);
        });
        app.register(async (scoped) => {
          // An app hook on the routes of one context only: answers there go Fastify's way, as bytes.
          scoped.addHook('onSend', async (_request, _reply, payload) => {
            hooked.push(Buffer.isBuffer(payload) ? 'bytes' : typeof payload);
            return payload;
          });
          await scoped.register(siterestFastify, { site, prefix: '/hooked' });
        });
      },
    });
    // Fastify's own sending sets each header on the Node response; the plugin writes the head in one call.
    const setHeader = vi.spyOn(ServerResponse.prototype, 'setHeader');
    try {
      for (let round = 0; round < 3; round++) {
        const plain = await getBytes(`${server.url}/cal/events/v1/events`);
        expect(plain.bytes.toString('utf8')).toBe(expected.body);
        expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
        expect(plain.headers['content-type']).toBe('application/json; charset=UTF-8');
        expect(plain.headers['x-app']).toBe('kept');
        expect(plain.headers['x-robots-tag']).toBe('noindex');
      }
      const overridden = await getBytes(`${server.url}/cal/events/v1/events`, { 'X-Override': 'yes' });
      expect(overridden.headers['x-robots-tag']).toBe('none');
      expect(overridden.bytes.toString('utf8')).toBe(expected.body);
      expect(setHeader).not.toHaveBeenCalled();
      await vi.waitFor(() => expect(responded).toHaveLength(4));
      const hookedUrl = `${server.url.replace(/\/api$/, '/hooked')}/cal/events/v1/events`;
      const first = await getBytes(hookedUrl);
      const again = await getBytes(hookedUrl);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(JSON.parse(again.bytes.toString('utf8')).events).toHaveLength(JSON.parse(expected.body).events.length);
      expect(hooked.at(-1)).toBe('bytes');
    } finally {
      setHeader.mockRestore();
      await server.close();
    }
  });
});
