import { describe, expect, it } from 'vitest';
import { hidden, NS, useFormsSite } from './harness.js';

describe('smoke', () => {
  const t = useFormsSite();
  it('creates and submits the default form', async () => {
    const created = await t.json('POST', `${NS}/contact-forms?context=save`, { title: 'Contact form 1' }, t.admin);
    console.log(created.status, JSON.stringify(created.body).slice(0, 3000));
    const id = created.body.id;
    const list = await t.json('GET', `${NS}/contact-forms`, undefined, t.admin);
    console.log(list.raw);
    const ok = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [
      ...hidden(id),
      ['your-name', 'Ada'],
      ['your-email', 'ada@example.org'],
      ['your-subject', 'Hello'],
      ['your-message', 'Hi there'],
    ]);
    console.log(ok.status, ok.raw);
    const bad = await t.multipart(`${NS}/contact-forms/${id}/feedback`, [...hidden(id), ['your-email', 'nope']]);
    console.log(bad.status, bad.raw);
    const schema = await t.json('GET', `${NS}/contact-forms/${id}/feedback/schema`);
    console.log(schema.raw);
    expect(ok.status).toBe(200);
  });
});
