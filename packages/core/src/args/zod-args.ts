import type { ZodType, core } from 'zod';
import { ApiError } from '../http/api-error.js';
import { listSentence } from './schema-rules.js';

/**
 * Args an app declares with a zod schema are validated by zod; its issues are worded the WordPress way so the
 * app's own routes answer like every other route.
 */
export function parseWithZod(schema: ZodType, value: unknown, param: string): { value: unknown } | ApiError {
  const result = schema.safeParse(value);
  if (result.success) return { value: result.data };
  return issueToError(result.error.issues[0]!, param);
}

function issueToError(issue: core.$ZodIssue, param: string): ApiError {
  const name = param + issue.path.map((segment) => `[${String(segment)}]`).join('');
  switch (issue.code) {
    case 'invalid_type':
      return ApiError.detail('rest_invalid_type', `${name} is not of type ${issue.expected}.`, { param: name });
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = small ? (issue as core.$ZodIssueTooSmall).minimum : (issue as core.$ZodIssueTooBig).maximum;
      const inclusive = issue.inclusive !== false;
      if (issue.origin === 'string') {
        return ApiError.detail(
          small ? 'rest_too_short' : 'rest_too_long',
          `${name} must be at ${small ? 'least' : 'most'} ${String(bound)} character${Number(bound) === 1 ? '' : 's'} long.`,
        );
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return ApiError.detail(
          small ? 'rest_too_few_items' : 'rest_too_many_items',
          `${name} must contain at ${small ? 'least' : 'most'} ${String(bound)} item${Number(bound) === 1 ? '' : 's'}.`,
        );
      }
      const relation = small ? (inclusive ? 'greater than or equal to' : 'greater than') : inclusive ? 'less than or equal to' : 'less than';
      return ApiError.detail('rest_out_of_bounds', `${name} must be ${relation} ${String(bound)}`);
    }
    case 'invalid_value': {
      const values = issue.values.map((v) => String(v));
      return ApiError.detail(
        'rest_not_in_enum',
        values.length === 1 ? `${name} is not ${values[0]}.` : `${name} is not one of ${listSentence(values)}.`,
      );
    }
    case 'not_multiple_of':
      return ApiError.detail('rest_invalid_multiple', `${name} must be a multiple of ${String(issue.divisor)}.`);
    case 'unrecognized_keys':
      return ApiError.detail('rest_additional_properties_forbidden', `${issue.keys[0]} is not a valid property of Object.`);
    default:
      return ApiError.detail('rest_invalid_param', issue.message);
  }
}
