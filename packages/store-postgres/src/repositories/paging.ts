import type { Page } from '@siterest/core';

/**
 * Items of one page plus the total. The count query runs only when the page cannot tell: a short,
 * non-empty page (or an empty first one) ends the list, so the total is known without counting.
 */
export async function pageWithTotal<T>(
  offset: number,
  limit: number,
  items: () => Promise<T[]>,
  count: () => Promise<number>,
): Promise<Page<T>> {
  const page = await items();
  const known = page.length < limit && (page.length > 0 || offset === 0);
  return { items: page, total: known ? offset + page.length : await count() };
}

export async function countOf(rows: Promise<Array<{ n: unknown }>>): Promise<number> {
  return Number((await rows)[0]?.n ?? 0);
}
