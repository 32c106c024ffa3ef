/** A provider WordPress trusts: URLs matching `pattern` are asked at `endpoint` (`{format}` becomes `json`). */
export interface OembedProvider {
  pattern: RegExp;
  endpoint: string;
}

const p = (pattern: RegExp, endpoint: string): OembedProvider => ({ pattern, endpoint });

/**
 * WordPress's sanctioned oEmbed providers (class-wp-oembed.php), in its order. Their HTML is used as they
 * send it; any other provider is found by discovery and its HTML reduced (see filter.ts).
 */
export const SANCTIONED_PROVIDERS: readonly OembedProvider[] = [
  p(/^https?:\/\/((m|www)\.)?youtube\.com\/watch.*/i, 'https://www.youtube.com/oembed'),
  p(/^https?:\/\/((m|www)\.)?youtube\.com\/playlist.*/i, 'https://www.youtube.com/oembed'),
  p(/^https?:\/\/((m|www)\.)?youtube\.com\/shorts\/.*/i, 'https://www.youtube.com/oembed'),
  p(/^https?:\/\/((m|www)\.)?youtube\.com\/live\/.*/i, 'https://www.youtube.com/oembed'),
  p(/^https?:\/\/youtu\.be\/.*/i, 'https://www.youtube.com/oembed'),
  p(/^https?:\/\/(.+\.)?vimeo\.com\/.*/i, 'https://vimeo.com/api/oembed.{format}'),
  p(/^https?:\/\/(www\.)?dailymotion\.com\/.*/i, 'https://www.dailymotion.com/services/oembed'),
  p(/^https?:\/\/dai\.ly\/.*/i, 'https://www.dailymotion.com/services/oembed'),
  p(/^https?:\/\/(www\.)?flickr\.com\/.*/i, 'https://www.flickr.com/services/oembed/'),
  p(/^https?:\/\/flic\.kr\/.*/i, 'https://www.flickr.com/services/oembed/'),
  p(/^https?:\/\/(.+\.)?smugmug\.com\/.*/i, 'https://api.smugmug.com/services/oembed/'),
  p(/^https?:\/\/(www\.)?scribd\.com\/(doc|document)\/.*/i, 'https://www.scribd.com/services/oembed'),
  p(/^https?:\/\/wordpress\.tv\/.*/i, 'https://wordpress.tv/oembed/'),
  p(/^https?:\/\/(.+\.)?crowdsignal\.net\/.*/i, 'https://api.crowdsignal.com/oembed'),
  p(/^https?:\/\/(.+\.)?polldaddy\.com\/.*/i, 'https://api.crowdsignal.com/oembed'),
  p(/^https?:\/\/poll\.fm\/.*/i, 'https://api.crowdsignal.com/oembed'),
  p(/^https?:\/\/(.+\.)?survey\.fm\/.*/i, 'https://api.crowdsignal.com/oembed'),
  p(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/status(es)?\/.*/i, 'https://publish.twitter.com/oembed'),
  p(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}$/i, 'https://publish.twitter.com/oembed'),
  p(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/likes$/i, 'https://publish.twitter.com/oembed'),
  p(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/lists\/.*/i, 'https://publish.twitter.com/oembed'),
  p(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/timelines\/.*/i, 'https://publish.twitter.com/oembed'),
  p(/^https?:\/\/(www\.)?twitter\.com\/i\/moments\/.*/i, 'https://publish.twitter.com/oembed'),
  p(/^https?:\/\/(www\.)?x\.com\/\w{1,15}\/status(es)?\/.*/i, 'https://publish.twitter.com/oembed'),
  p(/^https?:\/\/(www\.)?soundcloud\.com\/.*/i, 'https://soundcloud.com/oembed'),
  p(/^https?:\/\/(.+?\.)?slideshare\.net\/.*/i, 'https://www.slideshare.net/api/oembed/2'),
  p(/^https?:\/\/(open|play)\.spotify\.com\/.*/i, 'https://embed.spotify.com/oembed/'),
  p(/^https?:\/\/(.+\.)?imgur\.com\/.*/i, 'https://api.imgur.com/oembed'),
  p(/^https?:\/\/(www\.)?issuu\.com\/.+\/docs\/.+/i, 'https://issuu.com/oembed_wp'),
  p(/^https?:\/\/(www\.)?mixcloud\.com\/.*/i, 'https://app.mixcloud.com/oembed/'),
  p(/^https?:\/\/(www\.|embed\.)?ted\.com\/talks\/.*/i, 'https://www.ted.com/services/v1/oembed.{format}'),
  p(/^https?:\/\/(www\.)?(animoto|video214)\.com\/play\/.*/i, 'https://animoto.com/oembeds/create'),
  p(/^https?:\/\/(.+)\.tumblr\.com\/.*/i, 'https://www.tumblr.com/oembed/1.0'),
  p(/^https?:\/\/(www\.)?kickstarter\.com\/projects\/.*/i, 'https://www.kickstarter.com/services/oembed'),
  p(/^https?:\/\/kck\.st\/.*/i, 'https://www.kickstarter.com/services/oembed'),
  p(/^https?:\/\/cloudup\.com\/.*/i, 'https://cloudup.com/oembed'),
  p(/^https?:\/\/(www\.)?reverbnation\.com\/.*/i, 'https://www.reverbnation.com/oembed'),
  p(/^https?:\/\/videopress\.com\/v\/.*/, 'https://public-api.wordpress.com/oembed/?for=siterest'),
  p(/^https?:\/\/(www\.)?reddit\.com\/r\/[^/]+\/comments\/.*/i, 'https://www.reddit.com/oembed'),
  p(/^https?:\/\/(www\.)?speakerdeck\.com\/.*/i, 'https://speakerdeck.com/oembed.{format}'),
  p(/^https?:\/\/([a-z0-9-]+\.)?amazon\.(com|com\.mx|com\.br|ca)\/.*/i, 'https://read.amazon.com/kp/api/oembed'),
  p(/^https?:\/\/([a-z0-9-]+\.)?amazon\.(co\.uk|de|fr|it|es|in|nl|ru)\/.*/i, 'https://read.amazon.co.uk/kp/api/oembed'),
  p(/^https?:\/\/([a-z0-9-]+\.)?amazon\.(co\.jp|com\.au)\/.*/i, 'https://read.amazon.com.au/kp/api/oembed'),
  p(/^https?:\/\/([a-z0-9-]+\.)?amazon\.cn\/.*/i, 'https://read.amazon.cn/kp/api/oembed'),
  p(/^https?:\/\/(www\.)?a\.co\/.*/i, 'https://read.amazon.com/kp/api/oembed'),
  p(/^https?:\/\/(www\.)?amzn\.to\/.*/i, 'https://read.amazon.com/kp/api/oembed'),
  p(/^https?:\/\/(www\.)?someecards\.com\/.+-cards\/.+/i, 'https://www.someecards.com/v2/oembed/'),
  p(/^https?:\/\/(www\.)?tiktok\.com\/.*\/video\/.*/i, 'https://www.tiktok.com/oembed'),
  p(/^https?:\/\/(www\.)?tiktok\.com\/@.*/i, 'https://www.tiktok.com/oembed'),
  p(/^https?:\/\/([a-z]{2}|www)\.pinterest\.com(\.(au|mx))?\/.*/i, 'https://www.pinterest.com/oembed.json'),
  p(/^https?:\/\/(www\.)?wolframcloud\.com\/obj\/.+/i, 'https://www.wolframcloud.com/oembed'),
  p(/^https?:\/\/pca\.st\/.+/i, 'https://pca.st/oembed.json'),
  p(/^https?:\/\/((play|www)\.)?anghami\.com\/.*/i, 'https://api.anghami.com/rest/v1/oembed.view'),
  p(/^https?:\/\/bsky\.app\/profile\/.*\/post\/.*/i, 'https://embed.bsky.app/oembed'),
  p(/^https?:\/\/(www\.)?canva\.com\/design\/.*\/view.*/i, 'https://canva.com/_oembed'),
];

/** The endpoint for `url` among `providers`, with `{format}` as JSON (WordPress get_provider). */
export function sanctionedEndpoint(url: string, providers: readonly OembedProvider[]): string | null {
  // Long URLs are not tried against the patterns (they are written for URLs of reasonable length).
  if (url.length > 2048) return null;
  const found = providers.find((provider) => provider.pattern.test(url));
  return found ? found.endpoint.replace('{format}', 'json') : null;
}
