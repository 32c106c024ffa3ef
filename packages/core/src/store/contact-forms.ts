import type { MailMessage } from '../mail/message.js';
import type { Page, PostRecord } from './records.js';

/**
 * What the stores keep for Contact Form 7: forms (post-like records sharing the post id sequence), the
 * submissions they received, the mail composed for them, and two small services the feedback route needs
 * across instances (a rate-limit counter and the site's hashing secret).
 */

/** A mail template (`mail`, `mail_2`) as Contact Form 7 keeps it. */
export interface MailTemplate {
  active: boolean;
  subject: string;
  sender: string;
  body: string;
  recipient: string;
  additionalHeaders: string;
  attachments: string;
  useHtml: boolean;
  excludeBlank: boolean;
  /**
   * How it was last written, which decides its wire shape: `template` as the default template left it (no
   * `active` key in `mail`, `use_html`/`exclude_blank` as 0/1), `saved` as a REST write sanitised it.
   */
  shape: 'template' | 'saved';
}

/** A configuration error found when the form was saved with `context=save`. */
export interface ConfigError {
  section: string;
  code: string;
  message: string;
  link: string;
}

export interface ContactFormFields {
  /** `en_US`-style, or `""`. */
  locale: string;
  /** 40 hex digits; the list shows the first 7 (the shortcode id). */
  hash: string;
  /** The form template in form-tag syntax. */
  form: string;
  mail: MailTemplate;
  mail2: MailTemplate;
  /** Message key → text, in the order Contact Form 7 lists them. */
  messages: Array<[key: string, text: string]>;
  additionalSettings: string;
  configErrors: ConfigError[];
}

export type ContactFormRecord = PostRecord & ContactFormFields;
export type NewContactForm = Omit<ContactFormRecord, 'id'>;
export type ContactFormPatch = Partial<Omit<ContactFormRecord, 'id' | 'type' | 'slug' | 'hash'>>;

export type ContactFormOrderKey = 'id' | 'title' | 'slug' | 'date' | 'modified' | 'author' | 'menu_order' | 'parent';

export interface ContactFormQuery {
  /** Words and "phrases" that must all appear in the title or the saved content. */
  search?: string;
  orderBy: ReadonlyArray<ContactFormOrderKey>;
  order: 'asc' | 'desc';
  offset: number;
  /** null: no limit. */
  limit: number | null;
}

/** A file uploaded with a submission, kept in the file storage. */
export interface StoredUpload {
  field: string;
  /** Key in the file storage. */
  key: string;
  /** The safe file name it was stored under (what mail-tags and attachments show). */
  filename: string;
  contentType: string;
  size: number;
  md5: string;
}

export interface SubmissionMeta {
  /** Unix seconds. */
  timestamp: number;
  remoteIp: string;
  userAgent: string;
  url: string;
  unitTag: string;
  containerPostId: number;
  currentUserId: number;
  doNotStore: boolean;
}

export type SubmissionStatus = 'spam' | 'aborted' | 'mail_sent' | 'mail_failed';

export interface SubmissionRecord {
  id: number;
  formId: number;
  /** The form's title when the message arrived (forms may be renamed or deleted later). */
  formTitle: string;
  status: SubmissionStatus;
  /** The message the sender was shown. */
  message: string;
  /** Posted data as Contact Form 7 saw it (fields starting with `_` excluded), in posted order. */
  fields: Array<[name: string, value: string | string[]]>;
  files: StoredUpload[];
  meta: SubmissionMeta;
  postedDataHash: string;
  spamLog: Array<{ agent: string; reason: string }>;
  demoMode: boolean;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

export type NewSubmission = Omit<SubmissionRecord, 'id'>;

export interface SubmissionQuery {
  formId?: number;
  status?: SubmissionStatus;
  offset: number;
  limit: number;
}

export type OutboxStatus = 'queued' | 'stored' | 'sent' | 'failed';

/** A mail composed for a submission: kept (the default transport), sent, or failed and waiting for a resend. */
export interface OutboxRecord {
  id: number;
  submissionId: number | null;
  /** `mail`, `mail_2`. */
  template: string;
  message: MailMessage;
  status: OutboxStatus;
  /** The last delivery error, for failed mail. */
  error: string | null;
  attempts: number;
  transport: string;
  createdAt: number;
  sentAt: number | null;
}

export type NewOutboxRecord = Omit<OutboxRecord, 'id'>;

export interface OutboxQuery {
  submissionId?: number;
  status?: OutboxStatus;
  offset: number;
  limit: number;
}

export interface SubmissionRepository {
  create(input: NewSubmission): Promise<SubmissionRecord>;
  get(id: number): Promise<SubmissionRecord | null>;
  /** Newest first. */
  list(query: SubmissionQuery): Promise<Page<SubmissionRecord>>;
  update(id: number, patch: Partial<Pick<SubmissionRecord, 'status' | 'message' | 'updatedAt'>>): Promise<SubmissionRecord | null>;
  delete(id: number): Promise<boolean>;
  /** Deletes a form's submissions and their mail; returns them (so their files can be removed). */
  deleteForForm(formId: number): Promise<SubmissionRecord[]>;
}

export interface OutboxRepository {
  create(input: NewOutboxRecord): Promise<OutboxRecord>;
  get(id: number): Promise<OutboxRecord | null>;
  /** Oldest first. */
  list(query: OutboxQuery): Promise<Page<OutboxRecord>>;
  update(id: number, patch: Partial<Pick<OutboxRecord, 'status' | 'error' | 'attempts' | 'transport' | 'sentAt'>>): Promise<OutboxRecord | null>;
}

export interface ContactFormRepository {
  get(id: number): Promise<ContactFormRecord | null>;
  list(query: ContactFormQuery): Promise<ContactFormRecord[]>;
  /** Creates the form; its slug (as given, `untitled` if empty) is made unique among forms (`-2`, `-3`…) atomically. */
  create(input: NewContactForm): Promise<ContactFormRecord>;
  update(id: number, patch: ContactFormPatch): Promise<ContactFormRecord | null>;
  delete(id: number): Promise<boolean>;
  readonly submissions: SubmissionRepository;
  readonly outbox: OutboxRepository;
  /**
   * Counts one hit of `key` in the fixed window starting at `windowStart` (unix seconds) and returns the
   * window's count including it — atomically, across every instance sharing the store.
   */
  countHit(key: string, windowStart: number): Promise<number>;
  /** The site's secret for keyed hashes (posted-data hashes, quiz answers): created once, then shared. */
  secret(): Promise<string>;
}
