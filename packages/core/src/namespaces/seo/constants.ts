/** `seo/v1` (Yoast SEO's `yoast/v1` of the 5.x–13.x era). */
export const SEO_NAMESPACE = 'seo/v1';

/** Yoast's own capability for its settings; administrators hold `manage_options`, which is accepted too. */
export const MANAGE_SEO = 'wpseo_manage_options';

/** Options the namespace keeps in the store. */
export const CONFIGURATION_OPTION = 'seo_configuration';
export const SETTINGS_OPTION = 'seo_settings';

/** Records one reindex call counts links in (Yoast's query limit). */
export const REINDEX_BATCH = 100;

/** WordPress's robots.txt for a public site. */
export const DEFAULT_ROBOTS_TXT = 'User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n';

/** A robots.txt larger than this is not read past it (Google's limit is 500 KiB). */
export const MAX_ROBOTS_TXT = 500 * 1024;
