import { describe, expect, it } from 'vitest';
import { uuidv7 } from './uuid7';

const FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const msOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('uuidv7', () => {
  it('has the form of RFC 9562: version 7, variant 10, the time in its first 48 bits', () => {
    const at = Date.UTC(2026, 10, 25, 12, 0, 0, 123);
    const id = uuidv7(at + 10_000_000);
    expect(id).toMatch(FORM);
    expect(msOf(id)).toBe(at + 10_000_000);
  });

  it('sorts in the order made, within one millisecond, across the counter running out, and when the clock goes back', () => {
    const start = Date.UTC(2027, 0, 1);
    const made = [
      // 5,000 in one millisecond: more than the 4,096 values of the counter.
      ...Array.from({ length: 5_000 }, () => uuidv7(start)),
      uuidv7(start + 1),
      // The clock goes back a second: the ids still come after the ones before.
      uuidv7(start - 1_000),
      uuidv7(start + 5),
    ];
    for (const id of made) expect(id).toMatch(FORM);
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    expect(msOf(made[0] as string)).toBe(start);
    expect(msOf(made[4_096] as string)).toBe(start + 1);
    expect(msOf(made.at(-1) as string)).toBe(start + 5);
  });

  it('differs in its random bits between ids', () => {
    const ids = Array.from({ length: 1_000 }, () => uuidv7());
    const tails = new Set(ids.map((id) => id.slice(19)));
    expect(tails.size).toBe(ids.length);
  });
});
