import { Secret, TOTP } from 'otpauth';

/** A code of an independent TOTP implementation (otpauth), at the test clock's time. */
export function totpCode(secretBase32: string, at: Date): string {
  const totp = new TOTP({
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp: at.getTime() });
}

/** A six-digit code that is none of the codes accepted around `at` (one step of drift either way). */
export function wrongCode(secretBase32: string, at: Date): string {
  const accepted = new Set(
    [-30_000, 0, 30_000].map((d) => totpCode(secretBase32, new Date(at.getTime() + d))),
  );
  for (let n = 123_456; ; n = (n + 111_111) % 1_000_000) {
    const code = String(n).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
}
