import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  newTotpSecret,
  otpauthUri,
  timeStep,
  verifyTotp,
} from '../src/lib/totp';

/** The shared secret of the RFC test vectors: the ASCII string "12345678901234567890". */
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');
const RFC_KEY_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('HOTP (RFC 4226, appendix D)', () => {
  const vectors = [
    '755224',
    '287082',
    '359152',
    '969429',
    '338314',
    '254676',
    '287922',
    '162583',
    '399871',
    '520489',
  ];
  it.each(vectors.map((code, counter) => [counter, code] as const))(
    'counter %i gives %s',
    (counter, code) => {
      expect(hotp(RFC_KEY, counter)).toBe(code);
    },
  );
});

describe('TOTP with SHA-1 (RFC 6238, appendix B)', () => {
  it.each([
    [59, '94287082'],
    [1_111_111_109, '07081804'],
    [1_111_111_111, '14050471'],
    [1_234_567_890, '89005924'],
    [2_000_000_000, '69279037'],
    [20_000_000_000, '65353130'],
  ])('T = %i s gives %s', (seconds, code) => {
    expect(hotp(RFC_KEY, timeStep(seconds * 1000), 8)).toBe(code);
  });
});

describe('base32', () => {
  it('encodes and decodes the RFC key', () => {
    expect(base32Encode(RFC_KEY)).toBe(RFC_KEY_BASE32);
    expect(base32Decode(RFC_KEY_BASE32)).toEqual(RFC_KEY);
  });

  it.each([
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ])('RFC 4648 vector %j ↔ %s (without padding)', (text, encoded) => {
    expect(base32Encode(Buffer.from(text))).toBe(encoded);
    expect(base32Decode(encoded).toString()).toBe(text);
  });

  it('reads lower case, spaces, dashes and padding as an app user may type them', () => {
    expect(base32Decode('mzxw 6ytb-oi======').toString()).toBe('foobar');
  });

  it('refuses a character outside the alphabet', () => {
    expect(() => base32Decode('MZXW1')).toThrow();
  });

  it('makes new 160-bit secrets', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
  });
});

describe('verifyTotp', () => {
  const secret = RFC_KEY_BASE32;
  const at = 1_700_000_000_000;
  const step = timeStep(at);
  const codeAt = (s: number) => hotp(RFC_KEY, s);

  it('accepts the code of now and one step either side, answering its step', () => {
    expect(verifyTotp(secret, codeAt(step), at, null)).toBe(step);
    expect(verifyTotp(secret, codeAt(step - 1), at, null)).toBe(step - 1);
    expect(verifyTotp(secret, codeAt(step + 1), at, null)).toBe(step + 1);
  });

  it('refuses codes two steps away', () => {
    expect(verifyTotp(secret, codeAt(step - 2), at, null)).toBeNull();
    expect(verifyTotp(secret, codeAt(step + 2), at, null)).toBeNull();
  });

  it('refuses a step at or before the last accepted one', () => {
    expect(verifyTotp(secret, codeAt(step), at, step)).toBeNull();
    expect(verifyTotp(secret, codeAt(step - 1), at, step - 1)).toBeNull();
    expect(verifyTotp(secret, codeAt(step), at, step - 1)).toBe(step);
    expect(verifyTotp(secret, codeAt(step + 1), at, step)).toBe(step + 1);
  });

  it.each(['', '12345', '1234567', '12345a', ' 123456', '１２３４５６'])(
    'refuses the malformed code %j',
    (code) => {
      expect(verifyTotp(secret, code, at, null)).toBeNull();
    },
  );

  it('agrees with an independent implementation (otpauth) on random secrets and times', () => {
    for (let i = 0; i < 50; i++) {
      const s = newTotpSecret();
      const when = 1_600_000_000_000 + Math.floor(Math.random() * 400_000_000_000);
      const totp = new TOTP({ secret: Secret.fromBase32(s), algorithm: 'SHA1', digits: 6, period: 30 });
      const code = totp.generate({ timestamp: when });
      expect(hotp(base32Decode(s), timeStep(when))).toBe(code);
      expect(verifyTotp(s, code, when, null)).toBe(timeStep(when));
    }
  });
});

describe('otpauthUri', () => {
  it('is read back by an independent implementation', () => {
    const secret = newTotpSecret();
    const uri = otpauthUri(secret, 'demo', 'Kundportalen');
    expect(uri.startsWith('otpauth://totp/Kundportalen%3Ademo?')).toBe(true);
    const params = new URL(uri).searchParams;
    expect(Object.fromEntries(params)).toEqual({
      secret,
      issuer: 'Kundportalen',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    expect(hotp(base32Decode(secret), timeStep(Date.now()))).toBe(totp.generate());
  });
});
