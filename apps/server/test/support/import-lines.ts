/** The columns of the invoice import, in the template's (English) names. */
export const IMPORT_HEADER = [
  'invoiceNumber',
  'recipientOrganizationNumber',
  'invoiceDate',
  'dueDate',
  'service',
  'currency',
  'description',
  'quantity',
  'unit',
  'unitPrice',
  'vatPercent',
];

/**
 * The header, then `count` invoice lines, two per invoice, as a customer's system would export them:
 * the import-limit tests and the import benches read files of these.
 */
export function* importLines(
  count: number,
  options: {
    prefix?: string;
    organizationNumber?: string;
    invoiceDate?: string;
    dueDate?: string;
    /** How many different descriptions the lines cycle through. */
    descriptions?: number;
  } = {},
): Generator<string[]> {
  const {
    prefix = 'BIG',
    organizationNumber = '559123-4561',
    invoiceDate = '2026-03-01',
    dueDate = '2026-03-31',
    descriptions = 97,
  } = options;
  yield IMPORT_HEADER;
  for (let i = 0; i < count; i++)
    yield [
      `${prefix}-${Math.floor(i / 2)}`,
      organizationNumber,
      invoiceDate,
      dueDate,
      'factoring',
      'SEK',
      `Arbete ${i % descriptions}`,
      String(1 + (i % 9)),
      'h',
      `${100 + (i % 1000)},00`,
      '25',
    ];
}
