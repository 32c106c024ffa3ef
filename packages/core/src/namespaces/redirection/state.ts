import type { ApiRequest } from '../../http/api-request.js';
import { siteZone } from '../../settings.js';
import type { RedirectWireContext } from './redirects/serialize.js';
import { siteFlags, type RedirectionSettings } from './settings.js';

/** What every Redirection handler starts from: the plugin installed, queued hits stored, the settings. */
export async function redirectionState(request: ApiRequest): Promise<{ settings: RedirectionSettings; wire: RedirectWireContext }> {
  const engine = request.site.redirects;
  const settings = await engine.settings();
  // Read your own visits: what this instance queued is stored before a list shows it.
  await engine.flush();
  return {
    settings,
    wire: { siteFlags: siteFlags(settings), dateFormat: request.site.settings.date_format, zone: siteZone(request.site.settings) },
  };
}
