import { describe, expect, it } from 'vitest';
import { pdfTextItems } from '../../../test/support/pdf-text';
import { renderTablePdf, wrapCell } from './table-pdf';

// The ledger's columns as the report route lays them out: 12 headings, each with its relative width
// over landscape A4.
const COLUMNS: [heading: string, width: number][] = [
  ['Invoice number', 8],
  ['Invoice date', 8],
  ['Due date', 8],
  ['Service', 10],
  ['Customer', 16],
  ['Organisation number', 10],
  ['City', 8],
  ['SNI', 6],
  ['Amount', 10],
  ['Currency', 5],
  ['Remaining', 10],
  ['Process', 9],
];
const HEADER = COLUMNS.map(([heading]) => heading);
const WIDTHS = COLUMNS.map(([, width]) => width);
const MARGIN = 32;
const USABLE = 841.89 - 2 * MARGIN;
const TOTAL = WIDTHS.reduce((s, w) => s + w, 0);
const LEFTS = WIDTHS.map((_, i) => MARGIN + (WIDTHS.slice(0, i).reduce((s, w) => s + w, 0) / TOTAL) * USABLE);

describe('wrapCell', () => {
  const measure = (text: string) => text.length; // one point per character
  it('keeps words whole where they fit and breaks a word wider than the column', () => {
    expect(wrapCell('Söderstäd Bygg och Måleri AB', 12, measure)).toEqual([
      'Söderstäd',
      'Bygg och',
      'Måleri AB',
    ]);
    expect(wrapCell('12345678901234567890', 8, measure)).toEqual(['12345678', '90123456', '7890']);
    expect(wrapCell('', 8, measure)).toEqual(['']);
  });
});

describe('renderTablePdf (issue #11: the ledger PDF never cuts a heading or a value)', () => {
  it('wraps long headings and values inside their columns, keeps every word, and repeats the header', async () => {
    const longName = 'Aktiebolaget Söderstäds Byggnadsplåt och Takmontage i Norrland Filial Östersund';
    const rows = Array.from({ length: 60 }, (_, i) => [
      `E2E-${String(i).padStart(4, '0')}-LONGNUMBER`,
      '2026-03-01',
      '2026-03-31',
      'Factoring without recourse',
      i === 7 ? longName : `Kund ${i} AB`,
      '556036-0793',
      'Upplands Väsby',
      '43210',
      '99 999 999,99',
      'SEK',
      '99 999 999,99',
      'Second reminder sent',
    ]);
    const bytes = await renderTablePdf({
      title: 'Ledger',
      subtitle: 'On 2026-03-10',
      empty: 'None',
      header: HEADER,
      widths: WIDTHS,
      rightAligned: [8, 10],
      rows,
      totals: ['Total SEK: 5 999 999 999,40'],
    });
    const { items: all } = await pdfTextItems(bytes);
    // Every character of every heading and value is there, in order: a word wider than its column is
    // broken over two lines ("Curren" / "cy"), never cut.
    const text = all.map((r) => r.str).join('');
    const squeezed = (value: string) => value.replace(/\s/g, '');
    for (const cell of [...HEADER, longName, ...(rows.at(-1) ?? [])])
      expect(squeezed(text)).toContain(squeezed(cell));
    // No run crosses into the next column: each lies within its own column's bounds.
    const body = all.filter(
      (r) => !['Ledger', 'On 2026-03-10'].includes(r.str) && !r.str.startsWith('Total'),
    );
    for (const r of body) {
      const column = LEFTS.findLastIndex((left) => left <= r.x + 0.01);
      const right = LEFTS[column + 1] ?? MARGIN + USABLE;
      expect(r.x + r.width, `${r.str} on page ${r.page}`).toBeLessThanOrEqual(right + 0.01);
    }
    // 60 rows flow onto more pages, each starting with the header.
    const pages = Math.max(...all.map((r) => r.page));
    expect(pages).toBeGreaterThan(1);
    for (let p = 2; p <= pages; p++) expect(all.find((r) => r.page === p)?.str).toBe('Invoice');
    // No two runs of a page overlap (a wrapped row pushes the next one down).
    for (let p = 1; p <= pages; p++) {
      const onPage = body.filter((r) => r.page === p);
      for (const a of onPage)
        for (const b of onPage) {
          if (a === b || Math.abs(a.y - b.y) >= 9) continue;
          const apart = a.x + a.width <= b.x + 0.01 || b.x + b.width <= a.x + 0.01;
          expect(apart, `${a.str} / ${b.str} on page ${p}`).toBe(true);
        }
    }
  });
});
