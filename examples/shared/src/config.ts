import { z } from 'zod';

/** The example servers' environment, validated so a typo answers with a clear message, not a stack trace. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  SITEREST_ADMIN_PASSWORD: z
    .string()
    .regex(/[A-Za-z0-9]/, 'must contain letters or digits')
    .optional(),
  SITEREST_SEED: z.enum(['demo', 'none']).default('demo'),
  SITEREST_NOW: z.iso.datetime({ offset: true, local: false }).optional(),
  SITEREST_SITE_NAME: z.string().min(1).optional(),
  DATABASE_URL: z.string().min(1).optional(),
  SITEREST_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must look like smtp://user:password@host:port')
    .optional(),
  SITEREST_UPLOADS: z.string().min(1).optional(),
});

export type ExampleConfig = z.infer<typeof Env>;

export function readConfig(env: NodeJS.ProcessEnv = process.env): ExampleConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = Env.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new Error(`Invalid environment:\n${problems}`);
  }
  return parsed.data;
}
