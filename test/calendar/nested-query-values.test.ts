import { describe, expect, it } from 'vitest';
import { storeVariants } from '../support/stores.js';
import { NS, useCalendar } from './harness.js';

const COMBINATIONS = storeVariants().flatMap((store) => (['express', 'fastify'] as const).map((adapter) => ({ store, adapter, label: `${store.label}, ${adapter}` })));

/**
 * PHP's bracket syntax nests objects inside lists (`exclude[][a]=1`): such a value is no term id, slug or name,
 * and is refused as WordPress refuses it (PHP reads an array as the string "Array", which names no term) —
 * never a 500 from converting an object without a prototype to text.
 */
describe.each(COMBINATIONS)('objects inside term lists ($label)', ({ store, adapter }) => {
  const cal = useCalendar({ store, adapter });

  it('answers rest_invalid_param for objects where term ids, slugs or names go', async () => {
    for (const query of ['exclude%5B%5D%5Ba%5D=1', 'include%5B%5D%5Bprototype%5D=', 'exclude%5B%5D%5B__proto__%5D%5Bx%5D=1']) {
      for (const path of ['/categories', '/tags', '/events']) {
        const param = query.slice(0, query.indexOf('%'));
        const answer = await cal.get(`${NS}${path}?${path === '/events' ? query.replace(/^(ex|in)clude/, 'categories') : query}`);
        expect([path, query, answer.status, answer.body.code], JSON.stringify(answer.body)).toEqual([path, query, 400, 'rest_invalid_param']);
        if (path !== '/events') expect(Object.keys(answer.body.data.params)).toEqual([param]);
      }
    }
  });
});
