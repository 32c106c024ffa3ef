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

describe('a logger that throws', () => {
  it('cannot turn background work that logs its own failure into an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failing = {
        error: () => {
          throw new Error('the log is full');
        },
        warn: () => {
          throw new Error('the log is full');
        },
        info: () => {
          throw new Error('the log is full');
        },
      };
      const site = createSite({ store: memoryStore(), logger: failing });
      // The redirect engine logs a store failure in a detached promise (as it logs a 404 it could not record).
      expect(() => site.logger.warn('redirection: 404 not logged', { error: 'x' })).not.toThrow();
      void Promise.reject(new Error('store down')).catch((error: unknown) => site.logger.warn('redirection: 404 not logged', { error: String(error) }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('is called as the app\'s own logger, its methods with their object', () => {
    const seen: Array<[string, unknown]> = [];
    const logger = {
      lines: seen,
      error(message: string, details?: Record<string, unknown>) {
        this.lines.push([message, details]);
      },
      warn() {},
      info() {},
    };
    const site = createSite({ store: memoryStore(), logger });
    site.logger.error('told', { n: 1 });
    expect(seen).toEqual([['told', { n: 1 }]]);
  });
});
