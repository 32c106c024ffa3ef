import { cwd } from 'node:process';
import type { ApiRequest } from '../../../http/api-request.js';
import { ALLMETHODS, defineRoute, EDITABLE, READABLE, type RouteDefinition } from '../../../registry/types.js';
import { allow } from '../args.js';
import { CAPS, DATABASE_VERSION, MODULE_NAMES } from '../constants.js';
import { IP_HEADERS, updateSettings, type RedirectionSettings } from '../settings.js';
import { redirectionState } from '../state.js';
import { withoutTrailingSlashes } from '../../../http/php.js';

/** Post types Redirection offers for monitoring: the site's public ones, and the trash. */
const POST_TYPES: Record<string, string> = { post: 'Posts', page: 'Pages', cal_events: 'Events', trash: 'Trash' };

/** Every setting the POST body may carry (read one by one through the request, never walked). */
const SETTING_KEYS = Object.keys({
  support: 0, token: 0, monitor_post: 0, monitor_types: 0, associated_redirect: 0, auto_target: 0, expire_redirect: 0, expire_404: 0,
  log_external: 0, log_header: 0, track_hits: 0, newsletter: 0, redirect_cache: 0, ip_logging: 0, ip_headers: 0, ip_proxy: 0,
  last_group_id: 0, rest_api: 0, https: 0, headers: 0, database: 0, relocate: 0, preferred_domain: 0, aliases: 0, permalinks: 0,
  cache_key: 0, plugin_update: 0, update_notice: 0, flag_query: 0, flag_case: 0, flag_trailing: 0, flag_regex: 0,
});

async function settingsEnvelope(request: ApiRequest, settings: RedirectionSettings): Promise<Record<string, unknown>> {
  const groups = await request.site.store.redirection.groups.all();
  const modules: Array<{ label: string; value: Array<{ label: string; value: number }> }> = [];
  for (const moduleId of [1, 2, 3]) {
    const inModule = groups.filter((g) => g.moduleId === moduleId);
    if (inModule.length) modules.push({ label: MODULE_NAMES[moduleId]!, value: inModule.map((g) => ({ label: g.name, value: g.id })) });
  }
  return { settings, groups: modules, installed: `${withoutTrailingSlashes(cwd())}/`, canDelete: true, post_types: POST_TYPES };
}

async function getSettings(request: ApiRequest): Promise<unknown> {
  const { settings } = await redirectionState(request);
  return settingsEnvelope(request, settings);
}

async function postSettings(request: ApiRequest): Promise<unknown> {
  const { settings } = await redirectionState(request);
  const body: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const value = request.get(key);
    if (value !== undefined) body[key] = value;
  }
  const groups = await request.site.store.redirection.groups.all();
  const next = updateSettings(settings, body, { groupIds: groups.map((g) => g.id), postTypes: Object.keys(POST_TYPES), now: request.site.now() });
  await request.site.redirects.saveSettings(next);
  return settingsEnvelope(request, next);
}

/** Redirection's support checks (Red_Fixer::get_json). */
async function pluginStatus(request: ApiRequest): Promise<Record<string, unknown>> {
  const { settings } = await redirectionState(request);
  const repos = request.site.store.redirection;
  const groups = await repos.groups.all();
  const groupIds = new Set(groups.map((g) => g.id));
  const enabledGroups = groups.filter((g) => g.status === 'enabled');
  const counts = await repos.redirects.countByGroup();
  const orphans = [...counts.keys()].some((id) => !groupIds.has(id));
  const monitorOk = settings.monitor_post === 0 || groupIds.has(settings.monitor_post);
  const status: Array<Record<string, unknown>> = [
    { id: 'db', name: 'Database tables', status: 'good', message: 'All tables present' },
    {
      name: 'Valid groups',
      id: 'groups',
      message: enabledGroups.length ? 'Valid groups detected' : 'No valid groups, so you will not be able to create any redirects',
      status: enabledGroups.length ? 'good' : 'problem',
    },
    {
      name: 'Valid redirect group',
      id: 'redirect_groups',
      message: orphans ? 'Redirects with invalid groups detected' : 'All redirects have a valid group',
      status: orphans ? 'problem' : 'good',
    },
    { name: 'Post monitor group', id: 'monitor', message: monitorOk ? 'Post monitor group is valid' : 'Post monitor group is invalid', status: monitorOk ? 'good' : 'problem' },
    { name: 'Site and home protocol', id: 'redirect_url', message: 'Site and home are consistent', status: 'good' },
  ];
  const regexCount = (await repos.redirects.all({ regex: true })).length;
  if (regexCount > 200) status.push({ name: 'Regular Expressions', id: 'regex', message: 'Too many regular expressions may impact site performance', status: 'problem' });
  const ipHeader: Record<string, string | false> = {};
  for (const name of IP_HEADERS) {
    if (name === 'REMOTE_ADDR') ipHeader[name] = request.remoteAddress ? request.remoteAddress.replace(/^::ffff:/, '') : false;
    else ipHeader[name] = request.header(name.replace(/^HTTP_/, '').toLowerCase().replace(/_/g, '-')) ?? false;
  }
  return { status, debug: { database: { current: settings.database || DATABASE_VERSION, latest: DATABASE_VERSION }, ip_header: ipHeader } };
}

/** Red_Fixer::fix: every failed check repaired (groups created, orphans moved, the monitor group reset). */
async function fixPlugin(request: ApiRequest): Promise<unknown> {
  const { settings } = await redirectionState(request);
  const repos = request.site.store.redirection;
  let groups = await repos.groups.all();
  if (!groups.some((g) => g.status === 'enabled')) {
    await repos.groups.create({ name: 'new group', moduleId: 1, status: 'enabled', position: 0 });
    groups = await repos.groups.all();
  }
  const first = groups[0]!;
  const ids = new Set(groups.map((g) => g.id));
  for (const groupId of (await repos.redirects.countByGroup()).keys()) {
    if (ids.has(groupId)) continue;
    for (const redirect of await repos.redirects.all({ groupId })) await repos.redirects.update(redirect.id, { groupId: first.id });
  }
  if (settings.monitor_post !== 0 && !ids.has(settings.monitor_post)) await request.site.redirects.saveSettings({ ...settings, monitor_post: first.id });
  await request.site.redirects.changed();
  return pluginStatus(request);
}

async function deletePlugin(request: ApiRequest): Promise<unknown> {
  await request.site.redirects.flush();
  await request.site.store.redirection.uninstall();
  await request.site.redirects.reset();
  return { location: `${request.site.settings.url}/wp-admin/plugins.php` };
}

async function databaseStep(request: ApiRequest): Promise<unknown> {
  const { settings } = await redirectionState(request);
  return {
    status: 'ok',
    inProgress: false,
    reason: `Your database does not need updating to ${DATABASE_VERSION}.`,
    current: settings.database || DATABASE_VERSION,
    next: DATABASE_VERSION,
    time: request.site.now(),
  };
}

export function settingsRoutes(): RouteDefinition[] {
  const permission = allow(CAPS.optionManage, CAPS.siteManage);
  return [
    defineRoute('/setting', [
      { methods: READABLE, permission, handler: getSettings },
      { methods: EDITABLE, permission, handler: postSettings },
    ]),
  ];
}

export function pluginRoutes(): RouteDefinition[] {
  const permission = allow(CAPS.supportManage);
  return [
    defineRoute('/plugin', [
      { methods: READABLE, permission, handler: pluginStatus },
      {
        methods: EDITABLE,
        args: { name: { description: 'Name', type: 'string' }, value: { description: 'Value', type: 'string' } },
        permission,
        handler: fixPlugin,
      },
    ]),
    defineRoute('/plugin/delete', [{ methods: EDITABLE, permission, handler: deletePlugin }]),
    defineRoute('/plugin/test', [{ methods: ALLMETHODS, permission, handler: () => ({ success: true }) }]),
    defineRoute('/plugin/data', [
      {
        methods: EDITABLE,
        args: { upgrade: { description: 'Upgrade parameter', type: 'string', enum: ['stop', 'skip', 'retry'] } },
        permission,
        handler: databaseStep,
      },
    ]),
  ];
}
