import {
  type CreditDecisionValue,
  IMPORT_COLUMNS,
  INVOICE_EVENTS,
  INVOICE_FILTERS,
  INVOICE_STATE_NUMBERS,
  type InvoiceEvent,
  type InvoiceStatus,
  invoiceStatus,
  ROT_RUT_TYPES,
  SERVICE_TYPES,
  UNITS,
} from '@portal/contracts';
import { labelKeys } from '../../../lib/label-keys';

// The translation key of each contract constant (lib/label-keys.ts); the locale test checks that every
// one has a text (docs/INVOICES.md).

const INVOICE_EVENT_NUMBERS = Object.keys(INVOICE_EVENTS).map(Number) as InvoiceEvent[];

export const STATE_KEYS = labelKeys('invoices', 'states', INVOICE_STATE_NUMBERS);

/** What lists, badges and details show (contracts `invoiceStatus`): the state, or rejected. */
export const STATUS_KEYS = {
  ...STATE_KEYS,
  rejected: 'invoices:states.rejected',
} satisfies Record<InvoiceStatus, string>;

export const EVENT_KEYS = labelKeys('invoices', 'events', INVOICE_EVENT_NUMBERS);

export const FILTER_KEYS = labelKeys('invoices', 'filters', INVOICE_FILTERS);

export const SERVICE_KEYS = labelKeys('invoices', 'services', SERVICE_TYPES);

/** Unit abbreviations, as rows show them. */
export const UNIT_KEYS = labelKeys('invoices', 'units', UNITS);

export const ROT_RUT_KEYS = labelKeys('invoices', 'rot_rut.types', ROT_RUT_TYPES);

/** The label key of a state number from the API; unknown numbers get a neutral label. */
export function stateKey(state: number): string {
  return (STATE_KEYS as Record<number, string>)[state] ?? 'invoices:states.unknown';
}

/** The label key of what an invoice from the API shows: a rejected invoice is "Rejected", not "Not sent". */
export function statusKey(invoice: { state: number; decision: CreditDecisionValue | null }): string {
  const status = invoiceStatus(invoice);
  return status === null ? 'invoices:states.unknown' : STATUS_KEYS[status];
}

/** The label key of a timeline event number from the API. */
export function eventKey(event: number): string {
  return (EVENT_KEYS as Record<number, string>)[event] ?? 'invoices:events.unknown';
}

export const IMPORT_COLUMN_KEYS = labelKeys('invoices', 'import.columns', IMPORT_COLUMNS);
