import { describe, expect, it } from 'vitest';
import { hashToken, newToken, seal, unseal } from '../src/lib/tokens';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);

/** Changes one character of the base64url part `index` of a sealed value. */
function tamper(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const part = parts[index] ?? '';
  const first = part[0] === 'A' ? 'B' : 'A';
  parts[index] = first + part.slice(1);
  return parts.join('.');
}

describe('newToken and hashToken', () => {
  it('makes 32 random bytes in base64url', () => {
    const tokens = new Set(Array.from({ length: 100 }, newToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('stores a token as its SHA-256', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const token = newToken();
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain(token);
  });
});

describe('seal and unseal', () => {
  it('give the secret back', () => {
    for (const text of ['JBSWY3DPEHPK3PXP', '', 'åäö ✓ 🔐']) expect(unseal(KEY, seal(KEY, text))).toBe(text);
  });

  it('never seal twice the same way and never show the plaintext', () => {
    const a = seal(KEY, 'JBSWY3DPEHPK3PXP');
    const b = seal(KEY, 'JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
  });

  it.each([
    [1, 'the nonce'],
    [2, 'the tag'],
    [3, 'the ciphertext'],
  ])('throw when part %i (%s) is changed', (index) => {
    const sealed = seal(KEY, 'JBSWY3DPEHPK3PXP');
    expect(() => unseal(KEY, tamper(sealed, index))).toThrow();
  });

  it('throw under another key', () => {
    expect(() => unseal(OTHER_KEY, seal(KEY, 'JBSWY3DPEHPK3PXP'))).toThrow();
  });

  it.each(['', 'v1', 'v1.a.b', 'v2.a.b.c', 'JBSWY3DPEHPK3PXP'])(
    'throw for the unknown format %j',
    (value) => {
      expect(() => unseal(KEY, value)).toThrow();
    },
  );

  it.each([4, 8, 12, 15])('throw for the true tag cut to %i bytes', (bytes) => {
    const [v, iv, tag, ct] = seal(KEY, 'JBSWY3DPEHPK3PXP').split('.');
    const short = Buffer.from(tag ?? '', 'base64url')
      .subarray(0, bytes)
      .toString('base64url');
    expect(() => unseal(KEY, [v, iv, short, ct].join('.'))).toThrow();
  });
});
