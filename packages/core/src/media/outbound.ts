import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import fetch, { type Response } from 'node-fetch';

/**
 * The only way siterest reaches other servers (oEmbed providers, discovery pages, image sideloads). Every
 * request is held to: http or https; ports 80, 443 and 8080; no credentials in the URL; every address the
 * name resolves to is public unicast (no loopback, private, link-local, carrier-grade NAT, multicast or
 * reserved range, in IPv4 or IPv6, IPv4-mapped included). The check runs inside the socket's DNS lookup,
 * so the address checked is the address connected to: a name that resolves to a public address when
 * checked and to 127.0.0.1 a moment later (DNS rebinding) cannot slip through. Redirects are followed by
 * hand, a bounded number of times, and each hop is checked again. Time and size are bounded.
 */
export interface OutboundOptions {
  /**
   * Address ranges (CIDR, `127.0.0.1/32`, `::1/128`) that are reachable although not public, on any port.
   * Empty by default. For tests against a local server and for sites that really mean to reach an internal
   * host; it widens the guard only for the listed ranges.
   */
  allow?: readonly string[];
  /** Ports allowed for public addresses (default 80, 443, 8080, as WordPress's wp_http_validate_url). */
  ports?: readonly number[];
  /** Redirects followed before giving up (default 5). */
  maxRedirects?: number;
  /** Time for a whole request, body included, in ms (default 10 s). */
  timeoutMs?: number;
  /** Resolves a host name to addresses (default: the system resolver). Tests stub it. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** Sent as User-Agent. */
  userAgent?: string;
}

export type OutboundErrorCode =
  | 'invalid_url'
  | 'forbidden_scheme'
  | 'forbidden_credentials'
  | 'forbidden_port'
  | 'forbidden_address'
  | 'unresolvable_host'
  | 'too_many_redirects'
  | 'timeout'
  | 'too_large'
  | 'connection_failed';

export class OutboundRequestError extends Error {
  constructor(readonly code: OutboundErrorCode, message: string) {
    super(message);
    this.name = 'OutboundRequestError';
  }
}

export interface OutboundRequest {
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** `error` (default): a longer body fails; `truncate`: keep the first `maxBytes` (WordPress limit_response_size). */
  overflow?: 'error' | 'truncate';
}

export interface OutboundResponse {
  status: number;
  /** The URL of the answer, after redirects. */
  url: string;
  headers: { get(name: string): string | null };
  body: Buffer;
  truncated: boolean;
}

const DEFAULT_PORTS = [80, 443, 8080];

interface ParsedRange {
  address: ipaddr.IPv4 | ipaddr.IPv6;
  bits: number;
}

/** An address as ipaddr.js sees it, IPv4-mapped IPv6 turned into IPv4. */
function normalizeAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed;
}

export class OutboundClient {
  private readonly allow: ParsedRange[];
  private readonly ports: readonly number[];
  private readonly maxRedirects: number;
  private readonly timeoutMs: number;
  private readonly resolver: (hostname: string) => Promise<LookupAddress[]>;
  private readonly userAgent: string;

  constructor(options: OutboundOptions = {}) {
    this.allow = (options.allow ?? []).map((cidr) => {
      const [address, bits] = ipaddr.parseCIDR(cidr);
      return { address: normalizeAddress(address.toString()) ?? address, bits: address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? bits - 96 : bits };
    });
    this.ports = options.ports ?? DEFAULT_PORTS;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.resolver = options.resolve ?? ((hostname) => new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)))));
    this.userAgent = options.userAgent ?? 'siterest';
  }

  /** Whether an explicit allow range covers the address. */
  private allowed(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return this.allow.some((range) => range.address.kind() === address.kind() && address.match(range.address as never, range.bits));
  }

  /** Public unicast, or explicitly allowed. */
  isPermittedAddress(address: string): boolean {
    const parsed = normalizeAddress(address);
    if (!parsed) return false;
    if (this.allowed(parsed)) return true;
    return parsed.range() === 'unicast';
  }

  /** Refuses what can be told from the URL alone; returns it parsed. */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRequestError('invalid_url', 'The URL is not valid.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRequestError('forbidden_scheme', 'Only http and https URLs can be fetched.');
    if (url.username || url.password) throw new OutboundRequestError('forbidden_credentials', 'URLs with credentials are not fetched.');
    if (!url.hostname) throw new OutboundRequestError('invalid_url', 'The URL has no host.');
    const literal = normalizeAddress(url.hostname);
    if (literal && !this.isPermittedAddress(literal.toString())) {
      throw new OutboundRequestError('forbidden_address', 'The URL points to an address that is not public.');
    }
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const allowedLiteral = literal !== null && this.allowed(literal);
    if (!allowedLiteral && !this.ports.includes(port) && !(this.allow.length && !literal)) {
      throw new OutboundRequestError('forbidden_port', `Port ${port} is not allowed.`);
    }
    return url;
  }

  /** The socket lookup: resolve, refuse unless every address is permitted, hand back only checked addresses. */
  private lookupFor(port: number, state: { refused: OutboundRequestError | null }): LookupFunction {
    return (hostname, options, callback) => {
      this.resolver(hostname)
        .then((found) => {
          if (!found.length) throw new OutboundRequestError('unresolvable_host', `The host ${hostname} could not be resolved.`);
          for (const entry of found) {
            if (!this.isPermittedAddress(entry.address)) {
              throw new OutboundRequestError('forbidden_address', `The host ${hostname} resolves to an address that is not public.`);
            }
            const parsed = normalizeAddress(entry.address)!;
            if (!this.allowed(parsed) && !this.ports.includes(port)) throw new OutboundRequestError('forbidden_port', `Port ${port} is not allowed.`);
          }
          const usable = found.map((entry) => ({ address: entry.address, family: entry.family }));
          if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, usable);
          else callback(null, usable[0]!.address, usable[0]!.family);
        })
        .catch((error: unknown) => {
          const failure = error instanceof OutboundRequestError ? error : new OutboundRequestError('unresolvable_host', `The host ${hostname} could not be resolved.`);
          state.refused = failure;
          callback(failure as NodeJS.ErrnoException, '', 0);
        });
    };
  }

  /** Fetches `raw` under every guard; redirects are followed (and re-checked) up to the limit. */
  async fetch(raw: string, request: OutboundRequest): Promise<OutboundResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      let url = this.checkUrl(raw);
      for (let hop = 0; ; hop++) {
        const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
        const state = { refused: null as OutboundRequestError | null };
        const agentOptions = { keepAlive: false, lookup: this.lookupFor(port, state) };
        const agent = url.protocol === 'https:' ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
        let response: Response;
        try {
          response = await fetch(url.href, {
            method: request.method ?? 'GET',
            headers: { 'user-agent': this.userAgent, accept: '*/*', ...request.headers },
            redirect: 'manual',
            agent,
            signal: controller.signal,
            compress: true,
          });
        } catch (error) {
          throw state.refused ?? this.failure(error, controller);
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          response.body?.resume?.();
          if (hop >= this.maxRedirects) throw new OutboundRequestError('too_many_redirects', 'Too many redirects.');
          let next: string;
          try {
            next = new URL(location, url).href;
          } catch {
            throw new OutboundRequestError('invalid_url', 'A redirect pointed to an invalid URL.');
          }
          url = this.checkUrl(next);
          continue;
        }
        const { body, truncated } = await this.readBody(response, request, controller);
        return { status: response.status, url: url.href, headers: response.headers, body, truncated };
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async readBody(response: Response, request: OutboundRequest, controller: AbortController): Promise<{ body: Buffer; truncated: boolean }> {
    const declared = Number(response.headers.get('content-length'));
    if (request.overflow !== 'truncate' && Number.isFinite(declared) && declared > request.maxBytes) {
      controller.abort();
      throw new OutboundRequestError('too_large', `The answer is larger than ${request.maxBytes} bytes.`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (!response.body) return { body: Buffer.alloc(0), truncated: false };
    try {
      for await (const chunk of response.body) {
        const piece = chunk as Buffer;
        if (size + piece.length > request.maxBytes) {
          if (request.overflow === 'truncate') {
            chunks.push(piece.subarray(0, request.maxBytes - size));
            size = request.maxBytes;
            controller.abort();
            return { body: Buffer.concat(chunks, size), truncated: true };
          }
          controller.abort();
          throw new OutboundRequestError('too_large', `The answer is larger than ${request.maxBytes} bytes.`);
        }
        chunks.push(piece);
        size += piece.length;
      }
    } catch (error) {
      throw this.failure(error, controller);
    }
    return { body: Buffer.concat(chunks, size), truncated: false };
  }

  private failure(error: unknown, controller: AbortController): OutboundRequestError {
    if (error instanceof OutboundRequestError) return error;
    const cause = (error as { cause?: unknown; erroredSysCall?: string })?.cause ?? error;
    if (cause instanceof OutboundRequestError) return cause;
    if (controller.signal.aborted) return new OutboundRequestError('timeout', 'The request took too long.');
    // node-fetch wraps lookup failures: find ours in the chain.
    const nested = findGuardError(error);
    if (nested) return nested;
    return new OutboundRequestError('connection_failed', 'The server could not be reached.');
  }
}

function findGuardError(error: unknown, depth = 0): OutboundRequestError | null {
  if (!error || typeof error !== 'object' || depth > 5) return null;
  if (error instanceof OutboundRequestError) return error;
  const record = error as Record<string, unknown>;
  return findGuardError(record.cause, depth + 1) ?? findGuardError(record.error, depth + 1);
}
