import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A secret the connector itself receives and must keep (a Shopify store's offline token from the
 * install flow), sealed with the operator's key before it is stored: AES-256-GCM, a fresh 96-bit IV
 * per seal, the 128-bit tag checked on opening, and `context` (which tenant and store it belongs to)
 * bound as additional data, so a sealed value copied to another tenant does not open. The key comes
 * from the environment (server.secretsKey) and is never logged, stored or put in an error.
 */

const VERSION = 'v1';
const IV_BYTES = 12;

export class SealedSecretError extends Error {
  override readonly name = 'SealedSecretError';
}

/** The operator's key: 32 bytes, written as 64 hex digits or as base64 (44 characters). Undefined when it is neither. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === 32) return key;
  }
  return undefined;
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function sealSecret(plain: string, key: Buffer, context: string): string {
  if (key.length !== 32) throw new SealedSecretError('the secrets key must be 32 bytes');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The secret back; a SealedSecretError when the key, the context or any byte differs. */
export function openSealedSecret(sealed: string, key: Buffer, context: string): string {
  const [version, iv, tag, body, extra] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined || extra !== undefined) throw new SealedSecretError('not a sealed secret of this connector');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // Never the cause's text: it says nothing useful and must not hint at the key.
    throw new SealedSecretError('the sealed secret does not open with this key (another key, another tenant, or altered)');
  }
}
