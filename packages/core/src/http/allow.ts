import type { CompiledRoute } from '../registry/registry.js';
import type { ApiError } from './api-error.js';
import type { ApiRequest } from './api-request.js';
import { isPending, type Maybe } from '../util/maybe.js';

/**
 * A route's methods in the order the Allow header lists them (each in its first place among the endpoints), the
 * bits of each endpoint's methods in that order, and the lists already made for a set of bits. Worked out once per
 * route: the header was built from fresh arrays and closures on every request (1.7 KB of garbage per list).
 */
interface MethodOrder {
  readonly methods: readonly string[];
  readonly bits: readonly number[];
  readonly lists: Array<readonly string[] | undefined>;
}

const orders = new WeakMap<CompiledRoute, MethodOrder>();

function methodOrderOf(route: CompiledRoute): MethodOrder {
  let order = orders.get(route);
  if (order) return order;
  const methods: string[] = [];
  const bits = route.endpoints.map((endpoint) => {
    let mask = 0;
    for (const method of endpoint.methods) {
      if (!methods.includes(method)) methods.push(method);
      mask |= 1 << methods.indexOf(method);
    }
    return mask;
  });
  // A route has a handful of methods; more than 30 would not fit the bits (no route comes near).
  if (methods.length > 30) throw new Error(`Route ${route.pattern} has more methods than the Allow header's bits hold.`);
  order = { methods, bits, lists: [] };
  orders.set(route, order);
  return order;
}

/** The methods of `allowed` (bits in the route's order), as one shared, frozen list. */
function listOf(order: MethodOrder, allowed: number): readonly string[] {
  let list = order.lists[allowed];
  if (!list) order.lists[allowed] = list = Object.freeze(order.methods.filter((_, index) => allowed & (1 << index)));
  return list;
}

/** An endpoint's verdict for the request: a permission callback that throws denies. */
function verdictOf(permission: ((request: ApiRequest) => Maybe<boolean | ApiError>) | undefined, request: ApiRequest): Maybe<boolean | ApiError> {
  if (!permission) return true;
  try {
    return permission(request);
  } catch {
    return false;
  }
}

/** The last verdict given for a method stands (rest_send_allow_header walks the endpoints in order). */
const withVerdict = (allowed: number, bits: number, verdict: unknown): number => (verdict === true ? allowed | bits : allowed & ~bits);

/**
 * WordPress rest_send_allow_header: the methods whose permission callback passes for this request. The list is
 * shared between requests: read it, never change it.
 */
export function allowedMethods(route: CompiledRoute, request: ApiRequest): Maybe<readonly string[]> {
  const order = methodOrderOf(route);
  const endpoints = route.endpoints;
  let allowed = 0;
  for (let index = 0; index < endpoints.length; index++) {
    const verdict = verdictOf(endpoints[index]!.permission, request);
    if (isPending(verdict)) return allowedAfter(route, order, request, index, allowed, verdict);
    allowed = withVerdict(allowed, order.bits[index]!, verdict);
  }
  return listOf(order, allowed);
}

/** allowedMethods from the endpoint at `index` on, whose verdict is pending; a verdict that fails denies. */
async function allowedAfter(
  route: CompiledRoute,
  order: MethodOrder,
  request: ApiRequest,
  index: number,
  allowed: number,
  pending: PromiseLike<boolean | ApiError>,
): Promise<readonly string[]> {
  const endpoints = route.endpoints;
  let verdict: Maybe<boolean | ApiError> = pending;
  for (;;) {
    let settled: unknown;
    try {
      settled = await verdict;
    } catch {
      settled = false;
    }
    allowed = withVerdict(allowed, order.bits[index]!, settled);
    if (++index >= endpoints.length) return listOf(order, allowed);
    verdict = verdictOf(endpoints[index]!.permission, request);
  }
}

const headers = new WeakMap<readonly string[], string>();

/** The Allow header's value for a list allowedMethods gave, joined once per list. */
export function allowHeader(allow: readonly string[]): string {
  let header = headers.get(allow);
  if (header === undefined) {
    header = allow.join(', ');
    if (Object.isFrozen(allow)) headers.set(allow, header);
  }
  return header;
}
