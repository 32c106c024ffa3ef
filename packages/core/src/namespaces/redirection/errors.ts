import { ApiError } from '../../http/api-error.js';

/**
 * Redirection's REST errors, one place for the namespace. The plugin answers its own errors with status 400 and
 * `error_code`, the PHP line that raised them (a number clients cannot use; these are the lines of 5.4.2).
 */
function pluginError(code: string, message: string, line: number): ApiError {
  return new ApiError(code, message, 400, { error_code: line });
}

export const redirectionErrors = {
  invalidMatcher: () => pluginError('redirect', 'Invalid redirect matcher', 297),
  invalidAction: () => pluginError('redirect', 'Invalid redirect action', 297),
  invalidSource: () => pluginError('redirect', 'Invalid source URL', 297),
  invalidGroup: () => pluginError('redirect', 'Invalid group when creating redirect', 297),
  createFailed: () => pluginError('redirect_create_failed', 'Unable to add new redirect', 297),
  updateFailed: () => pluginError('redirect_create_failed', 'Unable to update redirect', 318),
  unknownRedirect: () => pluginError('redirect_update_failed', 'Invalid redirect details', 318),
  bulkFailed: () => pluginError('redirect_bulk_failed', 'Invalid redirect', 350),
  groupInvalid: () => pluginError('redirect_group_invalid', 'Invalid group or parameters', 267),
  groupUnknown: () => pluginError('redirect_group_invalid', 'Invalid group details', 290),
  importInvalidFile: () => pluginError('redirect_import_invalid_file', 'Invalid file', 164),
  importInvalidGroup: () => pluginError('redirect_import_invalid_group', 'Invalid group', 164),
  /** Not the plugin's: an import whose file cannot be read as its format claims (nothing was imported). */
  importUnreadable: (reason: string) => pluginError('redirect_import_invalid_file', `Invalid file: ${reason}`, 164),
  importTooLarge: (limit: number) => new ApiError('redirect_import_too_large', `The import file is larger than the limit of ${limit} bytes.`, 413, { limit }),
  exportInvalidModule: () => pluginError('redirect_export_invalid_module', 'Invalid module', 93),
  filterNotArray: () => new ApiError('rest_invalid_param', 'Filter is not an array', 400),
  filterNotSupported: (key: string) => new ApiError('rest_invalid_param', `Filter type is not supported: ${key}`, 400),
} as const;
