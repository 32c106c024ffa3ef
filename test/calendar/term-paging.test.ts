import { describe, expect, it } from 'vitest';
import { NS, useCalendar } from './harness.js';

describe('category and tag archives: paging links', () => {
  const calendar = useCalendar();

  it('keep per_page and the filters the client sent, so following them walks the same list', async () => {
    for (const name of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']) {
      expect((await calendar.call('administrator', 'POST', `${NS}/tags`, { name: `${name} tag` })).status).toBe(201);
    }
    const first = await calendar.get(`${NS}/tags?per_page=2&hide_empty=0&search=tag`);
    expect(first.body.total).toBe(5);
    expect(first.body.rest_url).toBe('http://127.0.0.1:8080/api/cal/events/v1/tags/');
    expect(first.body.next_rest_url).toBe('http://127.0.0.1:8080/api/cal/events/v1/tags/?per_page=2&search=tag&hide_empty=0&page=2');

    const seen: string[] = first.body.tags.map((t: { name: string }) => t.name);
    let next: string | undefined = first.body.next_rest_url;
    let previous: string | undefined;
    while (next) {
      const page = await calendar.get(next.replace('http://127.0.0.1:8080/api', ''));
      seen.push(...page.body.tags.map((t: { name: string }) => t.name));
      previous = page.body.previous_rest_url;
      next = page.body.next_rest_url;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(previous).toBe('http://127.0.0.1:8080/api/cal/events/v1/tags/?per_page=2&search=tag&hide_empty=0&page=2');
    const second = await calendar.get(`${NS}/tags?per_page=2&hide_empty=0&search=tag&page=2`);
    expect(second.body.previous_rest_url).toBe('http://127.0.0.1:8080/api/cal/events/v1/tags/?per_page=2&search=tag&hide_empty=0');
  });

  it('stay the bare archive URL with ?page= when no filter was sent (as TEC)', async () => {
    const page = await calendar.get(`${NS}/categories?page=1`);
    expect(page.body.next_rest_url).toBeUndefined();
    const tags = await calendar.get(`${NS}/tags?hide_empty=0`);
    expect(tags.body.total).toBeGreaterThan(0);
    expect(tags.body.next_rest_url ?? null).toBeNull();
  });
});
