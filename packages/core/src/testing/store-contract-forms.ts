import { describe, expect, it } from 'vitest';
import type { ContactFormRecord, MailTemplate, NewContactForm, NewSubmission } from '../store/contact-forms.js';
import type { NewPopup } from '../store/popups.js';
import type { SiteStore } from '../store/repositories.js';

const mail = (overrides: Partial<MailTemplate> = {}): MailTemplate => ({
  active: true,
  subject: 'Subject [your-subject]',
  sender: 'Site <site@example.org>',
  body: 'Body [your-message]',
  recipient: 'admin@example.org',
  additionalHeaders: 'Reply-To: [your-email]',
  attachments: '',
  useHtml: false,
  excludeBlank: false,
  shape: 'saved',
  ...overrides,
});

/** A contact form record to create, with every field set. */
export function newContactForm(overrides: Partial<NewContactForm> = {}): NewContactForm {
  return {
    type: 'contact_form',
    status: 'publish',
    authorId: 1,
    title: 'Contact form',
    content: '[text* your-name]',
    excerpt: '',
    slug: '',
    password: '',
    parentId: 0,
    menuOrder: 0,
    date: '2026-11-21 16:41:37',
    dateGmt: '2026-11-21 16:41:37',
    modified: '2026-11-21 16:41:37',
    modifiedGmt: '2026-11-21 16:41:37',
    trashedFrom: null,
    imageId: 0,
    locale: 'en_US',
    hash: 'a'.repeat(40),
    form: '[text* your-name]\n[submit "Send"]',
    mail: mail(),
    mail2: mail({ active: false, shape: 'template' }),
    messages: [
      ['mail_sent_ok', 'Thanks!'],
      ['validation_error', 'Fix it.'],
    ],
    additionalSettings: 'demo_mode: on',
    configErrors: [{ section: 'mail.sender', code: 'email_not_in_site_domain', message: 'Sender…', link: 'https://example.org' }],
    ...overrides,
  };
}

export function newSubmission(formId: number, overrides: Partial<NewSubmission> = {}): NewSubmission {
  return {
    formId,
    formTitle: 'Contact form',
    status: 'mail_sent',
    message: 'Thanks!',
    fields: [
      ['your-name', 'Ada'],
      ['topics', ['a', 'b']],
    ],
    files: [{ field: 'cv', key: 'contact-forms/x/cv.pdf', filename: 'cv.pdf', contentType: 'application/pdf', size: 3, md5: 'f'.repeat(32) }],
    meta: { timestamp: 1_800_000_000, remoteIp: '192.0.2.1', userAgent: 'UA', url: 'http://x', unitTag: 'wpcf7-f1-o1', containerPostId: 0, currentUserId: 0, doNotStore: false },
    postedDataHash: 'b'.repeat(32),
    spamLog: [],
    demoMode: false,
    createdAt: 1_800_000_000_000,
    updatedAt: 1_800_000_000_000,
    ...overrides,
  };
}

export function newPopup(overrides: Partial<NewPopup> = {}): NewPopup {
  return {
    type: 'popup',
    status: 'publish',
    authorId: 1,
    title: 'Newsletter',
    content: 'Join us',
    excerpt: '',
    slug: 'newsletter',
    password: '',
    parentId: 0,
    menuOrder: 0,
    date: '2026-11-21 16:41:37',
    dateGmt: '2026-11-21 16:41:37',
    modified: '2026-11-21 16:41:37',
    modifiedGmt: '2026-11-21 16:41:37',
    trashedFrom: null,
    imageId: 0,
    ...overrides,
  };
}

/** The contact-form and popup part of the store contract (run by storeContractSuite). */
export function contactFormsAndPopupsContract(current: () => SiteStore): void {
  describe('contact forms', () => {
    it('round-trips every field, shares the post id sequence and updates only what a patch names', async () => {
      const store = current();
      const input = newContactForm({ title: 'Say hello', slug: 'say-hello' });
      const form = await store.contactForms.create(input);
      expect(form).toEqual({ ...input, id: form.id });
      expect(await store.posts.typeOf(form.id)).toBe('contact_form');
      const popup = await store.popups.create(newPopup());
      expect(popup.id).toBeGreaterThan(form.id);
      const updated = await store.contactForms.update(form.id, { title: 'Renamed', messages: [['spam', 'No.']] });
      expect(updated).toEqual({ ...form, title: 'Renamed', messages: [['spam', 'No.']] });
      expect(await store.contactForms.get(form.id)).toEqual(updated);
      expect(await store.contactForms.update(form.id + 1000, { title: 'x' })).toBeNull();
    });

    it('makes slugs unique among forms, even for concurrent creates', async () => {
      const store = current();
      const forms = await Promise.all(Array.from({ length: 8 }, () => store.contactForms.create(newContactForm({ title: 'Quote', slug: 'quote' }))));
      expect(new Set(forms.map((f) => f.slug)).size).toBe(8);
      expect(forms.map((f) => f.slug).sort()).toEqual(['quote', 'quote-2', 'quote-3', 'quote-4', 'quote-5', 'quote-6', 'quote-7', 'quote-8']);
    });

    it('lists with search, order, offset and limit', async () => {
      const store = current();
      const a = await store.contactForms.create(newContactForm({ title: 'Alpha', content: 'apples' }));
      const b = await store.contactForms.create(newContactForm({ title: 'Beta', content: 'bananas' }));
      const c = await store.contactForms.create(newContactForm({ title: 'Gamma', content: 'apples and bananas' }));
      const ids = (forms: ContactFormRecord[]) => forms.map((f) => f.id);
      expect(ids(await store.contactForms.list({ orderBy: ['id'], order: 'asc', offset: 0, limit: null }))).toEqual([a.id, b.id, c.id]);
      expect(ids(await store.contactForms.list({ orderBy: ['title'], order: 'desc', offset: 0, limit: 2 }))).toEqual([c.id, b.id]);
      expect(ids(await store.contactForms.list({ orderBy: ['id'], order: 'asc', offset: 1, limit: 1 }))).toEqual([b.id]);
      expect(ids(await store.contactForms.list({ search: 'APPLES', orderBy: ['id'], order: 'asc', offset: 0, limit: null }))).toEqual([a.id, c.id]);
      expect(await store.contactForms.delete(b.id)).toBe(true);
      expect(await store.contactForms.delete(b.id)).toBe(false);
      expect(await store.posts.typeOf(b.id)).toBeNull();
      expect(ids(await store.contactForms.list({ orderBy: ['id'], order: 'asc', offset: 0, limit: null }))).toEqual([a.id, c.id]);
    });

    it('keeps submissions and their mail, newest first, and deletes them per form', async () => {
      const store = current();
      const form = await store.contactForms.create(newContactForm());
      const first = await store.contactForms.submissions.create(newSubmission(form.id));
      const second = await store.contactForms.submissions.create(newSubmission(form.id, { status: 'mail_failed' }));
      const other = await store.contactForms.submissions.create(newSubmission(form.id + 1000));
      expect(first).toEqual({ ...newSubmission(form.id), id: first.id });
      expect(await store.contactForms.submissions.get(second.id)).toEqual(second);
      const page = await store.contactForms.submissions.list({ formId: form.id, offset: 0, limit: 10 });
      expect(page).toEqual({ items: [second, first], total: 2 });
      expect((await store.contactForms.submissions.list({ status: 'mail_failed', offset: 0, limit: 10 })).items.map((s) => s.id)).toEqual([second.id]);
      const updated = await store.contactForms.submissions.update(second.id, { status: 'mail_sent', updatedAt: 5 });
      expect(updated).toEqual({ ...second, status: 'mail_sent', updatedAt: 5 });

      const message = { from: 'a@example.org', to: ['b@example.org'], cc: [], bcc: [], replyTo: [], subject: 'S', body: 'B', html: false, headers: [['X-A', '1']] as Array<[string, string]>, attachments: [] };
      const row = await store.contactForms.outbox.create({ submissionId: second.id, template: 'mail', message, status: 'queued', error: null, attempts: 0, transport: 'smtp', createdAt: 1, sentAt: null });
      expect(row).toMatchObject({ submissionId: second.id, message, status: 'queued' });
      const failed = await store.contactForms.outbox.update(row.id, { status: 'failed', error: 'refused', attempts: 1 });
      expect(failed).toEqual({ ...row, status: 'failed', error: 'refused', attempts: 1 });
      expect((await store.contactForms.outbox.list({ status: 'failed', offset: 0, limit: 10 })).items).toEqual([failed]);

      const removed = await store.contactForms.submissions.deleteForForm(form.id);
      expect(removed.map((s) => s.id).sort((x, y) => x - y)).toEqual([first.id, second.id]);
      expect(await store.contactForms.outbox.get(row.id)).toBeNull();
      expect(await store.contactForms.submissions.get(other.id)).toEqual(other);
      expect(await store.contactForms.submissions.delete(other.id)).toBe(true);
      expect(await store.contactForms.submissions.delete(other.id)).toBe(false);
    });

    it('counts rate-limit hits per key and window atomically', async () => {
      const store = current();
      const counts = await Promise.all(Array.from({ length: 25 }, () => store.contactForms.countHit('feedback:192.0.2.1', 600)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(await store.contactForms.countHit('feedback:192.0.2.1', 1200)).toBe(1);
      expect(await store.contactForms.countHit('feedback:192.0.2.2', 600)).toBe(1);
    });

    it('creates the secret once and returns it ever after', async () => {
      const store = current();
      const secrets = await Promise.all(Array.from({ length: 5 }, () => store.contactForms.secret()));
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
      expect(await store.contactForms.secret()).toBe(secrets[0]);
    });
  });

  describe('popups', () => {
    it('counts concurrent opens exactly, sets the last-opened time and keeps a site total', async () => {
      const store = current();
      const popup = await store.popups.create(newPopup());
      expect(popup).toMatchObject({ openCount: 0, openCountTotal: 0, lastOpened: 0 });
      const before = await store.popups.totalOpens();
      await Promise.all(Array.from({ length: 200 }, () => store.popups.recordOpen(popup.id, 1_800_000_000)));
      expect(await store.popups.get(popup.id)).toMatchObject({ openCount: 200, openCountTotal: 200, lastOpened: 1_800_000_000 });
      expect(await store.popups.totalOpens()).toBe(before + 200);
      expect(await store.popups.resetCount(popup.id)).toEqual({ id: popup.id, openCount: 0, openCountTotal: 200, lastOpened: 1_800_000_000 });
      expect(await store.popups.recordOpen(popup.id, 1_800_000_100)).toEqual({ id: popup.id, openCount: 1, openCountTotal: 201, lastOpened: 1_800_000_100 });
    });

    it('counts nothing for ids that are not popups, or trashed ones', async () => {
      const store = current();
      const form = await store.contactForms.create(newContactForm());
      const trashed = await store.popups.create(newPopup({ status: 'trash' }));
      expect(await store.popups.recordOpen(form.id, 1)).toBeNull();
      expect(await store.popups.recordOpen(trashed.id, 1)).toBeNull();
      expect(await store.popups.recordOpen(999_999, 1)).toBeNull();
      expect(await store.popups.get(form.id)).toBeNull();
    });

    it('lists, updates and deletes popups', async () => {
      const store = current();
      const a = await store.popups.create(newPopup({ title: 'A', date: '2026-01-01 00:00:00' }));
      const b = await store.popups.create(newPopup({ title: 'B', date: '2026-02-01 00:00:00', status: 'draft' }));
      expect((await store.popups.list({ statuses: 'any', offset: 0, limit: 10 })).items.map((p) => p.id)).toEqual([b.id, a.id]);
      expect((await store.popups.list({ statuses: ['publish'], offset: 0, limit: 10 })).items.map((p) => p.id)).toEqual([a.id]);
      expect(await store.popups.update(a.id, { title: 'A2' })).toMatchObject({ id: a.id, title: 'A2', openCount: 0 });
      expect(await store.popups.delete(a.id)).toBe(true);
      expect(await store.popups.get(a.id)).toBeNull();
    });

    it('leaves the change version alone', async () => {
      const store = current();
      if (!store.changeVersion) return;
      const before = await store.changeVersion();
      const form = await store.contactForms.create(newContactForm());
      await store.contactForms.update(form.id, { title: 'x' });
      await store.contactForms.submissions.create(newSubmission(form.id));
      await store.contactForms.countHit('k', 1);
      const popup = await store.popups.create(newPopup());
      await store.popups.recordOpen(popup.id, 1);
      await store.contactForms.delete(form.id);
      expect(await store.changeVersion()).toBe(before);
    });
  });
}
