import { ApiError } from '../../../http/api-error.js';
import type { ApiRequest } from '../../../http/api-request.js';
import { intval } from '../../../http/php.js';
import { defineRoute, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import { isStoreError } from '../../../store/store-error.js';
import type { NewRedirect, RedirectImportBatch } from '../../../store/redirection.js';
import { allow } from '../args.js';
import { CAPS, LIMITS } from '../constants.js';
import { redirectionErrors } from '../errors.js';
import { sanitizeRedirect, type SanitizeContext } from '../redirects/sanitize.js';
import { siteFlags } from '../settings.js';
import { redirectionState } from '../state.js';
import { exportApache, exportCsv, exportJson, exportNginx, type ExportInput } from './export.js';
import { ImportError, looksLikeNginx, parseApacheFile, parseCsvFile, parseJsonFile, parseNginxFile, type ParsedImport } from './import.js';

async function importFile(request: ApiRequest): Promise<unknown> {
  const { settings } = await redirectionState(request);
  const file = request.files.find((f) => f.field === 'file') ?? null;
  if (!file) throw redirectionErrors.importInvalidFile();
  if (file.data.length > LIMITS.importBytes) throw redirectionErrors.importTooLarge(LIMITS.importBytes);
  const repos = request.site.store.redirection;
  const extension = (/\.([^./\\]+)$/.exec(file.filename)?.[1] ?? '').toLowerCase();
  const text = file.data.toString('utf8');
  const groupId = intval(request.get('group_id'));
  const group = extension === 'json' ? null : await repos.groups.get(groupId);
  if (extension !== 'json' && !group) throw redirectionErrors.importInvalidGroup();
  let parsed: ParsedImport;
  try {
    if (extension === 'json') parsed = parseJsonFile(text);
    else if (extension === 'csv' || extension === 'txt') parsed = parseCsvFile(text, group!.status === 'enabled');
    else if (looksLikeNginx(text)) parsed = parseNginxFile(text);
    else parsed = parseApacheFile(text);
  } catch (error) {
    if (error instanceof ImportError) throw redirectionErrors.importUnreadable(error.message);
    throw error;
  }
  if (parsed.redirects.length > LIMITS.importRows) throw redirectionErrors.importUnreadable(`more than ${LIMITS.importRows} redirects`);

  // Every row is sanitised like a redirect made through the API; rows the plugin would refuse are skipped, and
  // what remains is stored in one go (all of it or, on a failure, nothing).
  const fileGroups = new Set(parsed.groups.map((g) => g.ref));
  const ctx: SanitizeContext = {
    siteFlags: siteFlags(settings),
    serverName: (request.header('host') ?? '').replace(/:\d+$/, ''),
    autoTarget: settings.auto_target,
    now: request.site.now(),
    groupExists: async (id) => (fileGroups.size ? true : id === groupId),
  };
  const batch: RedirectImportBatch = {
    groups: parsed.groups.map((g) => ({ ref: g.ref, name: g.name, moduleId: g.moduleId, status: g.enabled ? 'enabled' : 'disabled', position: 0 })),
    redirects: [],
  };
  let attempts = 0;
  for (const item of parsed.redirects) {
    attempts++;
    const body: Record<string, unknown> = { ...item.body, group_id: item.fileGroup !== undefined ? 1 : groupId };
    const sanitized = await sanitizeRedirect(body, ctx);
    if (sanitized instanceof ApiError) continue;
    const disabled = body.enabled === false || body.enabled === 'disabled' || body.status === 'disabled';
    const record: NewRedirect = { hits: 0, lastAccess: 0, ...sanitized.record, status: disabled ? 'disabled' : 'enabled' };
    batch.redirects.push(item.fileGroup !== undefined ? { ...record, groupRef: item.fileGroup, appendPosition: sanitized.appendPosition } : { ...record, groupId, appendPosition: sanitized.appendPosition });
  }
  let imported: number;
  try {
    imported = await repos.importBatch(batch);
  } catch (error) {
    if (isStoreError(error, 'not_found')) throw redirectionErrors.importInvalidGroup();
    throw error;
  }
  await request.site.redirects.changed();
  // JSON counts what it tried, the other formats what they created (as the plugin does).
  return { imported: extension === 'json' ? attempts : imported };
}

const EXPORT_FORMATS = ['csv', 'apache', 'nginx', 'json'] as const;

async function exportFile(request: ApiRequest): Promise<unknown> {
  const { settings, wire } = await redirectionState(request);
  const repos = request.site.store.redirection;
  const module = String(request.get('module'));
  // A `format` in the query string comes before the path's (WordPress's parameter order); one that names no
  // export format is not used, and the path's (which the route's pattern checked) is.
  const format = EXPORT_FORMATS.find((name) => name === request.get('format')) ?? EXPORT_FORMATS.find((name) => name === request.urlParams().format) ?? 'csv';
  const all = module === 'all';
  const moduleId = intval(module);
  if (!all && ![1, 2, 3].includes(moduleId)) throw redirectionErrors.exportInvalidModule();
  const groups = (await repos.groups.all()).filter((g) => all || g.moduleId === moduleId);
  const redirects = all
    ? (await repos.redirects.all({})).sort((a, b) => a.id - b.id)
    : await repos.redirects.all({ status: 'enabled', moduleId, enabledGroups: true });
  const input: ExportInput = { groups, redirects, counts: await repos.redirects.countByGroup(), wire, now: request.site.now(), https: settings.https };
  const writers = { csv: exportCsv, apache: exportApache, nginx: exportNginx, json: exportJson } as const;
  const data = writers[format](input);
  return { data, total: redirects.length };
}

export function ioRoutes(): RouteDefinition[] {
  const permission = allow(CAPS.ioManage);
  const nothing = () => ({ imported: 0 });
  return [
    defineRoute('/import/file/(?P<group_id>\\d+)', [{ methods: EDITABLE, permission, handler: importFile }]),
    defineRoute('/import/plugin', [
      // No other redirect plugin's data exists beside siterest: nothing to list, nothing to import.
      { methods: READABLE, permission, handler: () => ({ importers: [] }) },
      { methods: EDITABLE, permission, handler: nothing },
    ]),
    // Before November 2019 the plugin took the importer in the path; the spec still lists it. Not in the index.
    defineRoute('/import/plugin/(?P<plugin>.+)', [{ methods: EDITABLE, permission, handler: nothing, showInIndex: false }]),
    defineRoute('/export/(?P<module>1|2|3|all)/(?P<format>csv|apache|nginx|json)', [{ methods: READABLE, permission, handler: exportFile }]),
  ];
}
