import { shareParts } from './answer-cache.js';
import { encodeJson } from './http/json.js';
import type { BodyPart } from './http/request.js';
import type { PostRecord } from './store/records.js';
import { VersionedLru } from './util/versioned-lru.js';

/** One record's wire object and its JSON, shared between requests and never changed. */
export interface Fragment {
  data: Record<string, unknown>;
  json: string;
  /**
   * A comma and the JSON's UTF-8 bytes, as the fragment follows another in a list (the first in a list is written
   * without the comma), made the first time a list with this fragment is sent.
   */
  listed: Buffer | null;
  /**
   * The id and access state of each record the object was built from (the record, then each record it links to,
   * in the order its caller gives; only the id of one left out), {@link ACCESS_FIELDS} values a record: see
   * {@link builtFrom}.
   */
  access: readonly unknown[];
  /**
   * No later than when the records it was built from were read (site clock, milliseconds): its age, and that of
   * answers put together from it, counts from then, so a write made outside siterest is seen within `maxAgeMs`
   * however slow the reads were and however the fragment is found again.
   */
  builtAt: number;
}

/**
 * A record's id and what decides who may read it and whether its content is shown: read_post and edit_post, and
 * its password.
 */
type AccessState = Pick<PostRecord, 'id' | 'status' | 'authorId' | 'password' | 'trashedFrom'>;

/**
 * A record a fragment is built from: the record as read, or the id of a linked record left out of it (the caller
 * may not read it, or it is gone).
 */
export type FragmentSource = AccessState | number;

const ACCESS_FIELDS = 5;

/** A fragment for a record's wire object, built from `sources` (see {@link Fragment.access}) read at `builtAt`. */
export function fragmentOf(data: Record<string, unknown>, sources: readonly FragmentSource[], builtAt: number): Fragment {
  const access = new Array<unknown>(sources.length * ACCESS_FIELDS);
  for (let index = 0; index < sources.length; index++) {
    const source = sources[index]!;
    const at = index * ACCESS_FIELDS;
    if (typeof source === 'number') {
      access[at] = source;
      continue;
    }
    access[at] = source.id;
    access[at + 1] = source.status;
    access[at + 2] = source.authorId;
    access[at + 3] = source.password;
    access[at + 4] = source.trashedFrom;
  }
  return { data, json: encodeJson(data), listed: null, access, builtAt };
}

/** How many records `fragment` was built from: a caller checks each of them with {@link builtFrom}. */
export function sourceCount(fragment: Fragment): number {
  return fragment.access.length / ACCESS_FIELDS;
}

/**
 * Whether the `index`th record `fragment` was built from is the caller's `source`, in the same access state (or
 * left out, as it is). A fragment is found by the caller's version and by how the caller sees the records (its
 * key), but two requests at one version may read different records: the version is read before the records, and a
 * write can land in between (on PostgreSQL its commit comes before its advance; SQL run outside siterest does not
 * advance it at all). A visitor who read an event published would otherwise be given what an administrator built
 * from the draft it has just become, or a text unlocked by a password that has just been added; and where the
 * records an event links to changed, two ways of seeing them could share a key. With every record (the caller also
 * checks {@link sourceCount}) and its state the same, the fragment was built from records this caller may see, and
 * as it sees them.
 */
export function builtFrom(fragment: Fragment, index: number, source: FragmentSource): boolean {
  const access = fragment.access;
  const at = index * ACCESS_FIELDS;
  if (at >= access.length) return false;
  if (typeof source === 'number') return access[at] === source && access[at + 1] === undefined;
  return (
    access[at] === source.id &&
    access[at + 1] === source.status &&
    access[at + 2] === source.authorId &&
    access[at + 3] === source.password &&
    access[at + 4] === source.trashedFrom
  );
}

export interface FragmentCacheOptions {
  /** Most memory the kept fragments may take, estimated from their JSON (16 MiB). */
  maxBytes?: number;
  /**
   * Longest time a fragment is reused, in milliseconds (30 s): the bound on how stale it can be after a write the
   * store's change version does not see (SQL run outside siterest), as for the answer cache.
   */
  maxAgeMs?: number;
}

/** Memory per character of JSON: the text, its bytes and the objects it was encoded from (see answer-cache.ts). */
const BYTES_PER_JSON_CHAR = 4;

/** Longest key kept: a fragment's key names a record and the caller's rights on it, never free text. */
const MAX_KEY_CHARS = 512;

/**
 * What a fragment is of. `anonymousEvent` is an event as an anonymous caller who gives no password sees it: the
 * same fragment as under its `event` key, found by the event alone (see events/routes.ts).
 */
export const FRAGMENT_KINDS = { event: 0, venue: 1, organizer: 2, anonymousEvent: 3 } as const;
export type FragmentKind = (typeof FRAGMENT_KINDS)[keyof typeof FRAGMENT_KINDS];

/**
 * A fragment's key: a number when its parts fit (almost always), else text naming the same parts. Numbers are
 * what a list reads dozens of per request: no string is built, flattened and hashed for each.
 */
export type FragmentKey = number | string;

const KINDS = 4;
/** API roots numbered per cache (a site is usually served under one or two); more are keyed as text. */
const MAX_ROOTS = 8;
/** How a caller sees a record, numbered by the caller of {@link fragmentKey} (below this). */
export const MAX_VARIANTS = 256;
/** Largest id a numeric key holds exactly (ids × 8192 stay within 2^53). */
const MAX_ID = 2 ** 40;

/**
 * The numeric key of a record's fragment as seen by one kind of caller (`variant`, below {@link MAX_VARIANTS})
 * under the API root numbered `root` ({@link FragmentCache.rootOf}); null when a part does not fit, and the
 * caller keys it as text. Distinct parts give distinct numbers.
 */
export function fragmentKey(kind: FragmentKind, id: number, root: number, variant: number): number | null {
  if (root < 0 || root >= MAX_ROOTS || !(variant >= 0 && variant < MAX_VARIANTS) || !Number.isInteger(variant)) return null;
  if (!Number.isInteger(id) || id < 0 || id >= MAX_ID) return null;
  return ((id * KINDS + kind) * MAX_ROOTS + root) * MAX_VARIANTS + variant;
}

/** A linked record's key (a venue's or an organizer's): negative, so never a fragment's. */
function recordKey(kind: FragmentKind, id: number): FragmentKey {
  return Number.isInteger(id) && id >= 0 && id < MAX_ID ? -(id * KINDS + kind) - 1 : `r ${kind} ${id}`;
}

/**
 * Serialized records of list answers (an event with its venue, organizers, terms and images), so a list whose
 * answer is not cached is put together from the JSON of its items instead of serializing and encoding each one
 * again.
 *
 * A fragment is reused only under the change version of the data it was built from (store.changeVersion of the
 * calendar's scopes, read before the records were loaded) and the same settings object, and while younger than
 * `maxAgeMs`. The stores keep no per-record revision (terms have no modification date, and `post_modified` has
 * one-second resolution), so any write to the scope seen by the version makes every fragment stale: at the price
 * of rebuilding after each write. The key holds what differs between callers (see events/routes.ts); as records
 * read at one version may differ in the write that has not advanced it yet, the caller also checks that the
 * fragment was built from the records it read, in the access states it read them in ({@link builtFrom}). Memory is bounded in bytes, oldest use
 * evicted first.
 */
export class FragmentCache {
  private readonly kept: VersionedLru;
  private readonly roots = new Map<string, number>();

  constructor(now: () => number, options: FragmentCacheOptions = {}) {
    this.kept = new VersionedLru(now, {
      maxEntries: Infinity,
      maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
      largestShare: 64,
      maxAgeMs: options.maxAgeMs ?? 30_000,
    });
  }

  /** The number of fragments kept and the memory they are estimated to take. */
  get size(): { entries: number; bytes: number } {
    return this.kept.size;
  }

  /** The number of an API root in numeric keys ({@link fragmentKey}), or -1 once too many roots are numbered. */
  rootOf(apiRoot: string): number {
    let root = this.roots.get(apiRoot);
    if (root === undefined) {
      if (this.roots.size >= MAX_ROOTS || apiRoot.length > MAX_KEY_CHARS) return -1;
      this.roots.set(apiRoot, (root = this.roots.size));
    }
    return root;
  }

  /** The fragment kept for `key` if it was built at `version` with these `settings`. */
  get(key: FragmentKey, version: number, settings: object): Fragment | undefined {
    return this.kept.get(typeof key === 'number' ? key : `f ${key}`, version, settings) as Fragment | undefined;
  }

  set(key: FragmentKey, version: number, settings: object, fragment: Fragment): void {
    this.keepFragment(key, version, settings, fragment);
  }

  /**
   * Keeps a fragment already kept (or just built) under another key too: another way of finding the same JSON,
   * as old as the fragment (kept anew, it would outlive `maxAgeMs`).
   */
  alias(key: FragmentKey, version: number, settings: object, fragment: Fragment): void {
    this.keepFragment(key, version, settings, fragment);
  }

  /**
   * A fragment of `data`, built from `sources` (see {@link fragmentOf}), which were read no earlier than `readAt`:
   * its age counts from then, however long the reads and the building took.
   */
  build(data: Record<string, unknown>, sources: readonly FragmentSource[], readAt: number): Fragment {
    return fragmentOf(data, sources, readAt);
  }

  private keepFragment(key: FragmentKey, version: number, settings: object, fragment: Fragment): void {
    this.keep(typeof key === 'number' ? key : `f ${key}`, version, settings, fragment, fragment.json.length * BYTES_PER_JSON_CHAR, fragment.builtAt);
  }

  /**
   * A record read at `version` (a venue or organizer a listed event links to), kept under the same rule as the
   * fragments: what the caller may see of it decides which fragment fits, so a list whose fragments are all kept
   * reads none of them again.
   */
  record<R>(kind: FragmentKind, id: number, version: number, settings: object): R | undefined {
    return this.kept.get(recordKey(kind, id), version, settings) as R | undefined;
  }

  /** Keeps `record`, read no earlier than `readAt`, from which its age counts. */
  keepRecord(kind: FragmentKind, id: number, version: number, settings: object, record: object, readAt: number): void {
    this.keep(recordKey(kind, id), version, settings, record, JSON.stringify(record).length * BYTES_PER_JSON_CHAR, readAt);
  }

  clear(): void {
    this.kept.clear();
  }

  private keep(key: FragmentKey, version: number, settings: object, value: unknown, size: number, storedAt: number): void {
    if (typeof key === 'string' && key.length > MAX_KEY_CHARS) return;
    this.kept.set(key, version, value, size, settings, storedAt);
  }
}

/** The opening of a list answer whose first key is `key`, as UTF-8 bytes (`{"events":[`), made once per key. */
const openings = new Map<string, Buffer>();
function openingOf(key: string): Buffer {
  let opening = openings.get(key);
  if (!opening) openings.set(key, (opening = Buffer.from(`{${encodeJson(key)}:[`)));
  return opening;
}

/**
 * The closing piece of a list answer whose keys after the list are `after` (in order): `]` closes the list, then
 * those keys encoded on their own, `,` or `}` following as in the whole. A list route whose ending repeats (the
 * same URL, page and total) can work it out once and give it to shareJoinedList.
 */
export function listClosing(after: Record<string, unknown>): string {
  const tail = encodeJson(after);
  return tail.length > 2 ? `],${tail.slice(1)}` : ']}';
}

/**
 * Records the JSON of a list answer whose first key is `key` (the list) as its item fragments joined:
 * `encodeJson` is the same on parts as on the whole, so this is byte for byte what encoding `data` would give.
 * It is kept as pieces — the opening, each fragment's bytes, the closing — which the adapters write one after
 * another: the fragments' bytes are made once and shared, so an uncached list copies none of its tens of
 * kilobytes, and allocates no fresh buffer for them (see answer-cache.ts for when they are joined). `closing`, when
 * given, must be the UTF-8 bytes of listClosing of the keys of `data` after `key` (made once with the page's ending,
 * see archiveEnding). Every piece is bytes: with a piece of text among them, Node writes the corked pieces by its
 * slower path for strings, which cost about 8 µs more server CPU per list answer under load.
 */
export function shareJoinedList(data: Record<string, unknown>, key: string, items: readonly Fragment[], closing?: Buffer): void {
  if (closing === undefined) {
    const after: Record<string, unknown> = {};
    for (const name in data) if (name !== key) after[name] = data[name];
    closing = Buffer.from(listClosing(after));
  }
  const parts = new Array<BodyPart>(items.length + 2);
  parts[0] = openingOf(key);
  let builtAt: number | null = null;
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    const listed = (item.listed ??= Buffer.from(`,${item.json}`));
    parts[index + 1] = index ? listed : listed.subarray(1);
    if (builtAt === null || item.builtAt < builtAt) builtAt = item.builtAt;
  }
  parts[items.length + 1] = closing;
  shareParts(data, parts, builtAt);
}
