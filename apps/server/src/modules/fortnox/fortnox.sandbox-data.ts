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

const HAND_WRITTEN: SandboxInvoice[] = [
  {
    documentNumber: '2001',
    customerNumber: '1',
    invoiceDaysAgo: 3,
    termsDays: 30,
    rows: [
      row('ARB-01', 'Snickeriarbete, kök', 24_000, 'h', 65_000),
      row('MAT-02', 'Virke och beslag', 1000, 'st', 1_284_400),
    ],
    ocr: sandboxOcr('2001'),
    yourOrderNumber: 'PO-7731',
    yourReference: 'Karin Berg',
  },
  {
    documentNumber: '2002',
    customerNumber: '2',
    invoiceDaysAgo: 5,
    termsDays: 30,
    rows: [row('ARB-03', 'Fasadrenovering, etapp 2', 1000, 'st', 8_750_000)],
    ocr: sandboxOcr('2002'),
    yourOrderNumber: 'K-2026-114',
  },
  {
    documentNumber: '2003',
    customerNumber: '3',
    invoiceDaysAgo: 4,
    termsDays: 30,
    rows: [row('ARB-01', 'Håltagning för elcentral', 6500, 'h', 65_000)],
    ocr: sandboxOcr('2003'),
    noxFinans: true,
  },
  {
    documentNumber: '2004',
    customerNumber: '4',
    invoiceDaysAgo: 40,
    termsDays: 30,
    rows: [row('ARB-05', 'Altanbygge', 1000, 'st', 4_200_000)],
    ocr: sandboxOcr('2004'),
    paidMinor: 5_250_000,
  },
  {
    documentNumber: '2005',
    customerNumber: '1',
    invoiceDaysAgo: 2,
    termsDays: 30,
    rows: [
      row('PRO-01', 'Projektledning', 12_500, 'h', 95_000),
      row('LIT-01', 'Facklitteratur', 2000, 'st', 39_950, 6),
      row('MAT-07', 'Mat vid övertid', 4000, 'st', 12_500, 12),
    ],
    ocr: sandboxOcr('2005'),
    yourReference: 'Karin Berg',
  },
  {
    documentNumber: '2006',
    customerNumber: '5',
    invoiceDaysAgo: 10,
    termsDays: 30,
    rows: [row('ARB-02', 'Rivning badrum', 16_000, 'h', 58_000)],
    ocr: sandboxOcr('2006'),
    cancelled: true,
  },
  {
    documentNumber: '2007',
    customerNumber: '5',
    invoiceDaysAgo: 6,
    termsDays: 20,
    rows: [
      row('ARB-02', 'Badrumsrenovering', 38_500, 'h', 58_000),
      row('MAT-03', 'Kakel och fix', 1000, 'st', 2_315_000),
    ],
    ocr: sandboxOcr('2007'),
    yourOrderNumber: 'RV-88',
  },
  {
    documentNumber: '2008',
    customerNumber: '6',
    invoiceDaysAgo: 1,
    termsDays: 30,
    rows: [row('ARB-04', 'Kontorsanpassning, våning 3', 1000, 'st', 12_640_000)],
    ocr: sandboxOcr('2008'),
  },
  {
    documentNumber: '2009',
    customerNumber: '2',
    invoiceDaysAgo: 8,
    termsDays: 30,
    rows: [row('ARB-01', 'Takarbeten', 30_000, 'h', 65_000)],
    ocr: sandboxOcr('2009'),
    noxFinans: true,
  },
  {
    documentNumber: '2010',
    customerNumber: '7',
    invoiceDaysAgo: 2,
    termsDays: 30,
    rows: [row('ARB-06', 'Fönsterbyte, 6 fönster', 6000, 'st', 845_000)],
    ocr: sandboxOcr('2010'),
  },
  {
    documentNumber: '2011',
    customerNumber: '3',
    invoiceDaysAgo: 1,
    termsDays: 30,
    rows: [row('ARB-01', 'Snickeri, förråd', 8000, 'h', 65_000)],
    ocr: sandboxOcr('2011'),
    booked: false,
  },
  {
    documentNumber: '2012',
    customerNumber: '4',
    invoiceDaysAgo: 45,
    termsDays: 30,
    rows: [row('ARB-05', 'Staket', 1000, 'st', 1_860_000)],
    ocr: sandboxOcr('2012'),
  },
];

/**
 * The company's customer invoices: twelve written by hand (paid, cancelled, NoxFinans, unbooked and
 * overdue ones among them) and 24 more ordinary unpaid ones, so the unpaid list has more than one page
 * of 25, as Fortnox pages it.
 */
export function sandboxInvoices(): SandboxInvoice[] {
  const filler = Array.from({ length: 24 }, (_, i): SandboxInvoice => {
    const documentNumber = String(2013 + i);
    const hours = 4000 + ((i * 1500) % 20_000);
    return {
      documentNumber,
      customerNumber: String(1 + (i % 6)),
      invoiceDaysAgo: 1 + (i % 9),
      termsDays: 30,
      rows: [
        row('ARB-01', i % 2 === 0 ? 'Snickeriarbete' : 'Målning och spackling', hours, 'h', 62_000 + i * 400),
        row('MAT-01', 'Material enligt följesedel', 1000, 'st', 150_000 + i * 2_500),
      ],
      ocr: sandboxOcr(documentNumber),
    };
  });
  return [...HAND_WRITTEN, ...filler];
}
