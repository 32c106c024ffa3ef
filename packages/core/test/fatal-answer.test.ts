import { describe, expect, it, vi } from 'vitest';
import { builtInNamespaces, createSite, defineNamespace, READABLE, silentLogger } from '../src/index.js';
import { memoryStore } from '../../store-memory/src/index.js';

/** A route whose handler fails in a way no endpoint should (a bug, not a refusal). */
const broken = defineNamespace({
  namespace: 'broken/v1',
  routes: [
    {
      path: '/fails',
      endpoints: [
        {
          methods: READABLE,
          handler: () => {
            throw new TypeError('a bug in a handler');
          },
        },
      ],
    },
  ],
});

const request = { method: 'GET', path: '/broken/v1/fails', query: '', headers: {}, basePath: '/api' };

describe('an unexpected failure while answering', () => {
  it('is answered with the envelope even when the app\'s logger throws', async () => {
    const error = vi.fn(() => {
      throw new Error('the log is full');
    });
    const site = createSite({ store: memoryStore(), logger: { ...silentLogger, error }, namespaces: [...builtInNamespaces(), broken] });
    const answer = await site.handle(request);
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'internal_server_error', data: { status: 500 } });
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('rejects the promise handle gives rather than throwing, whatever answer throws', async () => {
    const site = createSite({ store: memoryStore(), logger: silentLogger });
    vi.spyOn(site, 'answer').mockImplementation(() => {
      throw new Error('answer failed');
    });
    let handed: Promise<unknown> | undefined;
    expect(() => (handed = site.handle(request))).not.toThrow();
    await expect(handed).rejects.toThrow('answer failed');
  });
});
