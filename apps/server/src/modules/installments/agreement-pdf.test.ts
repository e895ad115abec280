import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/support/pdf-text';
import { type AgreementToDraw, renderAgreementPdf } from './agreement-pdf';

/** The agreement PDF, read back by an independent reader (pdf.js). */

function agreement(n: number, language: AgreementToDraw['language'] = 'sv-SE'): AgreementToDraw {
  const financed = 3_600_001;
  const base = Math.floor(financed / n);
  const rows = Array.from({ length: n }, (_, i) => {
    const principal = i === n - 1 ? financed - base * (n - 1) : base;
    const fee = (i === 0 ? 49_500 : 0) + 2_900 + 3_900;
    const month = new Date(Date.UTC(2027, i, 15)).toISOString().slice(0, 10);
    return {
      number: i + 1,
      dueDate: month,
      principalMinor: principal,
      feeMinor: fee,
      amountMinor: principal + fee,
    };
  });
  return {
    language,
    date: '2026-11-26',
    seller: {
      name: 'Demo Bygg AB',
      organizationNo: '556677-8899',
      address: 'Byggvägen 1',
      zipcode: '111 22',
      city: 'Stockholm',
    },
    buyer: {
      name: 'Åsa Öberg',
      identityNumber: '19800101-0019',
      address: 'Storgatan 5',
      zipcode: '753 20',
      city: 'Uppsala',
    },
    plan: {
      loanNumber: '100000017',
      description: 'Köksrenovering med vitvaror, enligt offert 2026-118',
      currency: 'SEK',
      financedMinor: financed,
      initialFeeMinor: 49_500,
      monthlyFeeMinor: 2_900,
      administrationFeeMinor: 3_900,
      totalMinor: rows.reduce((s, r) => s + r.amountMinor, 0),
      noOfInstallments: n,
      startDate: '2026-12-15',
      endDate: rows[n - 1]?.dueDate ?? '',
    },
    rows,
    signees: [{ name: 'Åsa Öberg', identityNumber: '19800101-0019', email: 'asa@example.se' }],
    securities: [{ name: 'Per Öberg', identityNumber: '19790202-0018', email: 'per@example.se' }],
  };
}

describe('the installment agreement PDF', () => {
  it('shows the parties, the terms, every installment and totals that add up, in the buyer’s language', async () => {
    const a = agreement(12);
    const { pages, text } = await pdfText(await renderAgreementPdf(a));
    expect(pages).toBe(1);
    for (const part of [
      'Avbetalningsavtal',
      '100000017',
      'Demo Bygg AB',
      'Åsa Öberg',
      'Köksrenovering',
      'Betalningsplan',
      'Per Öberg',
      'proprieborgen',
      'Sida 1 av 1',
    ])
      expect(text).toContain(part);
    for (const row of a.rows) expect(text).toContain(row.dueDate);
    // The last installment carries the principal's rounding rest, and the total is the plan's.
    expect(text).toContain('36 000,01');
    expect(text.replace(/\s/g, ' ')).toContain(
      `${(a.plan.totalMinor / 100)
        .toFixed(2)
        .replace('.', ',')
        .replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}`,
    );
    const english = await pdfText(await renderAgreementPdf(agreement(12, 'en-US')));
    expect(english.text).toContain('Installment agreement');
    expect(english.text).toContain('Payment schedule');
    const finnish = await pdfText(await renderAgreementPdf(agreement(12, 'fi-FI')));
    expect(finnish.text).toContain('Osamaksusopimus');
    expect(finnish.text).toContain('Maksusuunnitelma');
  });

  it('flows a long schedule over pages with its heading repeated, numbering every page, and is the same bytes twice', async () => {
    const a = agreement(120);
    const bytes = await renderAgreementPdf(a);
    const { pages, text } = await pdfText(bytes);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(text).toContain(`Sida ${pages} av ${pages}`);
    const pageTexts = text.split('\n');
    // Every page after the first that holds schedule rows starts them under the column heading.
    expect(pageTexts.slice(1).filter((p) => p.includes('Förfallodag')).length).toBeGreaterThanOrEqual(1);
    for (const row of a.rows) expect(text).toContain(row.dueDate);
    expect(Buffer.from(await renderAgreementPdf(a)).equals(Buffer.from(bytes))).toBe(true);
  });
});
