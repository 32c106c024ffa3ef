import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInNamespaces, createSite, defineNamespace, READABLE, silentLogger } from '../src/index.js';
import { memoryStore } from '../../store-memory/src/index.js';

/** An app's own namespaces beside the built-in ones: one of a single segment, one with a dot in its first segment. */
const mine = defineNamespace({
  namespace: 'mine',
  routes: [
    { path: '/things/(?P<id>\\d+)', endpoints: [{ methods: READABLE, handler: () => 'thing' }] },
    { path: '/(?P<rest>.*)', endpoints: [{ methods: 'POST', handler: () => 'rest' }] },
  ],
});
const dotted = defineNamespace({ namespace: 'dot.ted/v1', routes: [{ path: '/x', endpoints: [{ methods: READABLE, handler: () => 'x' }] }] });
const site = createSite({ store: memoryStore(), logger: silentLogger, namespaces: [...builtInNamespaces(), mine, dotted] });
const registry = site.registry;

/** WordPress's match, as the registry did it before it indexed its routes: every route in order. */
function scan(path: string, method: string) {
  for (const route of registry.routes) {
    const match = route.regex.exec(path);
    if (!match) continue;
    const endpoint =
      route.endpoints.find((e) => e.methods.includes(method)) ?? (method === 'HEAD' ? route.endpoints.find((e) => e.methods.includes('GET')) : undefined);
    if (endpoint) return { pattern: route.pattern, endpoint, params: { ...(match.groups ?? {}) } };
  }
  return null;
}

describe('route matching', () => {
  const known = registry.routes.map((route) => route.pattern.replace(/\(\?P<\w+>[^)]*\)/g, '12'));
  const segment = fc.constantFrom('cal', 'CAL', 'redirection', 'mine', 'minex', 'dot.ted', 'wp', 'oembed', '', 'x', 'api');
  const path = fc.oneof(
    fc.constantFrom(...known, ...known.map((p) => p.toUpperCase()), ...known.map((p) => `${p}/`)),
    fc.array(fc.oneof(segment, fc.string({ maxLength: 6 })), { minLength: 0, maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
  );

  it('finds for any path and method the route and endpoint a scan of every route finds', () => {
    fc.assert(
      fc.property(path, fc.constantFrom('GET', 'POST', 'HEAD', 'DELETE', 'PUT'), (p, method) => {
        const found = registry.match(p, method);
        const expected = scan(p, method);
        expect(found && { pattern: found.route.pattern, endpoint: found.endpoint, params: found.params }).toEqual(expected);
        const any = registry.findRoute(p);
        expect(any?.route.pattern ?? null).toBe(registry.routes.find((route) => route.regex.test(p))?.pattern ?? null);
      }),
      { numRuns: 3000 },
    );
  });

  it('matches routes of a namespace of one segment, and of one whose first segment holds a pattern character', () => {
    expect(registry.match('/mine/things/4', 'GET')?.params).toEqual({ id: '4' });
    expect(registry.match('/mine/anything/else', 'POST')?.params).toEqual({ rest: 'anything/else' });
    expect(registry.match('/dot.ted/v1/x', 'GET')?.route.pattern).toBe('/dot.ted/v1/x');
    expect(registry.match('/', 'GET')?.route.pattern).toBe('/');
    expect(registry.match('/CAL/EVENTS/V1/EVENTS', 'GET')?.route.pattern).toBe('/cal/events/v1/events');
  });
});
