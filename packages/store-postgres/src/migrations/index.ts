import { initial } from './001_initial.js';
import { changeVersion } from './002_change_version.js';
import { redirection } from './020_redirection.js';
import type { Migration } from './migration.js';

/** Every migration, in order. Never edit a released one: add the next version. */
export const MIGRATIONS: readonly Migration[] = [initial, changeVersion, redirection];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export type { Migration } from './migration.js';
