import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PAYMENT_TERMS_DAYS,
  dueDate,
  isDueBeforeInvoiceDate,
  nextInvoiceNumber,
  paymentTermsDays,
} from './due-date';

describe('dueDate', () => {
  it.each([
    ['2025-01-31', 30, '2025-03-02'],
    ['2024-01-31', 30, '2024-03-01'],
    ['2025-12-15', 30, '2026-01-14'],
    ['2025-06-10', 0, '2025-06-10'],
    ['2025-06-10', 10, '2025-06-20'],
    ['2024-02-19', 10, '2024-02-29'],
    ['2025-11-01', 60, '2025-12-31'],
  ])('%s with %i days → %s', (date, days, due) => {
    expect(dueDate(date, days)).toBe(due);
  });

  it('does not move a due date that falls on a weekend', () => {
    // 2025-03-09 is a Sunday.
    expect(dueDate('2025-02-07', 30)).toBe('2025-03-09');
  });

  it('throws on an invalid date or terms', () => {
    expect(() => dueDate('2025-02-30', 30)).toThrow(RangeError);
    expect(() => dueDate('31.01.2025', 30)).toThrow(RangeError);
    expect(() => dueDate('2025-01-31', -1)).toThrow(RangeError);
    expect(() => dueDate('2025-01-31', 1.5)).toThrow(RangeError);
    expect(() => dueDate('2025-01-31', Number.NaN)).toThrow(RangeError);
  });
});

describe('nextInvoiceNumber', () => {
  it.each([
    [[], '1'],
    [['abc', 'F-'], '1'],
    [['1', '2', '3'], '4'],
    [['3', '1', '2'], '4'],
    [['F-0009', 'F-0010'], 'F-0011'],
    [['2025-099'], '2025-100'],
    [['999'], '1000'],
    [['INV-0999'], 'INV-1000'],
    [['0099'], '0100'],
    [['A-5', 'B-9'], 'B-10'],
    [['B-9', 'A-12'], 'A-13'],
    [['2024-0042', '2025-0001'], '2024-0043'],
    [['F-10', 'F-010'], 'F-011'],
    [['F-010', 'F-10'], 'F-11'],
    [['  F-7  '], 'F-8'],
    [['1234567890123456789012345'], '1234567890123456789012346'],
    [['99999999999999999999'], '100000000000000000000'],
    [['X1Y2'], 'X1Y3'],
    [['faktura 12', 'draft'], 'faktura 13'],
  ])('%j → %s', (existing, next) => {
    expect(nextInvoiceNumber(existing)).toBe(next);
  });

  it('uses the fallback when nothing is numbered', () => {
    expect(nextInvoiceNumber([], '2025-0001')).toBe('2025-0001');
  });

  it('never suggests a number that exists', () => {
    const existing = ['F-0009', '9', 'A-10', 'A-010', 'F-0010x', 'F-0011'];
    const next = nextInvoiceNumber(existing);
    expect(existing).not.toContain(next);
    expect(next).toBe('F-0012');
  });
});

describe('paymentTermsDays: the inverse of dueDate', () => {
  it.each([
    ['2025-01-31', '2025-03-02', 30],
    ['2024-02-19', '2024-02-29', 10],
    ['2025-12-15', '2026-01-14', 30],
    ['2025-06-10', '2025-06-10', 0],
    ['2025-06-10', '2025-06-09', null],
    ['2025-02-30', '2025-03-30', null],
    ['2025-01-31', '', null],
  ])('%s to %s → %s', (invoiceDate, due, days) => {
    expect(paymentTermsDays(invoiceDate, due)).toBe(days);
    if (days !== null) expect(dueDate(invoiceDate, days)).toBe(due);
  });

  it('suggests the default terms of 30 days', () => {
    expect(DEFAULT_PAYMENT_TERMS_DAYS).toBe(30);
  });
});

describe('isDueBeforeInvoiceDate: the rule validation.due_before_invoice_date', () => {
  it.each([
    ['2025-06-10', '2025-06-09', true],
    ['2025-01-01', '2024-12-31', true],
    ['2025-06-10', '2025-06-10', false],
    ['2025-06-10', '2025-07-10', false],
    ['2025-06-10', '2025-06-31', false],
    ['', '2025-06-09', false],
  ])('invoice %s, due %s → %s', (invoiceDate, due, before) => {
    expect(isDueBeforeInvoiceDate(invoiceDate, due)).toBe(before);
  });
});
