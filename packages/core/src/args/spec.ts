import type { ZodType } from 'zod';
import type { Maybe } from '../util/maybe.js';
import type { ApiError } from '../http/api-error.js';
import type { ApiRequest } from '../http/api-request.js';
import type { SiteContext } from '../site-context.js';

export type ArgType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/**
 * The JSON-schema subset WordPress accepts for REST args. Keys are shown in the route index in the order they
 * are written, so a declaration reads exactly like the upstream registration it reproduces.
 */
export interface ArgSchema {
  title?: string;
  description?: string;
  /** Shared by every request that leaves the param out, so frozen (lists and objects inside it too) when the route is registered. */
  default?: unknown;
  type?: ArgType | ArgType[];
  format?: string;
  enum?: readonly unknown[];
  items?: ArgSchema;
  properties?: Record<string, ArgSchema & { required?: boolean }>;
  additionalProperties?: boolean | ArgSchema;
  patternProperties?: Record<string, ArgSchema>;
  minProperties?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  anyOf?: ArgSchema[];
  oneOf?: ArgSchema[];
  required?: boolean | string[];
  /** Response-schema keywords WordPress keeps in nested properties of item-schema args. */
  context?: readonly string[];
  readonly?: boolean;
}

interface ArgContext {
  param: string;
  request: ApiRequest;
}

/** WordPress `validate_callback`: `false` means "Invalid parameter.", an ApiError carries its own message. */
export type ArgValidator = (value: unknown, ctx: ArgContext) => Maybe<boolean | ApiError>;

/** WordPress `sanitize_callback`: returns the value to use, or an ApiError. */
export type ArgSanitizer = (value: unknown, ctx: ArgContext) => unknown;

export interface ArgSpec extends ArgSchema {
  required?: boolean;
  /** Runs in the validation phase, before any sanitizing (WordPress `validate_callback`). */
  validate?: ArgValidator;
  /**
   * Replaces the schema's own type check and coercion (WordPress `sanitize_callback`); `false` turns both off.
   */
  sanitize?: ArgSanitizer | false;
  /** For args an app defines itself: a zod schema that validates and coerces instead of the JSON schema. */
  schema?: ZodType;
  /**
   * A default that follows the site's settings or clock (shown in place of `default`, which fixes its position),
   * worked out once per settings and second of the clock.
   */
  defaultFrom?: (site: SiteContext) => unknown;
  /** Where the arg is documented in the OpenAPI document; never shown in the index. */
  in?: 'path' | 'query' | 'body';
}

/** The JSON-schema keywords WordPress copies into route indexes (`rest_get_allowed_schema_keywords`). */
const INDEX_KEYWORDS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
]);

/** The arg as the route index shows it: schema keywords in declaration order, then `required`. */
export function describeArg(spec: ArgSpec, site?: SiteContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (!INDEX_KEYWORDS.has(key) || value === undefined) continue;
    out[key] = key === 'default' && spec.defaultFrom && site ? spec.defaultFrom(site) : value;
  }
  out.required = spec.required === true;
  return out;
}
