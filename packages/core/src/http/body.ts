import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { ApiError } from './api-error.js';
import { coreErrors } from './errors.js';
import { parseFormString } from './query.js';
import type { RequestBody, UploadedFile } from './request.js';

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

/** JSON media types (`application/json`, `application/ld+json`, …), whose bodies WordPress parses. */
export const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;
export const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

export interface ReadBodyOptions {
  /** Largest accepted body (all parts of a multipart body together), in bytes. */
  limit?: number;
}

/** Whether a request comes with a body: chunked, or with a length above 0 (Node's parser has checked both headers). */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const declared = Number(headers['content-length']);
  return headers['transfer-encoding'] !== undefined || (Number.isFinite(declared) && declared > 0);
}

/**
 * Reads a request body from a Node stream for an adapter: raw bytes for JSON and urlencoded bodies (core parses
 * them), fields and files for multipart. Over-large bodies end in a 413 ApiError; the stream is drained so the
 * connection can answer.
 */
export async function readBody(
  stream: Readable,
  headers: Record<string, string | string[] | undefined>,
  options: ReadBodyOptions = {},
): Promise<RequestBody | undefined> {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  const contentType = String(headers['content-type'] ?? '');
  const declared = Number(headers['content-length']);
  if (!hasBody(headers)) {
    stream.resume();
    return undefined;
  }
  if (Number.isFinite(declared) && declared > limit) {
    stream.resume();
    throw coreErrors.payloadTooLarge(limit);
  }
  if (/^multipart\/form-data/i.test(contentType)) return readMultipart(stream, headers, contentType, limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      stream.resume();
      throw coreErrors.payloadTooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  return { kind: 'raw', contentType, bytes: Buffer.concat(chunks, size) };
}

function readMultipart(
  stream: Readable,
  headers: Record<string, string | string[] | undefined>,
  contentType: string,
  limit: number,
): Promise<RequestBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: headers as Record<string, string>,
        limits: { fileSize: limit, fieldSize: limit, fields: 1000, files: 50, parts: 1100 },
      });
    } catch {
      stream.resume();
      reject(coreErrors.invalidBody('The multipart body could not be read: its boundary is missing.'));
      return;
    }
    const fields: Array<[string, string]> = [];
    const files: UploadedFile[] = [];
    let total = 0;
    let failed: ApiError | null = null;
    const fail = (error: ApiError) => {
      if (failed) return;
      failed = error;
      stream.unpipe(parser);
      stream.resume();
      reject(error);
    };
    parser.on('field', (name, value, info) => {
      total += value.length;
      if (info.valueTruncated || total > limit) return fail(coreErrors.payloadTooLarge(limit));
      fields.push([name, value]);
    });
    parser.on('file', (field, file, info) => {
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limit) {
          file.resume();
          return fail(coreErrors.payloadTooLarge(limit));
        }
        chunks.push(chunk);
      });
      file.on('limit', () => fail(coreErrors.payloadTooLarge(limit)));
      file.on('end', () => {
        if (!failed) files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) });
      });
    });
    parser.on('partsLimit', () => fail(coreErrors.payloadTooLarge(limit)));
    parser.on('fieldsLimit', () => fail(coreErrors.payloadTooLarge(limit)));
    parser.on('filesLimit', () => fail(coreErrors.payloadTooLarge(limit)));
    parser.on('error', () => fail(coreErrors.invalidBody('The multipart body could not be read.')));
    parser.on('close', () => {
      if (!failed) resolve({ kind: 'multipart', contentType, fields: formFields(fields), files });
    });
    stream.on('error', () => fail(coreErrors.invalidBody('The request body could not be read.')));
    stream.pipe(parser);
  });
}

/** Multipart field names follow PHP's bracket rules (`tags[]`, `venue[city]`), like urlencoded bodies. */
function formFields(pairs: Array<[string, string]>): Record<string, unknown> {
  const search = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return parseFormString(search);
}
