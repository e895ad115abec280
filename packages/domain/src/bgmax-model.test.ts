import { describe, expect, it } from 'vitest';
import {
  bgmaxEndCounts,
  bgmaxExtraReferenceSignedAmount,
  bgmaxSectionTotals,
  bgmaxSignedAmount,
  decodeLatin1,
  encodeLatin1,
  readBgmax,
} from './bgmax';
import { readSharedBytes } from './test-support/shared-files';

describe('signed amounts', () => {
  it.each([
    ['payment', 50000, 50000],
    ['deduction', 50000, -50000],
    ['deduction', 0, 0],
  ] as const)('a %s of %i öre counts as %i', (kind, amountMinor, signed) => {
    expect(bgmaxSignedAmount({ kind, amountMinor })).toBe(signed);
  });

  it.each([
    ['positive', 100000, 100000],
    ['negative', 50000, -50000],
    ['negative', 0, 0],
  ] as const)('a %s extra reference of %i öre counts as %i', (sign, amountMinor, signed) => {
    expect(bgmaxExtraReferenceSignedAmount({ sign, amountMinor })).toBe(signed);
  });
});

describe('bgmaxSectionTotals', () => {
  it.each([
    [[], 0n, 0],
    [
      [
        ['payment', 100000],
        ['payment', 140000],
        ['deduction', 50000],
      ],
      190000n,
      3,
    ],
    [[['deduction', 1]], -1n, 1],
    // Beyond 2^53 the bigint sum stays exact where a float sum would round.
    [
      [
        ['payment', Number.MAX_SAFE_INTEGER],
        ['payment', Number.MAX_SAFE_INTEGER],
        ['payment', 1],
      ],
      18014398509481983n,
      3,
    ],
  ] as const)('%j → %s öre, %i records', (rows, amountMinor, paymentCount) => {
    const payments = rows.map(([kind, amount]) => ({ kind, amountMinor: amount }));
    expect(bgmaxSectionTotals(payments)).toEqual({ amountMinor, paymentCount });
  });
});

it('bgmaxEndCounts counts the records of a read sample like its TK70', () => {
  const { file } = readBgmax(readSharedBytes('domain/bgmax-samples/zimpler-BgMaxfil4.txt'));
  expect(bgmaxEndCounts(file.sections)).toEqual(file.end);
});

describe('Latin-1 bytes', () => {
  it.each([
    ['Plåt', [0x50, 0x6c, 0xe5, 0x74]],
    ['ÅÄÖåäö', [0xc5, 0xc4, 0xd6, 0xe5, 0xe4, 0xf6]],
    ['€', [0x3f]],
    ['Ł', [0x3f]],
  ])('encodes %s', (text, bytes) => {
    expect([...encodeLatin1(text)]).toEqual(bytes);
  });

  it('decodes every byte value to the same code point, across chunk boundaries', () => {
    const bytes = Uint8Array.from({ length: 70000 }, (_, i) => i % 256);
    const text = decodeLatin1(bytes);
    expect(text).toHaveLength(70000);
    expect([...encodeLatin1(text)]).toEqual([...bytes]);
    expect(text.charCodeAt(0x80)).toBe(0x80);
  });
});
