import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { createSite, localFileStorage, manualClock, silentLogger, type CreateSiteOptions, type ManualClock, type RoleName, type Site, type SiteStore } from '@siterest/core';
import { basicAuth, rawRequest, type RunningServer } from '@siterest/core/testing';
import { serveWithExpress } from '../../packages/adapter-express/test/serve.js';
import { storeVariants, type StoreVariant } from '../support/stores.js';

type Role = RoleName | 'anonymous';

interface Answer {
  status: number;
  headers: Array<[string, string]>;
  body: any;
  raw: string;
  header(name: string): string | undefined;
  headerAll(name: string): string[];
}

export interface MediaSite {
  site: Site;
  clock: ManualClock;
  server: RunningServer;
  /** Where uploads are stored on disk. */
  directory: string;
  users: Record<RoleName, { id: number; auth: string }>;
  call(role: Role, method: string, path: string, options?: { json?: unknown; body?: Buffer | string; headers?: Record<string, string> }): Promise<Answer>;
  /** A raw-body upload as WordPress clients send it. */
  upload(role: Role, data: Buffer, filename: string, contentType?: string, extra?: Record<string, string>): Promise<Answer>;
  path(key: string): string;
}

export interface MediaSiteOptions {
  store?: StoreVariant;
  site?: Partial<CreateSiteOptions>;
}

/** A site with one user per role and uploads in a temporary folder, served by Express on a random port. */
export function useMediaSite(options: MediaSiteOptions = {}): MediaSite {
  const ctx = {} as MediaSite;
  const variant = options.store ?? storeVariants()[0]!;
  let store: SiteStore | undefined;
  beforeAll(async () => {
    const directory = await mkdtemp(join(tmpdir(), 'siterest-media-'));
    const clock = manualClock('2026-11-21T16:41:37Z');
    store = await variant.create();
    const site = createSite({
      store,
      settings: { name: 'Media Test', url: 'http://127.0.0.1:8080' },
      clock,
      logger: silentLogger,
      files: localFileStorage({ directory, baseUrl: 'http://127.0.0.1:8080/uploads' }),
      ...options.site,
    });
    const users = {} as MediaSite['users'];
    for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const) {
      const user = await site.createUser({ login: role, roles: [role], displayName: `The ${role}` });
      users[role] = { id: user.id, auth: basicAuth(role, (await site.createApplicationPassword(role, 'tests')).password) };
    }
    const server = await serveWithExpress(site);
    const call: MediaSite['call'] = async (role, method, path, opts = {}) => {
      const headers: Record<string, string> = { ...opts.headers };
      if (role !== 'anonymous') headers.Authorization = users[role].auth;
      let body: Buffer | string | undefined = opts.body;
      if (opts.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(opts.json);
      }
      const response = await rawRequest(server.url + path, { method, headers, body });
      let parsed: unknown = null;
      try {
        parsed = response.body ? JSON.parse(response.body) : null;
      } catch {
        parsed = null;
      }
      return {
        status: response.status,
        headers: response.headers,
        raw: response.body,
        body: parsed,
        header: (name) => response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
        headerAll: (name) => response.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v),
      };
    };
    Object.assign(ctx, {
      site,
      clock,
      server,
      directory,
      users,
      call,
      upload: (role: Role, data: Buffer, filename: string, contentType = 'image/jpeg', extra: Record<string, string> = {}) =>
        call(role, 'POST', '/wp/v2/media', { body: data, headers: { 'Content-Type': contentType, 'Content-Disposition': `attachment; filename="${filename}"`, ...extra } }),
      path: (key: string) => join(directory, ...key.split('/')),
    });
  });
  afterAll(async () => {
    await ctx.server?.close();
    if (store) await variant.destroy(store);
    if (ctx.directory) await rm(ctx.directory, { recursive: true, force: true });
  });
  return ctx;
}

/** An image of the given format and size, drawn by sharp (a gradient, so encoders do real work). */
export async function makeImage(format: 'jpeg' | 'png' | 'webp' | 'gif' | 'avif', width: number, height: number, options: { orientation?: number } = {}): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = 128;
    }
  }
  let image = sharp(pixels, { raw: { width, height, channels: 3 } });
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toFormat(format).toBuffer();
}

/** Width and height of a file on disk, read back with sharp. */
export async function dimensionsOf(path: string): Promise<{ width: number; height: number; format: string }> {
  const meta = await sharp(path).metadata();
  return { width: meta.width!, height: meta.height!, format: meta.format! };
}

export const MEDIA = '/wp/v2/media';
