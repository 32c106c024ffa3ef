import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { ApiRequest } from '../../http/api-request.js';
import type { MailTransport } from '../../mail/transport.js';
import { storeMailTransport } from '../../mail/transport.js';
import type { FileData, FileStorage, StoredFile, WriteFileOptions } from '../../media/file-storage.js';
import { FileTooLargeError } from '../../media/file-storage.js';
import type { SiteContext } from '../../site-context.js';
import type { ContactFormRecord, SubmissionRecord } from '../../store/contact-forms.js';

/** What a `beforeSendMail` hook sees: the form, the posted data, and a way to stop the mail. */
export interface BeforeSendMailEvent {
  form: ContactFormRecord;
  fields: ReadonlyArray<[string, string | string[]]>;
  meta: SubmissionRecord['meta'];
  /** Stops the mail: the sender sees `aborted` and this message (or "Sending mail has been aborted."). */
  abort(message?: string): void;
}

export interface SpamCheckEvent {
  form: ContactFormRecord;
  fields: ReadonlyArray<[string, string | string[]]>;
  meta: SubmissionRecord['meta'];
}

export interface ContactFormsOptions {
  /** Where mail goes; default: the site's `mail`, else kept in the store's outbox. */
  mail?: MailTransport;
  /** Where uploads are kept; default: the site's file storage, else this process's memory. */
  files?: FileStorage;
  /**
   * Feedback posts per client address and window (default 20 per 10 minutes, counted in the store so it holds
   * across instances); `false` turns the limit off.
   */
  rateLimit?: { max: number; windowSeconds: number } | false;
  /** What deleting a form does to its stored submissions (default: keep them). */
  onFormDelete?: 'keep-submissions' | 'delete-submissions';
  /** Runs before mail is sent (Contact Form 7's `wpcf7_before_send_mail`); call `abort()` to stop it. */
  beforeSendMail?: (event: BeforeSendMailEvent) => void | Promise<void>;
  /** Extra spam detection (Akismet and the like): a truthy answer marks the submission as spam, a string says why. */
  spamCheck?: (event: SpamCheckEvent) => boolean | string | Promise<boolean | string>;
  /** The client address of a request (default: the socket's, IPv4-mapped addresses unwrapped). */
  remoteIp?: (request: ApiRequest) => string;
}

export interface ContactFormsRuntime {
  readonly options: ContactFormsOptions;
  transport(site: SiteContext): MailTransport;
  files(site: SiteContext): FileStorage;
}

/** Files kept in this process's memory: the fallback when neither the namespace nor the site names a storage. */
export function memoryFileStorage(baseUrl = 'memory:'): FileStorage {
  const files = new Map<string, Buffer>();
  return {
    async write(key: string, data: FileData, options: WriteFileOptions = {}): Promise<StoredFile> {
      const chunks: Buffer[] = [];
      let size = 0;
      const source: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = data instanceof Uint8Array ? [data] : data;
      for await (const chunk of source) {
        size += chunk.length;
        if (options.maxBytes !== undefined && size > options.maxBytes) throw new FileTooLargeError(options.maxBytes);
        chunks.push(Buffer.from(chunk));
      }
      let final = key;
      for (let n = 1; options.onConflict !== 'replace' && files.has(final); n++) {
        const dot = key.lastIndexOf('.');
        final = dot > key.lastIndexOf('/') + 1 ? `${key.slice(0, dot)}-${n}${key.slice(dot)}` : `${key}-${n}`;
      }
      files.set(final, Buffer.concat(chunks, size));
      return { key: final, size };
    },
    read: async (key) => files.get(key) ?? null,
    exists: async (key) => files.has(key),
    delete: async (key) => files.delete(key),
    url: (key) => `${baseUrl}${key}`,
  };
}

/** The site-level services a host app may have given createSite (mail, files). */
interface SiteServices {
  readonly mail?: MailTransport;
  readonly files?: FileStorage;
}

export function createRuntime(options: ContactFormsOptions = {}): ContactFormsRuntime {
  const fallbackMail = storeMailTransport();
  const fallbackFiles = memoryFileStorage();
  return {
    options,
    transport: (site) => options.mail ?? (site as SiteContext & SiteServices).mail ?? fallbackMail,
    files: (site) => options.files ?? (site as SiteContext & SiteServices).files ?? fallbackFiles,
  };
}

/** `wp_hash`: a keyed MD5 of `data` under the site's secret and a scheme name (32 hex digits). */
export async function siteHash(site: SiteContext, scheme: string, data: string): Promise<string> {
  const secret = await site.store.contactForms.secret();
  return createHmac('md5', `${secret}${scheme}`).update(data).digest('hex');
}

/** The client's address: IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) are written as IPv4, as PHP sees them. */
export function clientIp(request: ApiRequest, options: ContactFormsOptions): string {
  const raw = options.remoteIp ? options.remoteIp(request) : (request.remoteAddress ?? '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(raw);
  return mapped ? mapped[1]! : raw;
}

/** Longest key a rate limit counts under: a host's `remoteIp` may give any text. */
const RATE_KEY_CHARS = 200;

/**
 * Whom the feedback rate limit counts a post against: an IPv4 address, or an IPv6 address's /64 network (one
 * subscriber is commonly given a whole /64, so counting addresses would give one sender millions of limits), or
 * whatever else the host's `remoteIp` gives, cut to 200 characters.
 */
export function rateLimitKey(ip: string): string {
  if (ipaddr.IPv6.isValid(ip)) {
    const parts = ipaddr.IPv6.parse(ip).parts;
    return `feedback:${parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
  }
  return `feedback:${ip}`.slice(0, RATE_KEY_CHARS);
}
