import { request as httpRequest } from 'node:http';

export interface RawResponse {
  status: number;
  /** In wire order, names as sent. */
  headers: Array<[string, string]>;
  body: string;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body chunked, without Content-Length. */
  chunked?: boolean;
}

/** A plain HTTP request over a real socket, keeping response headers exactly as they came. */
export function rawRequest(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.body !== undefined && !options.chunked) headers['Content-Length'] = String(Buffer.byteLength(options.body));
    const req = httpRequest(url, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        const body = Buffer.from(options.body);
        for (let i = 0; i < body.length; i += 16_384) req.write(body.subarray(i, i + 16_384));
      } else req.write(options.body);
    }
    req.end();
  });
}

/**
 * Headers the HTTP server or the host framework add on their own, outside any adapter's control
 * (Content-Length follows from the body, which is compared byte for byte).
 */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-powered-by', 'content-length']);

/** A response with transport-level headers removed, for comparing adapters. */
export function comparable(response: RawResponse): RawResponse {
  return { ...response, headers: response.headers.filter(([name]) => !TRANSPORT_HEADERS.has(name.toLowerCase())) };
}

export function header(response: RawResponse, name: string): string | undefined {
  return response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}

export function headerNames(response: RawResponse): string[] {
  return comparable(response).headers.map(([n]) => n.toLowerCase());
}

export function basicAuth(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}
