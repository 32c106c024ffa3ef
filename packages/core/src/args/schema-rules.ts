import { z } from 'zod';
import { ApiError } from '../http/api-error.js';
import { isBooleanLike, isNumeric, isPlainObject, isWholeNumber, parseList, toBoolean, intval, floatval, requestObject } from '../http/php.js';
import type { ArgSchema, ArgType } from './spec.js';

/*
 * WordPress validates a REST arg against its schema first (rest_validate_value_from_schema) and then coerces
 * it (rest_sanitize_value_from_schema). Clients depend on the exact messages, so the rules and their wording
 * follow WordPress; the string formats are checked with zod.
 */

const FORMATS = {
  email: z.email(),
  uuid: z.guid(),
  ip: z.union([z.ipv4(), z.ipv6()]),
} as const;

// WordPress rest_parse_date: RFC 3339 with a space or "T", optional fraction and offset.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}(?::\d{2})?)?$/;
const HEX_COLOR = /^#([A-Fa-f0-9]{3}){1,2}$/;

function typeError(param: string, type: string): ApiError {
  return ApiError.detail('rest_invalid_type', `${param} is not of type ${type}.`, { param });
}

/** `%l` of wp_sprintf: "a", "a and b", "a, b, and c". */
export function listSentence(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

function isObjectLike(value: unknown): boolean {
  return value === '' || isPlainObject(value) || Array.isArray(value);
}

function isArrayLike(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value !== 'object') return true; // scalars are split into lists
  if (Array.isArray(value)) return true;
  return Object.keys(value as object).every((key) => /^\d+$/.test(key));
}

function toArray(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object') return parseList(value);
  return Array.isArray(value) ? value : Object.values(value as object);
}

function toObject(value: unknown): Record<string, unknown> {
  if (value === '' || value === null || typeof value !== 'object') return {};
  if (Array.isArray(value)) return Object.fromEntries(value.map((v, i) => [String(i), v]));
  return value as Record<string, unknown>;
}

const TYPE_CHECKS: Record<ArgType, (value: unknown) => boolean> = {
  array: isArrayLike,
  object: isObjectLike,
  integer: isWholeNumber,
  number: isNumeric,
  boolean: isBooleanLike,
  string: (v) => typeof v === 'string',
  null: (v) => v === null,
};

/** rest_get_best_type_for_value: the first listed type the value fits; "" prefers string. */
function bestType(value: unknown, types: ArgType[]): ArgType | null {
  if (value === '' && types.includes('string')) return 'string';
  return types.find((type) => TYPE_CHECKS[type]?.(value)) ?? null;
}

function valuesEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => valuesEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => valuesEqual(a[k], b[k]));
  }
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return a === b || (typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b) && typeof a === typeof b);
}

function hasUniqueItems(items: unknown[]): boolean {
  const seen: unknown[] = [];
  for (const item of items) {
    if (seen.some((other) => valuesEqual(other, item))) return false;
    seen.push(item);
  }
  return true;
}

/** The schema of a named property, by own key only (a property named `constructor` has no schema). */
function ownSchema(properties: Record<string, ArgSchema> | undefined, property: string): ArgSchema | undefined {
  return properties && Object.hasOwn(properties, property) ? properties[property] : undefined;
}

function matchingPatternSchema(property: string, schema: ArgSchema): ArgSchema | undefined {
  for (const [pattern, child] of Object.entries(schema.patternProperties ?? {})) {
    if (new RegExp(pattern, 'u').test(property)) return child;
  }
  return undefined;
}

function checkNumberBounds(value: number, schema: ArgSchema, param: string): ApiError | null {
  if (schema.multipleOf !== undefined && value % schema.multipleOf !== 0) {
    return ApiError.detail('rest_invalid_multiple', `${param} must be a multiple of ${schema.multipleOf}.`);
  }
  const { minimum: min, maximum: max } = schema;
  const exMin = Boolean(schema.exclusiveMinimum);
  const exMax = Boolean(schema.exclusiveMaximum);
  const int = (n: number) => String(Math.trunc(n));
  if (min !== undefined && max === undefined) {
    if (exMin && value <= min) return ApiError.detail('rest_out_of_bounds', `${param} must be greater than ${int(min)}`);
    if (!exMin && value < min) {
      return ApiError.detail('rest_out_of_bounds', `${param} must be greater than or equal to ${int(min)}`);
    }
  }
  if (max !== undefined && min === undefined) {
    if (exMax && value >= max) return ApiError.detail('rest_out_of_bounds', `${param} must be less than ${int(max)}`);
    if (!exMax && value > max) {
      return ApiError.detail('rest_out_of_bounds', `${param} must be less than or equal to ${int(max)}`);
    }
  }
  if (min !== undefined && max !== undefined) {
    const below = exMin ? value <= min : value < min;
    const above = exMax ? value >= max : value > max;
    if (below || above) {
      return ApiError.detail(
        'rest_out_of_bounds',
        `${param} must be between ${int(min)} (${exMin ? 'exclusive' : 'inclusive'}) and ${int(max)} (${
          exMax ? 'exclusive' : 'inclusive'
        })`,
      );
    }
  }
  return null;
}

function validateFormat(value: unknown, format: string, param: string): ApiError | null {
  const text = typeof value === 'string' ? value : '';
  switch (format) {
    case 'hex-color':
      return HEX_COLOR.test(text) ? null : ApiError.detail('rest_invalid_hex_color', 'Invalid hex color.');
    case 'date-time':
      return DATE_TIME.test(text) && !Number.isNaN(Date.parse(text.replace(' ', 'T')))
        ? null
        : ApiError.detail('rest_invalid_date', 'Invalid date.');
    case 'email':
      return FORMATS.email.safeParse(text).success ? null : ApiError.detail('rest_invalid_email', 'Invalid email address.');
    case 'ip':
      return FORMATS.ip.safeParse(text).success
        ? null
        : ApiError.detail('rest_invalid_ip', `${param} is not a valid IP address.`);
    case 'uuid':
      return FORMATS.uuid.safeParse(text).success ? null : ApiError.detail('rest_invalid_uuid', `${param} is not a valid UUID.`);
    default:
      return null;
  }
}

function resolveAlternatives(value: unknown, schema: ArgSchema, param: string): ArgSchema | ApiError {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!alternatives) return schema;
  const matches = alternatives.filter((alt) => validateValue(value, alt, param) === null);
  if (matches.length === 0 || (schema.oneOf && matches.length > 1)) {
    return ApiError.detail(
      schema.oneOf && matches.length > 1 ? 'rest_one_of_multiple_matches' : 'rest_no_matching_schema',
      schema.oneOf && matches.length > 1
        ? `${param} matches more than one of the expected formats.`
        : `${param} does not match any of the expected formats.`,
    );
  }
  const match = matches[0]!;
  return { ...schema, anyOf: undefined, oneOf: undefined, ...match, type: schema.type ?? match.type };
}

/** rest_validate_value_from_schema: `null` when valid, else the detail error. */
export function validateValue(value: unknown, schemaIn: ArgSchema, param: string): ApiError | null {
  const resolved = resolveAlternatives(value, schemaIn, param);
  if (resolved instanceof ApiError) return resolved;
  let schema = resolved;
  if (Array.isArray(schema.type)) {
    const type = bestType(value, schema.type);
    if (!type) return typeError(param, schema.type.join(','));
    schema = { ...schema, type };
  }
  const type = schema.type as ArgType | undefined;
  const error = validateType(value, schema, type, param);
  if (error) return error;
  if (schema.enum && schema.enum.length) {
    const sanitized = sanitizeValue(value, schema, param);
    if (sanitized instanceof ApiError) return sanitized;
    if (!schema.enum.some((option) => valuesEqual(sanitized, option))) {
      const shown = schema.enum.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)));
      return shown.length === 1
        ? ApiError.detail('rest_not_in_enum', `${param} is not ${shown[0]}.`)
        : ApiError.detail('rest_not_in_enum', `${param} is not one of ${listSentence(shown)}.`);
    }
  }
  if (schema.format && (type === undefined || type === 'string')) {
    return validateFormat(value, schema.format, param);
  }
  return null;
}

function validateType(value: unknown, schema: ArgSchema, type: ArgType | undefined, param: string): ApiError | null {
  switch (type) {
    case 'null':
      return value === null ? null : typeError(param, 'null');
    case 'boolean':
      return isBooleanLike(value) ? null : typeError(param, 'boolean');
    case 'number':
      return isNumeric(value) ? checkNumberBounds(floatval(value), schema, param) : typeError(param, 'number');
    case 'integer': {
      if (!isNumeric(value)) return typeError(param, 'integer');
      const bounds = checkNumberBounds(floatval(value), schema, param);
      if (bounds) return bounds;
      return isWholeNumber(value) ? null : typeError(param, 'integer');
    }
    case 'string': {
      if (typeof value !== 'string') return typeError(param, 'string');
      const length = [...value].length;
      if (schema.minLength !== undefined && length < schema.minLength) {
        return ApiError.detail(
          'rest_too_short',
          `${param} must be at least ${schema.minLength} ${plural(schema.minLength, 'character', 'characters')} long.`,
        );
      }
      if (schema.maxLength !== undefined && length > schema.maxLength) {
        return ApiError.detail(
          'rest_too_long',
          `${param} must be at most ${schema.maxLength} ${plural(schema.maxLength, 'character', 'characters')} long.`,
        );
      }
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
        return ApiError.detail('rest_invalid_pattern', `${param} does not match pattern ${schema.pattern}.`);
      }
      return null;
    }
    case 'array': {
      if (!isArrayLike(value)) return typeError(param, 'array');
      const items = toArray(value);
      if (schema.items) {
        for (let i = 0; i < items.length; i++) {
          const error = validateValue(items[i], schema.items, `${param}[${i}]`);
          if (error) return error;
        }
      }
      if (schema.minItems !== undefined && items.length < schema.minItems) {
        return ApiError.detail(
          'rest_too_few_items',
          `${param} must contain at least ${schema.minItems} ${plural(schema.minItems, 'item', 'items')}.`,
        );
      }
      if (schema.maxItems !== undefined && items.length > schema.maxItems) {
        return ApiError.detail(
          'rest_too_many_items',
          `${param} must contain at most ${schema.maxItems} ${plural(schema.maxItems, 'item', 'items')}.`,
        );
      }
      if (schema.uniqueItems && !hasUniqueItems(items)) {
        return ApiError.detail('rest_duplicate_items', `${param} has duplicate items.`);
      }
      return null;
    }
    case 'object': {
      if (!isObjectLike(value)) return typeError(param, 'object');
      const object = toObject(value);
      const required = Array.isArray(schema.required)
        ? schema.required
        : Object.entries(schema.properties ?? {})
            .filter(([, child]) => child.required === true)
            .map(([name]) => name);
      for (const name of required) {
        if (!Object.hasOwn(object, name)) return ApiError.detail('rest_property_required', `${name} is a required property of ${param}.`);
      }
      for (const [property, child] of Object.entries(object)) {
        const propertySchema = ownSchema(schema.properties, property) ?? matchingPatternSchema(property, schema);
        if (propertySchema) {
          const error = validateValue(child, propertySchema, `${param}[${property}]`);
          if (error) return error;
          continue;
        }
        if (schema.additionalProperties === false) {
          return ApiError.detail('rest_additional_properties_forbidden', `${property} is not a valid property of Object.`);
        }
        if (isPlainObject(schema.additionalProperties)) {
          const error = validateValue(child, schema.additionalProperties as ArgSchema, `${param}[${property}]`);
          if (error) return error;
        }
      }
      const count = Object.keys(object).length;
      if (schema.minProperties !== undefined && count < schema.minProperties) {
        return ApiError.detail(
          'rest_too_few_properties',
          `${param} must contain at least ${schema.minProperties} ${plural(schema.minProperties, 'property', 'properties')}.`,
        );
      }
      if (schema.maxProperties !== undefined && count > schema.maxProperties) {
        return ApiError.detail(
          'rest_too_many_properties',
          `${param} must contain at most ${schema.maxProperties} ${plural(schema.maxProperties, 'property', 'properties')}.`,
        );
      }
      return null;
    }
    default:
      return null;
  }
}

/** rest_sanitize_value_from_schema: the coerced value (or an error for duplicate array items). */
export function sanitizeValue(value: unknown, schemaIn: ArgSchema, param: string): unknown {
  const resolved = resolveAlternatives(value, schemaIn, param);
  let schema = resolved instanceof ApiError ? schemaIn : resolved;
  if (Array.isArray(schema.type)) {
    const type = bestType(value, schema.type);
    if (!type) return value;
    schema = { ...schema, type };
  }
  switch (schema.type) {
    case 'array': {
      let items = toArray(value);
      if (schema.items) {
        const itemSchema = schema.items;
        items = items.map((item, i) => sanitizeValue(item, itemSchema, `${param}[${i}]`));
      }
      if (schema.uniqueItems && !hasUniqueItems(items)) {
        return ApiError.detail('rest_duplicate_items', `${param} has duplicate items.`);
      }
      return items;
    }
    case 'object': {
      // A copy with the request-object prototype: a property the caller named `__proto__` stays an ordinary key.
      const object = Object.assign(requestObject(), toObject(value));
      for (const [property, child] of Object.entries(object)) {
        const propertySchema = ownSchema(schema.properties, property) ?? matchingPatternSchema(property, schema);
        if (propertySchema) {
          object[property] = sanitizeValue(child, propertySchema, `${param}[${property}]`);
        } else if (schema.additionalProperties === false) {
          delete object[property];
        } else if (isPlainObject(schema.additionalProperties)) {
          object[property] = sanitizeValue(child, schema.additionalProperties as ArgSchema, `${param}[${property}]`);
        }
      }
      return object;
    }
    case 'null':
      return null;
    case 'integer':
      return typeof value === 'string' && isNumeric(value) ? Math.trunc(Number(value.trim())) : intval(value);
    case 'number':
      return floatval(value);
    case 'boolean':
      return toBoolean(value);
    case 'string':
    case undefined:
      if (schema.format === 'hex-color') return HEX_COLOR.test(String(value)) ? String(value) : '';
      if (schema.format === 'email' || schema.format === 'date-time' || schema.format === 'ip' || schema.format === 'uuid') {
        return typeof value === 'string' ? value.trim() : value;
      }
      return schema.type === 'string' ? (typeof value === 'string' ? value : String(value ?? '')) : value;
    default:
      return value;
  }
}
