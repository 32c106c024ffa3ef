import type { ApiRequest } from '../../http/api-request.js';
import type { SiteStore } from '../../store/repositories.js';
import { CONFIGURATION_OPTION } from './constants.js';

/**
 * Yoast SEO's configuration wizard as its REST route describes it: fields (a React component name, its
 * properties, an optional `requires` on another field's value, and the current data) and the steps that show
 * them. The fields here are the wizard's that concern a site served by siterest; each value is kept in one
 * option.
 */
interface Field {
  id: string;
  componentName: string;
  properties?: Record<string, unknown>;
  requires?: { field: string; value: unknown };
  /** The value before anything was stored (Yoast's field default). */
  initial: unknown;
  /** The value to store, or undefined when the input is not acceptable (answered `result: false`). */
  accept?: (value: unknown) => unknown;
}

const choice = (choices: Record<string, string>) => (value: unknown) => (typeof value === 'string' && Object.prototype.hasOwnProperty.call(choices, value) ? value : undefined);

const choicesProperty = (choices: Record<string, string>) => Object.fromEntries(Object.entries(choices).map(([key, label]) => [key, { label }]));

const shortText = (max: number) => (value: unknown) => (typeof value === 'string' && value.length <= max ? value.trim() : undefined);

/** An empty string, or an http(s) address. */
const profileUrl = (value: unknown) => {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  const text = value.trim();
  if (text === '') return '';
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
};

const ENVIRONMENTS = { production: 'Production (this is a live site with real traffic)', staging: 'Staging (this is a copy of a live site used for testing purposes only)', development: 'Development (this site is running locally for development purposes)' };
const SITE_TYPES = { blog: 'A blog', shop: 'An online shop', news: 'A news channel', smallBusiness: 'A small offline business', corporateOther: 'A corporation', personalOther: 'A portfolio' };
const ENTITY_TYPES = { company: 'Company', person: 'Person' };
const SEPARATORS = { 'sc-dash': '-', 'sc-ndash': '&ndash;', 'sc-mdash': '&mdash;', 'sc-middot': '&middot;', 'sc-bull': '&bull;', 'sc-pipe': '|', 'sc-tilde': '~' };
const YES_NO = { yes: 'Yes', no: 'No' };

const PROFILES: Array<[string, string]> = [
  ['profileUrlFacebook', 'Facebook Page URL'],
  ['profileUrlTwitter', 'Twitter Username'],
  ['profileUrlInstagram', 'Instagram URL'],
  ['profileUrlLinkedIn', 'LinkedIn URL'],
  ['profileUrlYouTube', 'YouTube URL'],
];

const FIELDS: readonly Field[] = [
  { id: 'configurationChoices', componentName: 'ConfigurationChoices', initial: [] },
  { id: 'successMessage', componentName: 'FinalStep', properties: { title: 'You\u2019ve done it!' }, initial: [] },
  {
    id: 'environment_type',
    componentName: 'Choice',
    properties: { label: 'Please specify the environment in which this site is running.', choices: choicesProperty(ENVIRONMENTS) },
    initial: 'production',
    accept: choice(ENVIRONMENTS),
  },
  { id: 'siteType', componentName: 'Choice', properties: { label: 'What does the site represent?', choices: choicesProperty(SITE_TYPES) }, initial: '', accept: choice(SITE_TYPES) },
  {
    id: 'multipleAuthors',
    componentName: 'Choice',
    properties: { label: 'Does, or will, your site have multiple authors?', choices: choicesProperty(YES_NO) },
    initial: '',
    accept: choice(YES_NO),
  },
  { id: 'siteName', componentName: 'Input', properties: { label: 'Website name' }, initial: '', accept: shortText(200) },
  { id: 'separator', componentName: 'Choice', properties: { label: 'Title Separator', choices: choicesProperty(SEPARATORS) }, initial: 'sc-dash', accept: choice(SEPARATORS) },
  ...PROFILES.map(([id, label]): Field => ({ id, componentName: 'Input', properties: { label }, initial: '', accept: profileUrl })),
  {
    id: 'publishingEntityType',
    componentName: 'Choice',
    properties: { label: 'Is your site a company or a person?', choices: choicesProperty(ENTITY_TYPES) },
    initial: 'company',
    accept: choice(ENTITY_TYPES),
  },
  { id: 'publishingEntityCompanyName', componentName: 'Input', properties: { label: 'The name of the company' }, requires: { field: 'publishingEntityType', value: 'company' }, initial: '', accept: shortText(200) },
  { id: 'publishingEntityPersonName', componentName: 'Input', properties: { label: 'The name of the person' }, requires: { field: 'publishingEntityType', value: 'person' }, initial: '', accept: shortText(200) },
];

const STEPS: ReadonlyArray<[id: string, title: string, fields: string[], navigation: boolean]> = [
  ['intro', 'Welcome!', ['configurationChoices'], false],
  ['environment_type', 'Environment', ['environment_type'], true],
  ['siteType', 'Site type', ['siteType'], true],
  ['publishingEntity', 'Company or person', ['publishingEntityType', 'publishingEntityCompanyName', 'publishingEntityPersonName'], true],
  ['profileUrls', 'Social profiles', PROFILES.map(([id]) => id), true],
  ['multipleAuthors', 'Multiple authors', ['multipleAuthors'], true],
  ['titleTemplate', 'Title settings', ['siteName', 'separator'], true],
  ['success', 'Success!', ['successMessage'], true],
];

const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

async function storedValues(store: SiteStore): Promise<Map<string, unknown>> {
  const stored = await store.options.get(CONFIGURATION_OPTION);
  const values = new Map<string, unknown>();
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return values;
  for (const field of FIELDS) if (own(stored, field.id)) values.set(field.id, (stored as Record<string, unknown>)[field.id]);
  return values;
}

function describe(field: Field, values: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { componentName: field.componentName };
  if (field.properties) out.properties = field.properties;
  if (field.requires) out.requires = field.requires;
  out.data = values.has(field.id) ? values.get(field.id) : field.initial;
  return out;
}

export async function configuration(request: ApiRequest): Promise<Record<string, unknown>> {
  const values = await storedValues(request.site.store);
  const fields: Record<string, unknown> = {};
  for (const field of FIELDS) fields[field.id] = describe(field, values);
  const steps: Record<string, unknown> = {};
  for (const [id, title, stepFields, navigation] of STEPS) steps[id] = { title, fields: stepFields, navigation };
  return { fields, steps };
}

/**
 * Stores each field the JSON body names (unknown names are ignored, as upstream ignores them) and answers per
 * field whether it was stored, with the field's data afterwards. Fields without a value (intro, success)
 * answer `result: false`.
 */
export async function saveConfiguration(request: ApiRequest): Promise<Record<string, unknown>> {
  const store = request.site.store;
  const body = request.jsonParams();
  const out: Record<string, unknown> = {};
  if (!body) return out;
  const values = await storedValues(store);
  const results = new Map<string, boolean>();
  for (const field of FIELDS) {
    if (!own(body, field.id)) continue;
    const accepted = field.accept ? field.accept(body[field.id]) : undefined;
    if (accepted !== undefined) values.set(field.id, accepted);
    results.set(field.id, accepted !== undefined);
  }
  if ([...results.values()].some(Boolean)) await store.options.set(CONFIGURATION_OPTION, Object.fromEntries(values));
  for (const [id, result] of results) out[id] = { result, data: describe(FIELDS.find((f) => f.id === id)!, values).data };
  return out;
}

/** The stored configuration, for the library API. */
export async function configurationValues(store: SiteStore): Promise<Record<string, unknown>> {
  const values = await storedValues(store);
  return Object.fromEntries(FIELDS.map((field) => [field.id, values.has(field.id) ? values.get(field.id) : field.initial]));
}
