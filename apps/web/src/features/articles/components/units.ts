import { UNITS } from '@portal/contracts';
import { labelKeys } from '../../../lib/label-keys';

/** The abbreviation of each unit of spec §3, as the list and invoices show it. */
export const UNIT_SHORT_KEYS = labelKeys('articles', 'units.short', UNITS);

/** The full name of each unit, for the unit select. */
export const UNIT_LONG_KEYS = labelKeys('articles', 'units.long', UNITS);
