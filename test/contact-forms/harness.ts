import { afterAll, beforeAll } from 'vitest';
import {
  contactFormsNamespace,
  createSite,
  builtInNamespaces,
  manualClock,
  silentLogger,
  type ContactFormsOptions,
  type ManualClock,
  type NamespaceDefinition,
  type Site,
  type SiteStore,
} from '@siterest/core';
import { basicAuth, rawRequest, type RawResponse, type RunningServer } from '@siterest/core/testing';
import { serveWithExpress } from '../../packages/adapter-express/test/serve.js';
import { storeVariants, type StoreVariant } from '../support/stores.js';

export interface Answer {
  status: number;
  headers: RawResponse['headers'];
  body: any;
  raw: string;
  header(name: string): string | undefined;
}

export interface FormsSite {
  site: Site;
  store: SiteStore;
  clock: ManualClock;
  server: RunningServer;
  admin: string;
  editor: string;
  subscriber: string;
  json(method: string, path: string, body?: unknown, auth?: string): Promise<Answer>;
  /** Posts a multipart form as a browser does. */
  multipart(path: string, parts: Part[], headers?: Record<string, string>): Promise<Answer>;
}

export type Part = [name: string, value: string] | [name: string, file: { filename: string; content: Buffer | string; type?: string }];

export const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

export function multipartBody(parts: Part[], boundary = '----WebKitFormBoundary7MA4YWxkTrZu0gW'): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        Buffer.isBuffer(value.content) ? value.content : Buffer.from(value.content),
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export function toAnswer(response: RawResponse): Answer {
  let body: any = null;
  try {
    body = response.body ? JSON.parse(response.body) : null;
  } catch {
    body = response.body;
  }
  return {
    status: response.status,
    headers: response.headers,
    raw: response.body,
    body,
    header: (name) => response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1],
  };
}

export interface FormsSiteOptions {
  store?: StoreVariant;
  forms?: ContactFormsOptions;
  serve?: (site: Site) => Promise<RunningServer>;
  siteOptions?: Partial<Parameters<typeof createSite>[0]>;
}

/** A site with contact forms served over real HTTP; starts in beforeAll, stops in afterAll. */
export function useFormsSite(options: FormsSiteOptions = {}): FormsSite {
  const out = {} as FormsSite;
  const variant = options.store ?? storeVariants()[0]!;
  beforeAll(async () => {
    const clock = manualClock('2026-11-21T16:41:37Z');
    const store = await variant.create();
    const namespaces: NamespaceDefinition[] = builtInNamespaces().map((ns) =>
      ns.namespace === 'contact-forms/v1' ? contactFormsNamespace({ rateLimit: false, ...options.forms }) : ns,
    );
    const site = createSite({
      store,
      settings: { name: 'Forms & Co', url: 'http://127.0.0.1:8080', admin_email: 'admin@example.org' },
      clock,
      logger: silentLogger,
      namespaces,
      ...options.siteOptions,
    });
    await site.createUser({ login: 'admin', email: 'admin@example.org', roles: ['administrator'] });
    await site.createUser({ login: 'editor', email: 'editor@example.org', roles: ['editor'] });
    await site.createUser({ login: 'reader', email: 'reader@example.org', roles: ['subscriber'] });
    const admin = basicAuth('admin', (await site.createApplicationPassword('admin', 'tests')).password);
    const editor = basicAuth('editor', (await site.createApplicationPassword('editor', 'tests')).password);
    const subscriber = basicAuth('reader', (await site.createApplicationPassword('reader', 'tests')).password);
    const server = await (options.serve ?? serveWithExpress)(site);
    Object.assign(out, {
      site,
      store,
      clock,
      server,
      admin,
      editor,
      subscriber,
      json: async (method: string, path: string, body?: unknown, auth?: string) => {
        const headers: Record<string, string> = {};
        if (auth) headers.Authorization = auth;
        if (body !== undefined) headers['Content-Type'] = 'application/json';
        return toAnswer(await rawRequest(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
      },
      multipart: async (path: string, parts: Part[], headers: Record<string, string> = {}) => {
        const boundary = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
        return toAnswer(
          await rawRequest(server.url + path, {
            method: 'POST',
            headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'User-Agent': BROWSER_UA, ...headers },
            body: multipartBody(parts, boundary),
          }),
        );
      },
    });
  });
  afterAll(async () => {
    await out.server?.close();
    if (out.store) await variant.destroy(out.store);
  });
  return out;
}

export const NS = '/contact-forms/v1';

/** The hidden fields Contact Form 7's rendered form posts. */
export function hidden(formId: number, unitTag = `wpcf7-f${formId}-o1`): Part[] {
  return [
    ['_wpcf7', String(formId)],
    ['_wpcf7_version', '6.1'],
    ['_wpcf7_locale', 'en_US'],
    ['_wpcf7_unit_tag', unitTag],
    ['_wpcf7_container_post', '0'],
    ['_wpcf7_posted_data_hash', ''],
  ];
}
