import { assertMinorUnits, multiplyDivide, sumMinor } from './money';
import { QUANTITY_SCALE } from './quantity';
import { computeTaxReduction, type TaxReduction, type TaxReductionType } from './rot-rut';

/**
 * Invoice totals in integer minor units. The same function gives the web's live totals and the
 * server's stored totals, so both always agree to the öre/cent.
 *
 * Rules (all rounding half away from zero, see money.ts):
 * 1. Row net = quantity (thousandths) × unit price / 1000, rounded once per row.
 * 2. VAT is not rounded per row. Per rate, the taxable amount is the exact sum of the row nets at that
 *    rate, and the VAT is that sum × rate, rounded once per rate (vat-rot-rut.md: round each VAT amount
 *    once; it is also how an EN 16931 / Peppol BIS invoice states VAT per rate, BR-CO-17).
 * 3. Net = Σ row nets; VAT = Σ VAT per rate; gross = net + VAT.
 * 4. ROT/RUT: labour incl. VAT = per rate, Σ labour row nets plus their VAT rounded once per rate;
 *    reduction = percentage × labour incl. VAT, rounded once, limited by the cap (rot-rut.ts). The
 *    reduction does not change the VAT. To pay = gross − reduction.
 */

/** What an invoice row charges for; the split ROT/RUT invoices must show (vat-rot-rut.md §3.4). */
export const ROW_KINDS = ['labour', 'material', 'other'] as const;
/** Only `labour` rows count for ROT/RUT; materials, travel, machines and the like do not. */
export type RowKind = (typeof ROW_KINDS)[number];

export { QUANTITY_SCALE };
/** VAT rates are integer basis points: 2500 = 25 %, 2550 = 25.5 %. */
export const BASIS_POINTS_SCALE = 10_000;

/** One invoice row as the form or the database holds it, all integers. */
export interface InvoiceRowInput {
  /** Quantity in thousandths (integer; negative for a credit row). */
  quantity: number;
  /** Price of one unit in minor units, excl. VAT (integer, may be negative for a discount). */
  unitPriceMinor: number;
  /** VAT rate in basis points, an integer 0-10 000. */
  vatBasisPoints: number;
  /** Defaults to `other`. */
  kind?: RowKind;
}

/** ROT or RUT on this invoice; all amounts in öre. */
export interface TaxReductionSettings {
  type: TaxReductionType;
  /** Decides the percentage: the buyer's (expected) payment date, `YYYY-MM-DD`; the due date for a new invoice. */
  paymentDate: string;
  /** Reduction the buyer(s) can still get this year, in öre; defaults to one buyer's full cap. */
  availableCapMinor?: number;
}

/** Taxable amount and VAT of one rate, in minor units. */
export interface VatRateTotal {
  vatBasisPoints: number;
  /** Exact sum of the row nets at this rate. */
  netMinor: number;
  /** `netMinor` × rate, rounded once. */
  vatMinor: number;
}

/** The labour rows alone, in minor units; `grossMinor` is the ROT/RUT base. */
export interface LabourTotals {
  netMinor: number;
  vatMinor: number;
  grossMinor: number;
}

/** Everything `computeInvoiceTotals` works out, in minor units. */
export interface InvoiceTotals {
  /** Net of each row, in the order given. */
  rowNetsMinor: number[];
  /** One entry per VAT rate used, highest rate first. */
  vatByRate: VatRateTotal[];
  netMinor: number;
  vatMinor: number;
  /** `netMinor + vatMinor`. */
  grossMinor: number;
  /** The labour rows' share of the invoice, the base of ROT/RUT. */
  labour: LabourTotals;
  /** Null when no ROT/RUT settings were given. */
  taxReduction: TaxReduction | null;
  /** `taxReduction.deductionMinor`, or 0. */
  taxReductionMinor: number;
  /** What the buyer pays: `grossMinor − taxReductionMinor`. */
  toPayMinor: number;
}

/**
 * A row's net in minor units: quantity (thousandths) × unit price / 1000, rounded half away from zero
 * (1.5 × 3.33 = 4.995 → 5.00). Throws a RangeError on non-integers or a result outside the safe range.
 */
export function rowNetMinor(quantity: number, unitPriceMinor: number): number {
  assertMinorUnits(quantity, 'quantity');
  assertMinorUnits(unitPriceMinor, 'unitPriceMinor');
  return multiplyDivide(quantity, unitPriceMinor, QUANTITY_SCALE);
}

/** VAT on a taxable amount at a rate in basis points, rounded once, half away from zero. */
export function vatMinor(netMinor: number, vatBasisPoints: number): number {
  assertVatBasisPoints(vatBasisPoints);
  return multiplyDivide(netMinor, vatBasisPoints, BASIS_POINTS_SCALE);
}

function assertVatBasisPoints(value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > BASIS_POINTS_SCALE) {
    throw new RangeError(`vatBasisPoints must be an integer 0-10000, got ${String(value)}`);
  }
}

function vatPerRate(nets: ReadonlyMap<number, number>): VatRateTotal[] {
  return [...nets.entries()]
    .sort(([a], [b]) => b - a)
    .map(([vatBasisPoints, netMinor]) => ({
      vatBasisPoints,
      netMinor,
      vatMinor: vatMinor(netMinor, vatBasisPoints),
    }));
}

function addTo(map: Map<number, number>, rate: number, amount: number): void {
  map.set(rate, sumMinor([map.get(rate) ?? 0, amount]));
}

/**
 * Totals of an invoice (rules in the module comment). Rows may be empty (all totals 0). Throws a
 * RangeError on a non-integer quantity or price, a VAT rate outside 0-10 000 basis points, an unknown
 * row kind, a total outside the safe integer range, or ROT/RUT settings without a percentage for
 * their payment date.
 */
export function computeInvoiceTotals(
  rows: readonly InvoiceRowInput[],
  taxReduction?: TaxReductionSettings | null,
): InvoiceTotals {
  const netByRate = new Map<number, number>();
  const labourNetByRate = new Map<number, number>();
  const rowNetsMinor = rows.map((row) => {
    assertVatBasisPoints(row.vatBasisPoints);
    const kind = row.kind ?? 'other';
    if (!ROW_KINDS.includes(kind)) throw new RangeError(`unknown row kind ${String(kind)}`);
    const net = rowNetMinor(row.quantity, row.unitPriceMinor);
    addTo(netByRate, row.vatBasisPoints, net);
    if (kind === 'labour') addTo(labourNetByRate, row.vatBasisPoints, net);
    return net;
  });

  const vatByRate = vatPerRate(netByRate);
  const netMinor = sumMinor(rowNetsMinor);
  const vat = sumMinor(vatByRate.map((r) => r.vatMinor));
  const grossMinor = sumMinor([netMinor, vat]);

  const labourByRate = vatPerRate(labourNetByRate);
  const labourNet = sumMinor(labourByRate.map((r) => r.netMinor));
  const labourVat = sumMinor(labourByRate.map((r) => r.vatMinor));
  const labour = { netMinor: labourNet, vatMinor: labourVat, grossMinor: sumMinor([labourNet, labourVat]) };

  const reduction =
    taxReduction === undefined || taxReduction === null
      ? null
      : computeTaxReduction({ ...taxReduction, labourGrossMinor: labour.grossMinor });
  const taxReductionMinor = reduction === null ? 0 : reduction.deductionMinor;

  return {
    rowNetsMinor,
    vatByRate,
    netMinor,
    vatMinor: vat,
    grossMinor,
    labour,
    taxReduction: reduction,
    taxReductionMinor,
    toPayMinor: sumMinor([grossMinor, -taxReductionMinor]),
  };
}
