import { SESSION_ABSOLUTE_HOURS, SESSION_IDLE_MINUTES } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { renewedExpiry } from '../src/services/sessions';

const MINUTE = 60_000;
const created = new Date('2026-11-23T08:00:00Z');
const at = (minutes: number) => new Date(created.getTime() + minutes * MINUTE);

describe('renewedExpiry (customer and operator sessions)', () => {
  it('leaves the row alone while the last renewal is at most a minute old', () => {
    expect(renewedExpiry(at(10), created, at(9.5))).toBeNull();
    expect(renewedExpiry(at(10), created, at(9))).toBeNull();
  });

  it('moves the expiry to the idle limit from now', () => {
    expect(renewedExpiry(at(10), created, at(8))).toEqual(at(10 + SESSION_IDLE_MINUTES));
  });

  it('never moves it past the absolute limit from creation', () => {
    const absolute = at(SESSION_ABSOLUTE_HOURS * 60);
    const late = SESSION_ABSOLUTE_HOURS * 60 - 1;
    expect(renewedExpiry(at(late), created, at(late - 5))).toEqual(absolute);
  });
});
