import { phpTrim } from '../../http/php.js';
/**
 * Additional settings: `name: value` lines (`demo_mode: on`, `subscribers_only: true`, `skip_mail: on`,
 * `acceptance_as_validation: on`, `do_not_store: true`).
 */
const SETTING_LINE = /^([a-zA-Z0-9_]+)[\t ]*:(.*)$/;

/** The first value of a setting, trimmed (`WPCF7_ContactForm::pref`), or null. */
export function settingValue(settings: string, name: string): string | null {
  for (const line of settings.split('\n')) {
    const m = SETTING_LINE.exec(line);
    if (m && m[1] === name) return phpTrim(m[2]!);
  }
  return null;
}

/** `is_true`: the setting is `on`, `true` or `1`. */
export function settingIsTrue(settings: string, name: string): boolean {
  const value = settingValue(settings, name);
  return value === 'on' || value === 'true' || value === '1';
}

/**
 * The `settings` list of the REST shape: `[name, value]` per matching line, `on`/`true` → true and
 * `off`/`false` → false. Upstream filters out the other lines but keeps the positions, so when a line in
 * between does not match, PHP encodes the list as an object keyed by line number — reproduced here.
 */
export function settingsForApi(settings: string): Array<[string, string | boolean]> | Record<string, [string, string | boolean]> {
  const out: Array<[number, [string, string | boolean]]> = [];
  settings.split('\n').forEach((line, index) => {
    const m = SETTING_LINE.exec(line);
    if (!m) return;
    const raw = phpTrim(m[2]!);
    const value = raw === 'on' || raw === 'true' ? true : raw === 'off' || raw === 'false' ? false : raw;
    out.push([index, [phpTrim(m[1]!), value]]);
  });
  if (out.every(([index], position) => index === position)) return out.map(([, pair]) => pair);
  const object: Record<string, [string, string | boolean]> = {};
  for (const [index, pair] of out) object[String(index)] = pair;
  return object;
}
