import { z } from 'zod';
import { configProblem, type ConfigProblem } from './config-messages';

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

/** The variable a reference names, or undefined for a plain value. */
export function referencedVariable(ref: unknown): string | undefined {
  if (typeof ref === 'string') return ENV_PLACEHOLDER.exec(ref)?.[1];
  if (typeof ref === 'object' && ref !== null && !Array.isArray(ref)) {
    const keys = Object.keys(ref);
    const name = (ref as { env?: unknown }).env;
    if (keys.length === 1 && typeof name === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return name;
  }
  return undefined;
}

/** Resolves one reference; returns the missing variable's name instead of throwing so every problem is reported at once. */
export function resolveSecret(ref: SecretRef, env: NodeJS.ProcessEnv): { value: string } | { missing: string } {
  const name = referencedVariable(ref);
  if (name === undefined) return { value: ref as string };
  const value = env[name];
  if (value === undefined || value === '') return { missing: name };
  return { value };
}

/**
 * How strong a secret must be, by who makes it:
 * - `key`: a signing key only this connector holds (server.linkSecret: whoever knows it forges PDF
 *   links to any document of the account): at least 16 characters;
 * - `password`: typed by a person (admin.password, a WooCommerce webhook's secret): at least 8
 *   characters (the admin login is also limited per client, admin/login-limiter.ts);
 * - `issued`: handed out by the shop or the invoicing service (REST keys, tokens): any length.
 * Every kind refuses the placeholders of connector/env.example and the usual stand-ins.
 */
export type SecretKind = 'key' | 'password' | 'issued';
export const SECRET_MIN_LENGTH: Record<SecretKind, number> = { key: 16, password: 8, issued: 1 };

/** connector/env.example marks every value it ships with "change-me": such a value was never filled in. */
const PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?me|fill[-_ ]?me|^<.*>$|^x{3,}$/i;
/** Values people leave in place of a secret. */
const STAND_INS = new Set(['secret', 'password', 'passw0rd', 'admin', 'changeit', 'default', 'example', 'test', 'token', 'letmein', 'qwerty', '123456', '12345678', '123456789', '1234567890']);

/**
 * Words that make a password or key guessable whatever digits and signs follow or precede them
 * (the most common passwords of public breach lists, and this product's own names).
 */
const COMMON_WORDS = new Set(['password', 'passw0rd', 'admin', 'administrator', 'qwerty', 'qwertyuiop', 'azerty', 'letmein', 'welcome', 'iloveyou', 'sunshine', 'football', 'princess', 'baseball', 'dragon', 'monkey', 'master', 'secret', 'abc', 'magnifinance', 'woocommerce', 'wordpress', 'connector', 'benfica', 'sporting', 'portugal', 'lisboa']);

export type Weakness = 'repeated' | 'few-characters' | 'sequence' | 'common';

/**
 * Why a long enough secret is still guessable, or null: one unit repeated ("aaaaaaaaaaaaaaaa",
 * "abcabcabc…"); too few different characters (a key under 8, a password under 5); one run up or
 * down the alphabet, the digits or a keyboard row ("12345678", "abcdefgh", "qwertyui"); or a common
 * word with digits and signs around it ("Password2026!").
 */
export function secretWeakness(value: string, kind: SecretKind): Weakness | null {
  if (kind === 'issued') return null;
  const chars = [...value];
  for (let unit = 1; unit <= chars.length / 2; unit++) {
    if (chars.length % unit === 0 && value === chars.slice(0, unit).join('').repeat(chars.length / unit)) return 'repeated';
  }
  if (new Set(chars.map((c) => c.toLowerCase())).size < (kind === 'key' ? 8 : 5)) return 'few-characters';
  const lower = value.toLowerCase();
  const rows = ['abcdefghijklmnopqrstuvwxyz', '0123456789', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890'];
  if (rows.some((row) => row.includes(lower) || [...row].reverse().join('').includes(lower))) return 'sequence';
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '').replace(/[@4]/g, 'a').replace(/0/g, 'o').replace(/[1!]/g, 'i').replace(/3/g, 'e').replace(/\$/g, 's');
  if (COMMON_WORDS.has(core) || COMMON_WORDS.has(lower.replace(/^[\d\W_]+|[\d\W_]+$/g, ''))) return 'common';
  return null;
}

/** Why a resolved secret at `path` is refused, or null when it is acceptable. */
export function secretProblem(path: string, value: string, kind: SecretKind): ConfigProblem | null {
  if (PLACEHOLDER.test(value) || STAND_INS.has(value.toLowerCase())) return configProblem(path, 'example-value', {});
  const min = SECRET_MIN_LENGTH[kind];
  const length = [...value].length;
  const hint = kind === 'key' ? { hint: '`openssl rand -hex 32`' } : {};
  if (length < min) return configProblem(path, 'too-short', { length, min, ...hint });
  const weakness = secretWeakness(value, kind);
  if (weakness) return configProblem(path, 'weak', { why: weakness, ...hint });
  return null;
}
