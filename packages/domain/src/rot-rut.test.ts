import { describe, expect, it } from 'vitest';
import { addDays } from './calendar-date';
import {
  computeTaxReduction,
  isValidApartmentNumber,
  isValidHousingCooperativeNumber,
  isValidPropertyDesignation,
  PROPERTY_DESIGNATION_MAX_LENGTH,
  ROT_RUT_YEARLY_CAP_MINOR,
  ROT_YEARLY_CAP_MINOR,
  remainingYearlyCapMinor,
  TAX_REDUCTION_RATES,
  taxReductionRateBasisPoints,
  validateTaxReductionDetails,
} from './rot-rut';
import { seededRandom } from './test-support/seeded-random';

const SEK = 100; // öre per krona

describe('taxReductionRateBasisPoints (by payment date, vat-rot-rut.md §3.1)', () => {
  it.each([
    ['rot', '2024-01-01', 3000],
    ['rot', '2024-07-01', 3000],
    ['rot', '2025-05-11', 3000],
    ['rot', '2025-05-12', 5000],
    ['rot', '2025-12-31', 5000],
    ['rot', '2026-01-01', 3000],
    ['rot', '2030-06-30', 3000],
    ['rut', '2024-01-01', 5000],
    ['rut', '2025-05-12', 5000],
    ['rut', '2026-01-01', 5000],
  ] as const)('%s paid %s → %i bp', (type, date, bp) => {
    expect(taxReductionRateBasisPoints(type, date)).toBe(bp);
  });

  it.each([
    ['rot', '2023-12-31'],
    ['rut', '2023-12-31'],
    ['rot', '2025-02-30'],
    ['rot', '12 May 2025'],
  ] as const)('%s on %s has no rate', (type, date) => {
    expect(taxReductionRateBasisPoints(type, date)).toBeNull();
  });

  it('the table has no gaps or overlaps per type and stays open-ended', () => {
    for (const type of ['rot', 'rut'] as const) {
      const periods = TAX_REDUCTION_RATES.filter((p) => p.type === type);
      periods.slice(1).forEach((p, i) => {
        const previousEnd = periods[i]?.to;
        expect(previousEnd && addDays(previousEnd, 1)).toBe(p.from);
      });
      expect(periods.at(-1)?.to).toBeNull();
    }
  });
});

describe('yearly caps (vat-rot-rut.md §3.2)', () => {
  it('are 75 000 SEK together and 50 000 SEK for ROT', () => {
    expect(ROT_RUT_YEARLY_CAP_MINOR).toBe(75_000 * SEK);
    expect(ROT_YEARLY_CAP_MINOR).toBe(50_000 * SEK);
  });

  it.each([
    ['rot', 0, 0, 50_000],
    ['rut', 0, 0, 75_000],
    ['rot', 40_000, 0, 10_000],
    ['rot', 0, 50_000, 25_000],
    ['rut', 50_000, 0, 25_000],
    ['rut', 20_000, 30_000, 25_000],
    ['rot', 50_000, 0, 0],
    ['rut', 50_000, 25_000, 0],
    ['rut', 60_000, 60_000, 0],
  ] as const)('%s after ROT %i and RUT %i SEK used → %i SEK left', (type, rot, rut, left) => {
    expect(remainingYearlyCapMinor(type, rot * SEK, rut * SEK)).toBe(left * SEK);
  });

  it('throws on negative or fractional amounts used', () => {
    expect(() => remainingYearlyCapMinor('rot', -1, 0)).toThrow(RangeError);
    expect(() => remainingYearlyCapMinor('rut', 0, 0.5)).toThrow(RangeError);
  });
});

describe('computeTaxReduction', () => {
  // Worked examples of vat-rot-rut.md §3.5: labour 40 000 + VAT 25 % = 50 000 SEK.
  it.each([
    ['rot', '2024-03-01', 50_000, 15_000],
    ['rot', '2026-02-01', 50_000, 15_000],
    ['rot', '2025-06-15', 50_000, 25_000],
    ['rut', '2026-02-01', 5_000, 2_500],
  ] as const)('%s paid %s on %i SEK labour → %i SEK', (type, paymentDate, labour, reduction) => {
    const result = computeTaxReduction({ type, paymentDate, labourGrossMinor: labour * SEK });
    expect(result.deductionMinor).toBe(reduction * SEK);
    expect(result.uncappedMinor).toBe(reduction * SEK);
    expect(result.isCapped).toBe(false);
  });

  it('reaches the ROT cap at about 166 667 SEK of labour at 30 % and 100 000 SEK at 50 %', () => {
    const at30 = (labour: number) =>
      computeTaxReduction({ type: 'rot', paymentDate: '2026-03-01', labourGrossMinor: labour });
    expect(at30(16_666_600)).toMatchObject({ deductionMinor: 4_999_980, isCapped: false });
    expect(at30(16_666_700)).toMatchObject({
      uncappedMinor: 5_000_010,
      deductionMinor: 5_000_000,
      isCapped: true,
    });
    const at50 = computeTaxReduction({
      type: 'rot',
      paymentDate: '2025-09-01',
      labourGrossMinor: 100_000 * SEK,
    });
    expect(at50).toMatchObject({ deductionMinor: ROT_YEARLY_CAP_MINOR, isCapped: false });
    const rut = computeTaxReduction({
      type: 'rut',
      paymentDate: '2026-03-01',
      labourGrossMinor: 160_000 * SEK,
    });
    expect(rut).toMatchObject({ uncappedMinor: 80_000 * SEK, deductionMinor: 75_000 * SEK, isCapped: true });
  });

  it('limits the reduction to the available cap passed in', () => {
    const result = computeTaxReduction({
      type: 'rut',
      paymentDate: '2026-03-01',
      labourGrossMinor: 10_000 * SEK,
      availableCapMinor: 1_234 * SEK,
    });
    expect(result).toMatchObject({ uncappedMinor: 5_000 * SEK, deductionMinor: 1_234 * SEK, isCapped: true });
    expect(
      computeTaxReduction({
        type: 'rot',
        paymentDate: '2026-03-01',
        labourGrossMinor: 100,
        availableCapMinor: 0,
      }),
    ).toMatchObject({ deductionMinor: 0, isCapped: true });
  });

  it('rounds once to the öre, half away from zero', () => {
    const at30 = (labour: number) =>
      computeTaxReduction({ type: 'rot', paymentDate: '2026-03-01', labourGrossMinor: labour })
        .deductionMinor;
    expect(at30(333)).toBe(100); // 99.9
    expect(at30(5)).toBe(2); // 1.5
    expect(at30(1)).toBe(0); // 0.3
    expect(at30(0)).toBe(0);
    expect(at30(-10_000)).toBe(0);
  });

  it('throws without a rate or with a bad amount', () => {
    expect(() =>
      computeTaxReduction({ type: 'rot', paymentDate: '2023-06-01', labourGrossMinor: 100 }),
    ).toThrow(RangeError);
    expect(() =>
      computeTaxReduction({ type: 'rot', paymentDate: '2026-06-01', labourGrossMinor: 1.5 }),
    ).toThrow(RangeError);
    expect(() =>
      computeTaxReduction({
        type: 'rot',
        paymentDate: '2026-06-01',
        labourGrossMinor: 100,
        availableCapMinor: -1,
      }),
    ).toThrow(RangeError);
  });

  it('never exceeds the labour, the cap or the exact share by more than half an öre (2000 seeded cases)', () => {
    const random = seededRandom(555);
    for (let i = 0; i < 2000; i++) {
      const type = random.pick(['rot', 'rut'] as const);
      const paymentDate = random.pick(['2024-05-01', '2025-05-11', '2025-05-12', '2025-12-31', '2026-01-01']);
      const labourGrossMinor = random.int(0, 30_000_000);
      const availableCapMinor = random.int(0, 8_000_000);
      const r = computeTaxReduction({ type, paymentDate, labourGrossMinor, availableCapMinor });
      expect(Number.isSafeInteger(r.deductionMinor)).toBe(true);
      expect(r.deductionMinor).toBeLessThanOrEqual(Math.min(labourGrossMinor, availableCapMinor));
      expect(Math.abs(r.uncappedMinor * 10_000 - labourGrossMinor * r.rateBasisPoints)).toBeLessThanOrEqual(
        5_000,
      );
      expect(r.isCapped).toBe(r.deductionMinor < r.uncappedMinor);
    }
  });
});

describe('property and housing co-op checks (vat-rot-rut.md §3.4)', () => {
  it.each([
    'NORRA VISLINGE 11:11',
    ' Stockholm Sofia 1:2 ',
    'x',
    'Å'.repeat(PROPERTY_DESIGNATION_MAX_LENGTH),
  ])('accepts property designation %j', (v) => {
    expect(isValidPropertyDesignation(v)).toBe(true);
  });

  it.each(['', '   ', 'A'.repeat(PROPERTY_DESIGNATION_MAX_LENGTH + 1)])(
    'refuses property designation %j',
    (v) => {
      expect(isValidPropertyDesignation(v)).toBe(false);
    },
  );

  it.each([
    ['717600-4583', true],
    ['7176004583', true],
    ['167176004583', true],
    ['556036-0793', false], // a valid organisation number, but an aktiebolag (group 5)
    ['717600-4584', false],
    ['811228-9874', false],
    ['', false],
  ])('housing co-op organisation number %j → %s', (v, ok) => {
    expect(isValidHousingCooperativeNumber(v)).toBe(ok);
  });

  it.each([
    ['1101', true],
    [' 1101 ', true],
    ['A12', true],
    ['lgh 1101', true],
    ['1234567890', true],
    ['12345678901', false],
    ['', false],
    ['  ', false],
    ['1101!', false],
    ['-12', false],
  ])('apartment number %j → %s', (v, ok) => {
    expect(isValidApartmentNumber(v)).toBe(ok);
  });
});

describe('validateTaxReductionDetails', () => {
  const today = '2025-06-01';
  const buyer = { personalNumber: '811228-9874' };

  it('accepts complete ROT details for a house and for a co-op flat, and RUT without a property', () => {
    expect(
      validateTaxReductionDetails(
        { type: 'rot', buyers: [buyer], property: { kind: 'property', designation: 'NORRA VISLINGE 11:11' } },
        today,
      ),
    ).toEqual([]);
    expect(
      validateTaxReductionDetails(
        {
          type: 'rot',
          buyers: [buyer, { personalNumber: '701063-2391' }],
          property: {
            kind: 'housing-cooperative',
            organisationNumber: '717600-4583',
            apartmentNumber: '1101',
          },
        },
        today,
      ),
    ).toEqual([]);
    expect(validateTaxReductionDetails({ type: 'rut', buyers: [buyer] }, today)).toEqual([]);
  });

  it('reports missing buyers and a missing ROT property', () => {
    expect(validateTaxReductionDetails({ type: 'rot', buyers: [], property: null }, today)).toEqual([
      { path: ['buyers'], code: 'rot_rut.buyer_required' },
      { path: ['property'], code: 'rot_rut.property_required' },
    ]);
  });

  it('reports invalid and duplicate buyers by index', () => {
    const issues = validateTaxReductionDetails(
      {
        type: 'rut',
        buyers: [
          buyer,
          { personalNumber: '556036-0793' },
          { personalNumber: '19811228-9874' },
          { personalNumber: '' },
        ],
      },
      today,
    );
    expect(issues).toEqual([
      { path: ['buyers', 1, 'personalNumber'], code: 'rot_rut.invalid_personal_number' },
      { path: ['buyers', 2, 'personalNumber'], code: 'rot_rut.duplicate_buyer' },
      { path: ['buyers', 3, 'personalNumber'], code: 'rot_rut.invalid_personal_number' },
    ]);
  });

  it('reports a bad designation, co-op number and apartment number', () => {
    expect(
      validateTaxReductionDetails(
        { type: 'rot', buyers: [buyer], property: { kind: 'property', designation: ' ' } },
        today,
      ),
    ).toEqual([{ path: ['property', 'designation'], code: 'rot_rut.invalid_property_designation' }]);
    expect(
      validateTaxReductionDetails(
        {
          type: 'rot',
          buyers: [buyer],
          property: { kind: 'housing-cooperative', organisationNumber: '556036-0793', apartmentNumber: '' },
        },
        today,
      ),
    ).toEqual([
      { path: ['property', 'organisationNumber'], code: 'rot_rut.invalid_housing_cooperative' },
      { path: ['property', 'apartmentNumber'], code: 'rot_rut.invalid_apartment_number' },
    ]);
  });
});
