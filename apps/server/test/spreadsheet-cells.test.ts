import { describe, expect, it } from 'vitest';
import { neutraliseText, safeCell } from '../src/lib/spreadsheet-cells';

describe('neutraliseText', () => {
  it.each(['=1+1', '+46 70', '-2', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with an apostrophe', (v) => {
    expect(neutraliseText(v)).toBe(`'${v}`);
  });

  it('leaves ordinary text alone', () => {
    expect(neutraliseText('Åkeri AB')).toBe('Åkeri AB');
    expect(neutraliseText('a=b')).toBe('a=b');
    expect(neutraliseText('')).toBe('');
  });
});

describe('safeCell', () => {
  it('touches only text', () => {
    const day = new Date('2026-01-01T00:00:00Z');
    expect(safeCell(-5)).toBe(-5);
    expect(safeCell(day)).toBe(day);
    expect(safeCell(null)).toBeNull();
    expect(safeCell('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
  });
});
