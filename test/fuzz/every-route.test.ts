import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { storeVariants, type StoreSnapshot } from '../support/stores.js';
import { hostileRequest, type HostileRequest } from './requests.js';
import { useFuzzSite, type Answer, type Caller } from './site.js';

/**
 * Every route of the root index, through both adapters and both stores, as anonymous callers and as every
 * WordPress role, with generated hostile input. Whatever arrives:
 * - the answer is the WordPress error envelope `{code, message, data: {status}}` with that status, or a success;
 * - never a 5xx (but WordPress's own 501 for deleting media without `force`), never slower than a second;
 * - Object.prototype is never touched;
 * - anonymous callers and subscribers change no record (only what WordPress lets anyone write: form
 *   submissions and their mail, popup counters, redirect hits and logs, caches).
 *
 * `vitest run` runs a short, bounded pass (FUZZ_RUNS per property, default 20). `pnpm fuzz` runs long ones.
 * Every run prints its seed: `FUZZ_SEED=<seed> [FUZZ_PATH=<path>] pnpm fuzz` replays a failure.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = process.env.FUZZ_SEED === undefined ? (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0 : Number(process.env.FUZZ_SEED);
const PATH = process.env.FUZZ_PATH;
const SLOWEST_MS = 1_000;
/** Time for one property: a bounded number of runs, each at most a few seconds with shrinking. */
const PROPERTY_TIMEOUT = 120_000 + RUNS * 4_000;

console.log(`fuzz: seed ${SEED}, ${RUNS} runs per property (FUZZ_SEED=${SEED} replays it)`);

/** Tables and fields anyone may change: WordPress lets anonymous visitors write these. */
const ANYONE_MAY_WRITE = new Set([
  // memory store
  'submissions',
  'outbox',
  'nextSubmissionId',
  'nextOutboxId',
  'rateHits',
  'secrets',
  'popupOpens',
  'oembedCache',
  // What the lists' recent filters matched: a read keeps them.
  'eventMatches.kept',
  'eventMatches.held',
  'venueMatches.kept',
  'venueMatches.held',
  'organizerMatches.kept',
  'organizerMatches.held',
  'listeners',
  'version',
  'changes',
  'redirection.redirectLog',
  'redirection.notFoundLog',
  'redirection.nextRedirectLogId',
  'redirection.nextNotFoundLogId',
  // PostgreSQL store
  'contact_form_submissions',
  'contact_form_outbox',
  'contact_form_rate_hits',
  'contact_form_secrets',
  'popup_totals',
  'oembed_cache',
  'redirection_logs',
  'redirection_404',
]);
/** Fields that record use, not content: an application password's last use, a redirect's hits. */
const USE_FIELDS = new Set(['lastUsed', 'lastIp', 'last_used', 'last_ip', 'hits', 'lastAccess', 'last_access', 'last_count']);

function recordsOf(snapshot: StoreSnapshot): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(snapshot)) {
    if (ANYONE_MAY_WRITE.has(table)) continue;
    out[table] = rows.map((row) => JSON.stringify(JSON.parse(row), (key, value: unknown) => (USE_FIELDS.has(key) ? undefined : value))).sort();
  }
  return out;
}

/** Object.prototype as it was before any request: names and values of its own properties. */
const PRISTINE = new Map(Reflect.ownKeys(Object.prototype).map((key) => [key, Object.getOwnPropertyDescriptor(Object.prototype, key)!]));

/** What changed on Object.prototype (and puts it back, so one failure does not poison the other runs). */
function prototypeDamage(): string[] {
  const damage: string[] = [];
  for (const key of Reflect.ownKeys(Object.prototype)) {
    const before = PRISTINE.get(key);
    const now = Object.getOwnPropertyDescriptor(Object.prototype, key)!;
    if (!before) {
      damage.push(`added ${String(key)}`);
      delete (Object.prototype as Record<PropertyKey, unknown>)[key];
    } else if (before.value !== now.value || before.get !== now.get || before.set !== now.set) {
      damage.push(`changed ${String(key)}`);
      Object.defineProperty(Object.prototype, key, before);
    }
  }
  return damage;
}

/**
 * The one 5xx WordPress itself gives for a request it understood: deleting an attachment without `force=true`
 * (media is never trashed while MEDIA_TRASH is off) is `rest_trash_not_supported`, 501. Any other 5xx is a fault.
 */
function wordpressServerAnswer(answer: Answer): boolean {
  if (answer.status !== 501) return false;
  try {
    const body = JSON.parse(answer.raw) as { code?: unknown; data?: { status?: unknown } };
    return body.code === 'rest_trash_not_supported' && body.data?.status === 501;
  } catch {
    return false;
  }
}

/** Why an answer is wrong, or null when it is an envelope of its status or a success. */
function fault(request: HostileRequest, answer: Answer): string | null {
  if (answer.status === 0) return answer.raw;
  if (answer.status >= 500 && !wordpressServerAnswer(answer)) return `answered ${answer.status}`;
  if (answer.ms > SLOWEST_MS) return `took ${Math.round(answer.ms)} ms`;
  if (request.method === 'HEAD' || answer.status === 204 || answer.status === 304) return null;
  const type = answer.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  let body: any;
  // A valid `_jsonp` callback wraps every answer, errors included, as WordPress does.
  const jsonp = /^application\/javascript/i.test(type) ? /^\/\*\*\/[\w.]+\(([\s\S]*)\)$/.exec(answer.raw) : null;
  if (/json/i.test(type) || jsonp) {
    try {
      body = JSON.parse(jsonp ? jsonp[1]! : answer.raw);
    } catch {
      return 'a JSON content type on a body that is not JSON';
    }
  }
  if (answer.status >= 400) {
    if (!body) return `an error answer that is not JSON (${type || 'no content type'})`;
    // WordPress's serve_request answers a bad `_jsonp` with json_error(), which has no `data`.
    if (body.code === 'rest_callback_invalid' && body.message === 'Invalid JSONP callback function.' && answer.status === 400) return null;
    if (typeof body.code !== 'string' || typeof body.message !== 'string' || body.data?.status !== answer.status) return 'an error answer that is not the envelope {code, message, data: {status}}';
    return null;
  }
  if (!type) return 'a success without a content type';
  return null;
}

function describeCase(caller: Caller, request: HostileRequest, answer: Answer | null): string {
  const body = request.body === undefined ? '' : ` body(${request.headers['Content-Type'] ?? 'no type'}, ${request.body.length} bytes): ${String(request.body).slice(0, 300)}`;
  const got = answer ? ` → ${answer.status} in ${Math.round(answer.ms)} ms: ${answer.raw.slice(0, 400)}` : '';
  return `${caller} ${request.method} ${request.target.slice(0, 400)} headers ${JSON.stringify(request.headers)}${body}${got}`;
}

const COMBINATIONS = storeVariants().flatMap((variant) => (['express', 'fastify'] as const).map((adapter) => ({ variant, adapter, label: `${variant.label} through ${adapter}` })));

describe.each(COMBINATIONS)('hostile input on every route, $label', ({ variant, adapter }) => {
  const t = useFuzzSite(variant, adapter);
  /**
   * Sends a request; one that took longer than the limit is sent again, and only its second time counts. Slow
   * input is slow every time, while a machine shared with other work pauses now and then: so the limit catches
   * the first without failing on the second.
   */
  const timed = async (caller: Caller, request: HostileRequest): Promise<Answer> => {
    const send = () => t.send(caller, request.target, { method: request.method, headers: request.headers, body: request.body });
    const first = await send();
    if (first.ms <= SLOWEST_MS || first.status === 0 || first.status >= 500) return first;
    const again = await send();
    return { ...first, ms: again.ms };
  };
  const options = () => ({ seed: SEED, numRuns: RUNS, ...(PATH ? { path: PATH } : {}) });
  /** Answers by status class, printed at the end: a suite that only ever sees 400s tests little. */
  const seen = new Map<string, number>();
  const count = (answer: Answer) => {
    const key = `${Math.floor(answer.status / 100)}xx`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  };
  afterAll(() => console.log(`fuzz ${variant.label} through ${adapter}: ${[...seen].sort().map(([k, n]) => `${n} × ${k}`).join(', ')}`));

  it('drives routes of every namespace the root index lists', () => {
    expect(t.namespaces).toEqual(expect.arrayContaining(['oembed/1.0', 'contact-forms/v1', 'popups/v1', 'redirection/v1', 'regenerate-thumbnails/v1', 'cal/events/v1', 'wp/v2']));
    for (const ns of t.namespaces) expect(t.routes.filter((r) => r.pattern.startsWith(`/${ns}/`)).length, ns).toBeGreaterThan(0);
  });

  it('sees in its store snapshots a record an administrator changes', async () => {
    const before = recordsOf(await t.snapshot());
    const tag = await t.send('administrator', '/cal/events/v1/tags', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"snapshot check"}' });
    expect(tag.status).toBe(201);
    const after = recordsOf(await t.snapshot());
    expect(Object.keys(after).filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table])).length).toBeGreaterThan(0);
  });

  it('does not count the matches a list read keeps as a write', async () => {
    const before = recordsOf(await t.snapshot());
    for (const path of ['/cal/events/v1/events', '/cal/events/v1/venues', '/cal/events/v1/organizers']) {
      expect((await t.send('anonymous', path, { method: 'GET' })).status).toBe(200);
    }
    const after = recordsOf(await t.snapshot());
    expect(Object.keys({ ...before, ...after }).filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]))).toEqual([]);
  });

  it(
    'answers anonymous callers and subscribers with envelopes, and lets them change nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom<Caller>('anonymous', 'subscriber'), hostileRequest(t.routes, t.argNames), async (caller, request) => {
          const before = recordsOf(await t.snapshot());
          const answer = await timed(caller, request);
          count(answer);
          const damage = prototypeDamage();
          expect(damage, `Object.prototype: ${describeCase(caller, request, answer)}`).toEqual([]);
          expect(fault(request, answer), describeCase(caller, request, answer)).toBeNull();
          const after = recordsOf(await t.snapshot());
          const changed = Object.keys({ ...before, ...after }).filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]));
          expect(changed, `records changed by ${describeCase(caller, request, answer)}`).toEqual([]);
        }),
        options(),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'answers every role with envelopes or successes',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom<Caller>('contributor', 'author', 'editor', 'administrator'), hostileRequest(t.routes, t.argNames), async (caller, request) => {
          const answer = await timed(caller, request);
          count(answer);
          const damage = prototypeDamage();
          expect(damage, `Object.prototype: ${describeCase(caller, request, answer)}`).toEqual([]);
          expect(fault(request, answer), describeCase(caller, request, answer)).toBeNull();
        }),
        options(),
      );
    },
    PROPERTY_TIMEOUT,
  );
});
