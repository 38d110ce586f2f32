import { z } from 'zod';

/**
 * A secret in the tenants file is never written in clear: it names an environment variable, either as
 * `{ "env": "SHOP1_CONSUMER_SECRET" }` or as the string `"${SHOP1_CONSUMER_SECRET}"`. A plain string is
 * accepted too (handy for local files and tests) but the docs steer people to env references.
 */
export const SecretRefSchema = z.union([
  z.string().min(1),
  z.object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name') }).strict(),
]);
export type SecretRef = z.infer<typeof SecretRefSchema>;

const ENV_PLACEHOLDER = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Resolves one reference; returns an error message instead of throwing so every problem is reported at once. */
export function resolveSecret(ref: SecretRef, env: NodeJS.ProcessEnv): { value: string } | { error: string } {
  const name = typeof ref === 'string' ? ENV_PLACEHOLDER.exec(ref)?.[1] : ref.env;
  if (name === undefined) return { value: ref as string };
  const value = env[name];
  if (value === undefined || value === '') return { error: `environment variable ${name} is not set` };
  return { value };
}
