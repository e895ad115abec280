import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Fortnox tokens at rest (issue #13): AES-256-GCM under the configured key (`Config.fortnoxKey`), a
 * fresh 12-byte IV each time, a 16-byte tag. Format `f1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export function sealToken(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    'f1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ct.toString('base64url'),
  ].join('.');
}

/** Opens a sealed token; throws when it was sealed under another key or altered. */
export function unsealToken(key: Buffer, sealed: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== 'f1' || !iv || !tag || ct === undefined) throw new Error('unknown sealed token format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
