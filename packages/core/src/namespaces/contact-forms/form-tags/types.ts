/**
 * The form-tag types Contact Form 7 6.1 registers by default (and the honeypot tag of the widely used
 * "Honeypot for Contact Form 7" add-on), each with the features that decide how it is scanned, validated and
 * mailed. Registration order matters only for ties, which the tag syntax rules out.
 */
export type TagFeature =
  | 'name-attr'
  | 'selectable-values'
  | 'multiple-controls-container'
  | 'zero-controls-container'
  | 'file-uploading'
  | 'not-for-mail'
  | 'do-not-store'
  | 'display-block'
  | 'display-hidden';

const TAG_TYPES: ReadonlyArray<[types: string[], features: TagFeature[]]> = [
  [['acceptance'], ['name-attr', 'selectable-values']],
  [['checkbox', 'checkbox*', 'radio'], ['name-attr', 'selectable-values', 'multiple-controls-container']],
  [['date', 'date*'], ['name-attr']],
  [['file', 'file*'], ['name-attr', 'file-uploading']],
  [['hidden'], ['name-attr', 'display-hidden']],
  [['number', 'number*', 'range', 'range*'], ['name-attr']],
  [['quiz'], ['name-attr', 'do-not-store', 'not-for-mail']],
  [['response'], ['display-block']],
  [['select', 'select*'], ['name-attr', 'selectable-values']],
  [['submit'], []],
  [['text', 'text*', 'email', 'email*', 'url', 'url*', 'tel', 'tel*'], ['name-attr']],
  [['textarea', 'textarea*'], ['name-attr']],
  [['honeypot'], ['name-attr', 'not-for-mail', 'do-not-store']],
];

const FEATURES = new Map<string, ReadonlySet<TagFeature>>();
for (const [types, features] of TAG_TYPES) for (const type of types) FEATURES.set(type, new Set(features));

/** Longest registered type name, so the scanner never looks further for one. */
export const LONGEST_TYPE = Math.max(...[...FEATURES.keys()].map((t) => t.length));

export function isTagType(type: string): boolean {
  return FEATURES.has(type);
}

export function tagSupports(type: string, feature: TagFeature): boolean {
  return FEATURES.get(type)?.has(feature) ?? false;
}
