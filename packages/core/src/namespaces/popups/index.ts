import { ApiError } from '../../http/api-error.js';
import type { ApiRequest } from '../../http/api-request.js';
import { absint } from '../../http/php.js';
import { READABLE, defineNamespace, defineRoute, type NamespaceDefinition } from '../../registry/types.js';
import { siteZone } from '../../settings.js';
import type { Site } from '../../site.js';
import type { NewPopup, PopupCounts, PopupPatch, PopupRecord } from '../../store/popups.js';
import { formatWpDate } from '../../time.js';

/** `popups/v1` (Popup Maker's `pum/v1`). */
export const POPUPS_NAMESPACE = 'popups/v1';

/** The post type popups are kept as (Popup Maker's `popup`). */
export const POPUP_TYPE = 'popup';

const popupErrors = {
  missingParams: () => new ApiError('missing_params', 'Missing Parameters.', 404),
  // siterest: upstream counts an open for any id, popup or not; here the id must name a popup.
  notAPopup: () =>
    new ApiError('rest_invalid_param', 'Invalid parameter(s): pid', 400, {
      params: { pid: 'pid does not name a popup.' },
      details: [],
    }),
} as const;

/** `current_time( 'timestamp' )`: the Unix time shifted by the site's UTC offset. */
function localTimestamp(site: ApiRequest['site']): number {
  const now = site.now();
  return Math.floor(now / 1000) + siteZone(site.settings).offset(now) * 60;
}

async function recordOpen(request: ApiRequest): Promise<null> {
  const pid = request.get<number>('pid') ?? 0;
  if (!pid) throw popupErrors.missingParams();
  if (!Number.isSafeInteger(pid)) throw popupErrors.notAPopup();
  const counts = await request.site.store.popups.recordOpen(pid, localTimestamp(request.site));
  if (!counts) throw popupErrors.notAPopup();
  // Popup Maker answers nothing: WordPress sends 200 with an empty body (a beacon's answer).
  return null;
}

export interface PopupsOptions {
  /** Popup Maker's "disable popup open tracking": the route is not registered at all. */
  disableOpenTracking?: boolean;
}

/** `popups/v1`: Popup Maker 1.5–1.6's open-analytics route. */
export function popupsNamespace(options: PopupsOptions = {}): NamespaceDefinition {
  return defineNamespace({
    namespace: POPUPS_NAMESPACE,
    routes: options.disableOpenTracking
      ? []
      : [
          defineRoute('/analytics/open', [
            {
              methods: READABLE,
              // The upstream validator is mis-keyed, so only absint runs: "abc" and 0 reach the handler as 0.
              args: { pid: { required: true, type: 'integer', sanitize: (value) => absint(value) } },
              handler: recordOpen,
            },
          ]),
        ],
  });
}

export interface NewPopupInput {
  title: string;
  content?: string;
  status?: 'publish' | 'draft' | 'private' | 'pending';
  slug?: string;
  authorId?: number;
}

/** The library side of popups: create and edit popup records, read and reset their counters. */
export interface PopupsAdmin {
  create(input: NewPopupInput): Promise<PopupRecord>;
  get(id: number): Promise<PopupRecord | null>;
  list(query?: { offset?: number; limit?: number }): Promise<{ items: PopupRecord[]; total: number }>;
  update(id: number, patch: Partial<NewPopupInput>): Promise<PopupRecord | null>;
  delete(id: number): Promise<boolean>;
  /** Counts an open as the beacon does. */
  recordOpen(id: number): Promise<PopupCounts | null>;
  resetCount(id: number): Promise<PopupCounts | null>;
  /** Opens of every popup ever (`pum_total_open_count`). */
  totalOpens(): Promise<number>;
}

const slugify = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);

export function popups(site: Site): PopupsAdmin {
  const store = () => site.store.popups;
  const dates = () => {
    const now = site.now();
    const zone = siteZone(site.settings);
    return { local: formatWpDate(now, zone), gmt: formatWpDate(now, 'UTC') };
  };
  return {
    async create(input) {
      await site.ready();
      const { local, gmt } = dates();
      const record: NewPopup = {
        type: POPUP_TYPE,
        status: input.status ?? 'publish',
        authorId: input.authorId ?? 0,
        title: input.title,
        content: input.content ?? '',
        excerpt: '',
        slug: input.slug ?? slugify(input.title),
        password: '',
        parentId: 0,
        menuOrder: 0,
        date: local,
        dateGmt: gmt,
        modified: local,
        modifiedGmt: gmt,
        trashedFrom: null,
        imageId: 0,
      };
      return store().create(record);
    },
    get: async (id) => (await site.ready(), store().get(id)),
    list: async (query = {}) => {
      await site.ready();
      return store().list({ statuses: 'any', offset: Math.max(0, query.offset ?? 0), limit: Math.min(Math.max(1, query.limit ?? 50), 1000) });
    },
    async update(id, patch) {
      await site.ready();
      const { local, gmt } = dates();
      const out: PopupPatch = { modified: local, modifiedGmt: gmt };
      if (patch.title !== undefined) out.title = patch.title;
      if (patch.content !== undefined) out.content = patch.content;
      if (patch.status !== undefined) out.status = patch.status;
      if (patch.slug !== undefined) out.slug = patch.slug;
      return store().update(id, out);
    },
    delete: async (id) => (await site.ready(), store().delete(id)),
    recordOpen: async (id) => (await site.ready(), store().recordOpen(id, localTimestamp(site))),
    resetCount: async (id) => (await site.ready(), store().resetCount(id)),
    totalOpens: async () => (await site.ready(), store().totalOpens()),
  };
}
