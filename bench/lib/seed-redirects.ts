import type { Site } from '@siterest/core';

export const REDIRECT_COUNT = 10_000;
export const REGEX_COUNT = 1_000;

/** A CSV of 9,000 plain redirects and 1,000 regex redirects, imported through the site's own route. */
export async function seedBenchRedirects(site: Site): Promise<void> {
  const lines = ['source,target,regex,code'];
  for (let i = 0; i < REDIRECT_COUNT - REGEX_COUNT; i++) lines.push(`/old/section-${i % 50}/page-${i},/new/page-${i},0,301`);
  for (let i = 0; i < REGEX_COUNT; i++) lines.push(`"^/archive-${i}/(\\d+)/(.*)$","/posts/${i}/$2?id=$1",1,302`);
  const admin = (await site.store.users.findByLogin('admin')) ?? (await site.createUser({ login: 'admin', roles: ['administrator'] }));
  const response = await site.handle({
    method: 'POST',
    path: '/redirection/v1/import/file/1',
    headers: {},
    body: { kind: 'multipart', contentType: 'multipart/form-data', fields: {}, files: [{ field: 'file', filename: 'bench.csv', mimeType: 'text/csv', data: Buffer.from(lines.join('\n')) }] },
    principal: { id: admin.id, login: admin.login, roles: admin.roles },
  });
  if (JSON.parse(response.body).imported !== REDIRECT_COUNT) throw new Error(`bench seed: ${response.body}`);
}

/** URLs of the benchmark: one nothing matches, one plain redirect, one regex redirect. */
export const BENCH_URLS = {
  nothing: '/blog/2026/11/a-page-no-redirect-matches?utm_source=bench',
  plain: '/old/section-7/page-4507',
  regex: '/archive-512/42/some-post-title',
} as const;
