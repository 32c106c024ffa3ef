import { DateTime, type Zone } from 'luxon';
import { floatval } from '../../http/php.js';
import { SWV_VERSION } from './constants.js';
import { acceptableFiletypes, acceptedSuffixes } from './files.js';
import { hasOption, isRequired, limitOption, maxlengthOption, minlengthOption, optionValue, optionValues } from './form-tags/options.js';
import type { FormTag } from './form-tags/scanner.js';
import { decodeEntities, isDate, isEmail, isNumber, isTel, isUrl } from './validators.js';

/**
 * Contact Form 7's Schema-Woven Validation: the rules a form's tags imply, served as the form's validation
 * schema (`/feedback/schema`, which the front-end script validates with) and applied to submissions.
 */
export interface SwvRule {
  rule: string;
  field: string;
  error: string;
  threshold?: number | string;
  accept?: string[];
}

export interface SwvSchema {
  version: string;
  locale: string;
  rules: SwvRule[];
}

export interface SchemaContext {
  /** The form's message for a key, filtered as Contact Form 7 shows it. */
  message(key: string): string;
  /** Filters a literal message (mail-tags replaced, tags stripped). */
  filter(text: string): string;
  zone: Zone;
  now: number;
}

const by = (tags: readonly FormTag[], basetypes: readonly string[]) => tags.filter((t) => basetypes.includes(t.basetype));

/** `get_date_option`: `YYYY-MM-DD` or a relative date (`today`, `+1_week`, `tomorrow`) in the site's zone. */
function dateOption(tag: FormTag, name: string, zone: Zone, now: number): string | null {
  const raw = optionValue(tag, name);
  if (!raw) return null;
  const text = raw.replace(/_+/g, ' ').trim().toLowerCase();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const dt = DateTime.fromISO(text, { zone });
    return dt.isValid ? dt.toFormat('yyyy-MM-dd') : null;
  }
  let dt = DateTime.fromMillis(now, { zone });
  const tokens = text.split(/\s+/).slice(0, 16);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === 'today' || token === 'midnight' || token === 'now') continue;
    if (token === 'tomorrow') dt = dt.plus({ days: 1 });
    else if (token === 'yesterday') dt = dt.minus({ days: 1 });
    else {
      const m = /^([+-]?\d{1,5})(day|days|week|weeks|month|months|year|years|fortnight|fortnights)?$/.exec(token);
      if (!m) return null;
      const unit = m[2] ?? tokens[++i];
      const amount = Number(m[1]);
      const units: Record<string, string> = { day: 'days', days: 'days', week: 'weeks', weeks: 'weeks', month: 'months', months: 'months', year: 'years', years: 'years', fortnight: 'fortnights', fortnights: 'fortnights' };
      const key = unit ? units[unit] : undefined;
      if (!key) return null;
      dt = key === 'fortnights' ? dt.plus({ weeks: amount * 2 }) : dt.plus({ [key]: amount });
    }
  }
  return dt.isValid ? dt.toFormat('yyyy-MM-dd') : null;
}

/** The rules an SWV schema may hold (`wpcf7_swv_available_rules`). */
const SWV_RULES = [
  'required', 'requiredfile', 'email', 'url', 'tel', 'number', 'date', 'time', 'file', 'enum', 'dayofweek', 'minitems', 'maxitems',
  'minlength', 'maxlength', 'minnumber', 'maxnumber', 'mindate', 'maxdate', 'minfilesize', 'maxfilesize', 'all', 'any',
];

/** `wpcf7_swv_get_meta_schema`: the JSON Schema of an SWV schema (the schema route's own schema). */
export function swvMetaSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Contact Form 7 SWV',
    description: 'Contact Form 7 SWV meta-schema',
    type: 'object',
    properties: {
      version: { type: 'string' },
      locale: { type: 'string' },
      rules: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            rule: { type: 'string', enum: [...SWV_RULES] },
            field: { type: 'string', pattern: '^[A-Za-z][-A-Za-z0-9_:]*$' },
            error: { type: 'string' },
            accept: { type: 'array', items: { type: 'string' } },
            threshold: { type: 'string' },
          },
          required: ['rule'],
        },
      },
    },
  };
}

function enumRule(field: string, values: string[], error: string): SwvRule {
  const accept = [...new Set(values.map(decodeEntities))].filter((v) => v !== '');
  return { rule: 'enum', field, accept, error };
}

/** The schema of a form, rules in the order Contact Form 7's modules add them. */
export function buildSchema(tags: readonly FormTag[], locale: string, ctx: SchemaContext): SwvSchema {
  const rules: SwvRule[] = [];
  const required = (field: string) => rules.push({ rule: 'required', field, error: ctx.message('invalid_required') });
  const named = tags.filter((t) => t.name !== '');

  for (const tag of by(named, ['checkbox', 'radio'])) {
    if (isRequired(tag) || tag.type === 'radio') required(tag.name);
    if (tag.type === 'radio' || hasOption(tag, 'exclusive')) {
      rules.push({ rule: 'maxitems', field: tag.name, threshold: 1, error: ctx.filter('Too many items are selected.') });
    }
  }
  for (const tag of by(named, ['date'])) {
    if (isRequired(tag)) required(tag.name);
    rules.push({ rule: 'date', field: tag.name, error: ctx.message('invalid_date') });
    const min = dateOption(tag, 'min', ctx.zone, ctx.now);
    const max = dateOption(tag, 'max', ctx.zone, ctx.now);
    if (min !== null) rules.push({ rule: 'mindate', field: tag.name, threshold: min, error: ctx.message('date_too_early') });
    if (max !== null) rules.push({ rule: 'maxdate', field: tag.name, threshold: max, error: ctx.message('date_too_late') });
  }
  for (const tag of by(named, ['file'])) {
    if (isRequired(tag)) rules.push({ rule: 'requiredfile', field: tag.name, error: ctx.message('invalid_required') });
    rules.push({ rule: 'file', field: tag.name, accept: acceptableFiletypes(optionValues(tag, 'filetypes')), error: ctx.message('upload_file_type_invalid') });
    rules.push({ rule: 'maxfilesize', field: tag.name, threshold: limitOption(tag), error: ctx.message('upload_file_too_large') });
  }
  for (const tag of by(named, ['number', 'range'])) {
    if (isRequired(tag)) required(tag.name);
    rules.push({ rule: 'number', field: tag.name, error: ctx.message('invalid_number') });
    let min = optionValue(tag, 'min', 'signed_num');
    let max = optionValue(tag, 'max', 'signed_num');
    if (tag.basetype === 'range') {
      if (min === null || !isNumber(min)) min = '0';
      if (max === null || !isNumber(max)) max = '100';
    }
    if (min !== null && isNumber(min)) rules.push({ rule: 'minnumber', field: tag.name, threshold: min, error: ctx.message('number_too_small') });
    if (max !== null && isNumber(max)) rules.push({ rule: 'maxnumber', field: tag.name, threshold: max, error: ctx.message('number_too_large') });
  }
  for (const tag of named.filter((t) => t.type === 'select*')) required(tag.name);
  for (const tag of by(named, ['text', 'email', 'url', 'tel'])) {
    if (isRequired(tag)) required(tag.name);
    if (tag.basetype === 'email') rules.push({ rule: 'email', field: tag.name, error: ctx.message('invalid_email') });
    if (tag.basetype === 'url') rules.push({ rule: 'url', field: tag.name, error: ctx.message('invalid_url') });
    if (tag.basetype === 'tel') rules.push({ rule: 'tel', field: tag.name, error: ctx.message('invalid_tel') });
    lengthRules(rules, tag, '400', ctx);
  }
  for (const tag of by(named, ['textarea'])) {
    if (isRequired(tag)) required(tag.name);
    lengthRules(rules, tag, '2000', ctx);
  }

  // Priority 20: the allowed values of checkboxes, radio buttons and menus, per field name.
  const choices = new Map<string, string[] | 'free_text'>();
  for (const tag of by(named, ['checkbox', 'radio'])) {
    if (hasOption(tag, 'free_text')) choices.set(tag.name, 'free_text');
    const current = choices.get(tag.name);
    if (current === 'free_text') continue;
    choices.set(tag.name, [...(current ?? []), ...tag.values]);
  }
  const undefinedValue = ctx.filter('Undefined value was submitted through this field.');
  for (const [field, values] of choices) if (values !== 'free_text') rules.push(enumRule(field, values, undefinedValue));
  const menus = new Map<string, string[]>();
  for (const tag of by(named, ['select'])) {
    const values = hasOption(tag, 'first_as_label') ? tag.values.slice(1) : tag.values;
    menus.set(tag.name, [...(menus.get(tag.name) ?? []), ...values]);
  }
  for (const [field, values] of menus) rules.push(enumRule(field, values, undefinedValue));

  return { version: SWV_VERSION, locale, rules };
}

function lengthRules(rules: SwvRule[], tag: FormTag, defaultMax: string, ctx: SchemaContext): void {
  const min = minlengthOption(tag);
  if (min) rules.push({ rule: 'minlength', field: tag.name, threshold: Math.abs(Math.trunc(Number(min))), error: ctx.message('invalid_too_short') });
  const max = maxlengthOption(tag, defaultMax);
  if (max && max !== '0') rules.push({ rule: 'maxlength', field: tag.name, threshold: Math.abs(Math.trunc(Number(max))), error: ctx.message('invalid_too_long') });
}

/** A posted value, flattened to its strings (`wpcf7_array_flatten`), blanks left out (`wpcf7_exclude_blank`). */
function nonBlank(value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 4 || out.length > 1000) return;
    if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (v !== null && typeof v === 'object') Object.values(v).forEach((x) => walk(x, depth + 1));
    else if ((typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && String(v) !== '') out.push(String(v));
  };
  walk(value, 0);
  return out;
}

/** Applies a text-context rule to the posted value of its field; the error message, or null when it holds. */
export function checkTextRule(rule: SwvRule, posted: unknown): string | null {
  const inputs = nonBlank(posted);
  const fail = rule.error;
  switch (rule.rule) {
    case 'required':
      return inputs.length === 0 ? fail : null;
    case 'email':
      return inputs.every(isEmail) ? null : fail;
    case 'url':
      return inputs.every(isUrl) ? null : fail;
    case 'tel':
      return inputs.every(isTel) ? null : fail;
    case 'number':
      return inputs.every(isNumber) ? null : fail;
    case 'date':
      return inputs.every(isDate) ? null : fail;
    case 'minlength':
    case 'maxlength': {
      if (inputs.length === 0) return null;
      const total = inputs.reduce((n, s) => n + s.length, 0);
      const threshold = Number(rule.threshold);
      return (rule.rule === 'minlength' ? total >= threshold : total <= threshold) ? null : fail;
    }
    case 'minnumber':
      return inputs.some((i) => floatval(i) < floatval(rule.threshold)) ? fail : null;
    case 'maxnumber':
      return inputs.some((i) => floatval(rule.threshold) < floatval(i)) ? fail : null;
    case 'mindate':
      return inputs.some((i) => isDate(i) && i < String(rule.threshold)) ? fail : null;
    case 'maxdate':
      return inputs.some((i) => isDate(i) && String(rule.threshold) < i) ? fail : null;
    case 'enum':
      return inputs.every((i) => (rule.accept ?? []).includes(i)) ? null : fail;
    case 'maxitems':
      return inputs.length > Number(rule.threshold) ? fail : null;
    default:
      return null;
  }
}

export const FILE_RULES: ReadonlySet<string> = new Set(['requiredfile', 'file', 'maxfilesize']);

export interface UploadFacts {
  filename: string;
  size: number;
}

/** Applies a file-context rule to a field's uploads (those with a name); the error message, or null. */
export function checkFileRule(rule: SwvRule, uploads: readonly UploadFacts[]): string | null {
  switch (rule.rule) {
    case 'requiredfile':
      return uploads.length === 0 ? rule.error : null;
    case 'file': {
      const suffixes = acceptedSuffixes(rule.accept ?? []);
      for (const upload of uploads) {
        const dot = upload.filename.lastIndexOf('.');
        if (dot === -1 || !suffixes.has(upload.filename.slice(dot).toLowerCase())) return rule.error;
      }
      return null;
    }
    case 'maxfilesize':
      return uploads.reduce((n, u) => n + u.size, 0) > Number(rule.threshold) ? rule.error : null;
    default:
      return null;
  }
}

