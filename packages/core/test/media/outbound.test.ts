import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OutboundClient, OutboundRequestError } from '../../src/media/outbound.js';

/** Every address a socket tried to connect to during a test. */
let connections: string[] = [];
const originalConnect = net.Socket.prototype.connect;

/**
 * Every address a socket was about to connect to: IP literals as given, names once their lookup succeeded
 * (a lookup our guard refuses never yields an address, so nothing is attempted).
 */
beforeEach(() => {
  connections = [];
  vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string } | number | string;
    const host = typeof first === 'object' && first !== null ? (first.host ?? '') : typeof args[1] === 'string' ? args[1] : '';
    if (net.isIP(host.replace(/^\[|\]$/g, ''))) connections.push(host);
    this.once('lookup', (error: Error | null, address: string) => {
      if (!error && address) connections.push(address);
    });
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  // No test may ever try to reach beyond this machine.
  for (const address of connections) expect(['127.0.0.1', '::1']).toContain(address);
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundRequestError);
    return (error as OutboundRequestError).code;
  }
  throw new Error('the request was not refused');
}

let server: Server;
let port = 0;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/redirect') {
      res.writeHead(302, { Location: url.searchParams.get('to') ?? '/' });
      res.end();
      return;
    }
    if (url.pathname === '/loop') {
      res.writeHead(302, { Location: '/loop' });
      res.end();
      return;
    }
    if (url.pathname === '/big') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('x'.repeat(5000));
      return;
    }
    if (url.pathname === '/slow') {
      setTimeout(() => res.end('late'), 2000);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A resolver that knows a few names and never asks DNS. */
const stubbed = (table: Record<string, string[]>) => async (hostname: string) => {
  const found = table[hostname];
  if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('the guarded outbound client, by default', () => {
  const client = new OutboundClient({
    resolve: stubbed({
      'ten.test': ['10.1.2.3'],
      'lan.test': ['192.168.1.20'],
      'corp.test': ['172.16.5.4'],
      'metadata.test': ['169.254.169.254'],
      'ula.test': ['fd12:3456::1'],
      'mixed.test': ['93.184.216.34', '127.0.0.1'],
      'mapped.test': ['::ffff:10.0.0.1'],
      localhost: ['127.0.0.1', '::1'],
    }),
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://10.0.0.1/',
    'http://10.255.255.255/',
    'http://172.16.0.1/',
    'http://172.31.255.254/',
    'http://192.168.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://198.18.0.1/',
    'http://203.0.113.9/',
  ])('refuses %s before connecting', async (url) => {
    expect(await refusal(client.fetch(url, { maxBytes: 1000 }))).toBe('forbidden_address');
    expect(connections).toEqual([]);
  });

  it.each(['localhost', 'ten.test', 'lan.test', 'corp.test', 'metadata.test', 'ula.test', 'mapped.test', 'mixed.test'])(
    'refuses the name %s, which resolves to a private address, at the socket lookup',
    async (host) => {
      expect(await refusal(client.fetch(`http://${host}/`, { maxBytes: 1000 }))).toBe('forbidden_address');
      expect(connections).toEqual([]);
    },
  );

  it('refuses other schemes, credentials, other ports and names that do not resolve', async () => {
    expect(await refusal(client.fetch('ftp://example.org/', { maxBytes: 10 }))).toBe('forbidden_scheme');
    expect(await refusal(client.fetch('file:///etc/passwd', { maxBytes: 10 }))).toBe('forbidden_scheme');
    expect(await refusal(client.fetch('http://user:secret@example.org/', { maxBytes: 10 }))).toBe('forbidden_credentials');
    expect(await refusal(client.fetch('http://example.org:22/', { maxBytes: 10 }))).toBe('forbidden_port');
    expect(await refusal(client.fetch('http://nowhere.test/', { maxBytes: 10 }))).toBe('unresolvable_host');
    expect(await refusal(client.fetch('not a url', { maxBytes: 10 }))).toBe('invalid_url');
    expect(connections).toEqual([]);
  });

  it('refuses the loopback test server itself: loopback is never reachable without an explicit allow', async () => {
    expect(await refusal(client.fetch(`http://127.0.0.1:${port}/`, { maxBytes: 10 }))).toBe('forbidden_address');
    expect(hits).toBe(0);
  });
});

describe('with loopback explicitly allowed (how tests reach a local server)', () => {
  const client = new OutboundClient({
    allow: ['127.0.0.1/32'],
    timeoutMs: 500,
    resolve: stubbed({ 'ten.test': ['10.9.9.9'], 'lan.test': ['192.168.7.7'], localhost: ['127.0.0.1'] }),
  });

  it('fetches from the allowed range on any port', async () => {
    const answer = await client.fetch(`http://127.0.0.1:${port}/`, { maxBytes: 100 });
    expect([answer.status, answer.body.toString()]).toEqual([200, 'hello']);
    // The recorder sees real connections, so the empty lists above mean nothing was attempted.
    expect(connections).toContain('127.0.0.1');
  });

  it.each([
    'http://10.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:192.168.0.1]/',
    'http://169.254.169.254/',
    'http://[fc00::1]/',
    'http://ten.test/',
    'http://lan.test/',
    'http://172.16.0.9/',
  ])('still refuses a redirect to %s, checked again after the hop', async (target) => {
    const code = await refusal(client.fetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`, { maxBytes: 100 }));
    expect(code).toBe('forbidden_address');
  });

  it('follows allowed redirects a bounded number of times', async () => {
    const followed = await client.fetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(`http://localhost:${port}/ok`)}`, { maxBytes: 100 });
    expect(followed.body.toString()).toBe('hello');
    expect(followed.url).toBe(`http://localhost:${port}/ok`);
    expect(await refusal(client.fetch(`http://127.0.0.1:${port}/loop`, { maxBytes: 100 }))).toBe('too_many_redirects');
  });

  it('bounds size and time', async () => {
    expect(await refusal(client.fetch(`http://127.0.0.1:${port}/big`, { maxBytes: 1000 }))).toBe('too_large');
    const cut = await client.fetch(`http://127.0.0.1:${port}/big`, { maxBytes: 1000, overflow: 'truncate' });
    expect([cut.body.length, cut.truncated]).toEqual([1000, true]);
    expect(await refusal(client.fetch(`http://127.0.0.1:${port}/slow`, { maxBytes: 1000 }))).toBe('timeout');
  });
});

describe('address ranges', () => {
  const client = new OutboundClient();
  it('accepts public unicast addresses only', () => {
    expect(client.isPermittedAddress('93.184.216.34')).toBe(true);
    expect(client.isPermittedAddress('2606:2800:220:1:248:1893:25c8:1946')).toBe(true);
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '0.0.0.0', '255.255.255.255', '192.0.2.1']) {
      expect(client.isPermittedAddress(address), address).toBe(false);
    }
  });
});
