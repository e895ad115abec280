/**
 * The one company of the Fortnox sandbox: Demo Bygg AB (the demo issuer) with its customers and
 * customer invoices, in Fortnox's own shapes (shared/domain/fortnox-api.md §3.3, §4). Dates are counted
 * from the day the sandbox starts, so the unpaid invoices are always due in the future (or, for the
 * overdue ones, just past). Amounts are chosen so that net and VAT per rate are whole öre.
 */

import type { FortnoxCustomerFields } from './fortnox.client';

export interface SandboxCustomer extends FortnoxCustomerFields {
  VATType: 'SEVAT';
}

/** A row: price in öre, quantity in thousandths, VAT in percent. */
export interface SandboxRow {
  articleNumber: string;
  description: string;
  quantityMilli: number;
  unit: string;
  priceMinor: number;
  vat: number;
}

export interface SandboxInvoice {
  documentNumber: string;
  customerNumber: string;
  /** Days before the sandbox's start day. */
  invoiceDaysAgo: number;
  termsDays: number;
  rows: SandboxRow[];
  ocr: string;
  yourOrderNumber?: string;
  yourReference?: string;
  noxFinans?: boolean;
  booked?: boolean;
  cancelled?: boolean;
  /** Öre paid so far; the whole total makes it fully paid. */
  paidMinor?: number;
  currency?: 'SEK' | 'EUR';
}

export const SANDBOX_COMPANY = {
  CompanyName: 'Demo Bygg AB',
  OrganizationNumber: '556036-0793',
  Address: 'Byggvägen 1',
  ZipCode: '111 22',
  City: 'Stockholm',
  CountryCode: 'SE',
  DatabaseNumber: 1_234_567,
};

export const SANDBOX_CUSTOMERS: readonly SandboxCustomer[] = [
  customer('1', 'Byggmästarna i Norden AB', '556677-8899', 'Industrigatan 4', '112 51', 'Stockholm'),
  customer('2', 'Fastighets AB Kvarnen', '556123-4567', 'Kvarngatan 12', '753 20', 'Uppsala'),
  customer('3', 'Elektrikerna Syd AB', '559012-3450', 'Södra Förstadsgatan 30', '211 43', 'Malmö'),
  customer('4', 'Trädgårdsteknik i Mälardalen AB', '556987-6542', 'Mälarvägen 8', '722 11', 'Västerås'),
  customer('5', 'Rörfirman Väst AB', '556345-6788', 'Hamngatan 2', '411 14', 'Göteborg'),
  customer('6', 'Kontorsservice Norr AB', '559876-5435', 'Storgatan 50', '903 26', 'Umeå'),
  // The demo issuer's register already has this company (demo-business.ts): it is matched, not added.
  customer('7', 'Norrbygg HB', '556100-0000', 'Norrgatan 1', '111 20', 'Stockholm'),
];

function customer(
  no: string,
  name: string,
  org: string,
  address: string,
  zip: string,
  city: string,
): SandboxCustomer {
  const slug = name
    .toLowerCase()
    .replace(/[åä]/g, 'a')
    .replace(/ö/g, 'o')
    .replace(/[^a-z]/g, '');
  return {
    CustomerNumber: no,
    Name: name,
    OrganisationNumber: org,
    Type: 'COMPANY',
    VATNumber: `SE${org.replace('-', '')}01`,
    VATType: 'SEVAT',
    Address1: address,
    Address2: '',
    ZipCode: zip,
    City: city,
    CountryCode: 'SE',
    Email: `faktura@${slug}.se`,
    Phone1: '08-123 45 67',
  };
}

const row = (
  articleNumber: string,
  description: string,
  quantityMilli: number,
  unit: string,
  priceMinor: number,
  vat = 25,
): SandboxRow => ({ articleNumber, description, quantityMilli, unit, priceMinor, vat });

/** The OCR of a document number: the number with its Luhn check digit (the Fortnox default). */
export function sandboxOcr(documentNumber: string): string {
  let sum = 0;
  const digits = documentNumber.split('').reverse();
  digits.forEach((d, i) => {
    let n = Number(d) * (i % 2 === 0 ? 2 : 1);
    if (n > 9) n -= 9;
    sum += n;
  });
  return `${documentNumber}${(10 - (sum % 10)) % 10}`;
}

/**
 * An invoice of the sandbox: its OCR reference made from its document number, 30 days' terms unless
 * `more` says otherwise.
 */
function sandboxInvoice(
  documentNumber: string,
  customerNumber: string,
  invoiceDaysAgo: number,
  rows: SandboxRow[],
  more: Partial<SandboxInvoice> = {},
): SandboxInvoice {
  return {
    documentNumber,
    customerNumber,
    invoiceDaysAgo,
    termsDays: 30,
    rows,
    ocr: sandboxOcr(documentNumber),
    ...more,
  };
}

/** Each: document number, customer number, days before the start day, rows, and what else it has. */
const HAND_WRITTEN: SandboxInvoice[] = [
  sandboxInvoice(
    '2001',
    '1',
    3,
    [
      row('ARB-01', 'Snickeriarbete, kök', 24_000, 'h', 65_000),
      row('MAT-02', 'Virke och beslag', 1000, 'st', 1_284_400),
    ],
    { yourOrderNumber: 'PO-7731', yourReference: 'Karin Berg' },
  ),
  sandboxInvoice('2002', '2', 5, [row('ARB-03', 'Fasadrenovering, etapp 2', 1000, 'st', 8_750_000)], {
    yourOrderNumber: 'K-2026-114',
  }),
  sandboxInvoice('2003', '3', 4, [row('ARB-01', 'Håltagning för elcentral', 6500, 'h', 65_000)], {
    noxFinans: true,
  }),
  sandboxInvoice('2004', '4', 40, [row('ARB-05', 'Altanbygge', 1000, 'st', 4_200_000)], {
    paidMinor: 5_250_000,
  }),
  sandboxInvoice(
    '2005',
    '1',
    2,
    [
      row('PRO-01', 'Projektledning', 12_500, 'h', 95_000),
      row('LIT-01', 'Facklitteratur', 2000, 'st', 39_950, 6),
      row('MAT-07', 'Mat vid övertid', 4000, 'st', 12_500, 12),
    ],
    { yourReference: 'Karin Berg' },
  ),
  sandboxInvoice('2006', '5', 10, [row('ARB-02', 'Rivning badrum', 16_000, 'h', 58_000)], {
    cancelled: true,
  }),
  sandboxInvoice(
    '2007',
    '5',
    6,
    [
      row('ARB-02', 'Badrumsrenovering', 38_500, 'h', 58_000),
      row('MAT-03', 'Kakel och fix', 1000, 'st', 2_315_000),
    ],
    { termsDays: 20, yourOrderNumber: 'RV-88' },
  ),
  sandboxInvoice('2008', '6', 1, [row('ARB-04', 'Kontorsanpassning, våning 3', 1000, 'st', 12_640_000)]),
  sandboxInvoice('2009', '2', 8, [row('ARB-01', 'Takarbeten', 30_000, 'h', 65_000)], { noxFinans: true }),
  sandboxInvoice('2010', '7', 2, [row('ARB-06', 'Fönsterbyte, 6 fönster', 6000, 'st', 845_000)]),
  sandboxInvoice('2011', '3', 1, [row('ARB-01', 'Snickeri, förråd', 8000, 'h', 65_000)], { booked: false }),
  sandboxInvoice('2012', '4', 45, [row('ARB-05', 'Staket', 1000, 'st', 1_860_000)]),
];

/**
 * The company's customer invoices: twelve written by hand (paid, cancelled, NoxFinans, unbooked and
 * overdue ones among them) and 24 more ordinary unpaid ones, so the unpaid list has more than one page
 * of 25, as Fortnox pages it.
 */
export function sandboxInvoices(): SandboxInvoice[] {
  const filler = Array.from({ length: 24 }, (_, i) => {
    const documentNumber = String(2013 + i);
    const hours = 4000 + ((i * 1500) % 20_000);
    return sandboxInvoice(documentNumber, String(1 + (i % 6)), 1 + (i % 9), [
      row('ARB-01', i % 2 === 0 ? 'Snickeriarbete' : 'Målning och spackling', hours, 'h', 62_000 + i * 400),
      row('MAT-01', 'Material enligt följesedel', 1000, 'st', 150_000 + i * 2_500),
    ]);
  });
  return [...HAND_WRITTEN, ...filler];
}
