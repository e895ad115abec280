import type { Unit } from '@portal/contracts';

/** The abbreviation of each unit of spec §3, as the list and invoices show it. */
export const UNIT_SHORT_KEYS = {
  st: 'articles:units.short.st',
  h: 'articles:units.short.h',
  km: 'articles:units.short.km',
  pack: 'articles:units.short.pack',
  utl: 'articles:units.short.utl',
} as const satisfies Record<Unit, string>;

/** The full name of each unit, for the unit select. */
export const UNIT_LONG_KEYS = {
  st: 'articles:units.long.st',
  h: 'articles:units.long.h',
  km: 'articles:units.long.km',
  pack: 'articles:units.long.pack',
  utl: 'articles:units.long.utl',
} as const satisfies Record<Unit, string>;
