import {
  type CreditDecisionValue,
  type ImportColumn,
  type InvoiceEvent,
  type InvoiceFilter,
  type InvoiceState,
  type InvoiceStatus,
  invoiceStatus,
  type ROT_RUT_TYPES,
  type ServiceType,
  type Unit,
} from '@portal/contracts';

// The translation key of each contract constant, written out so that the locale test sees every key
// in use and a new constant does not compile until it has a label (docs/INVOICES.md).

export const STATE_KEYS = {
  1: 'invoices:states.1',
  2: 'invoices:states.2',
  3: 'invoices:states.3',
  4: 'invoices:states.4',
  5: 'invoices:states.5',
  6: 'invoices:states.6',
  7: 'invoices:states.7',
  8: 'invoices:states.8',
  9: 'invoices:states.9',
  11: 'invoices:states.11',
} as const satisfies Record<InvoiceState, string>;

/** What lists, badges and details show (contracts `invoiceStatus`): the state, or rejected. */
export const STATUS_KEYS = {
  ...STATE_KEYS,
  rejected: 'invoices:states.rejected',
} as const satisfies Record<InvoiceStatus, string>;

export const EVENT_KEYS = {
  1: 'invoices:events.1',
  2: 'invoices:events.2',
  3: 'invoices:events.3',
  4: 'invoices:events.4',
  5: 'invoices:events.5',
  6: 'invoices:events.6',
  7: 'invoices:events.7',
  8: 'invoices:events.8',
  9: 'invoices:events.9',
  10: 'invoices:events.10',
  11: 'invoices:events.11',
  12: 'invoices:events.12',
  13: 'invoices:events.13',
  14: 'invoices:events.14',
  15: 'invoices:events.15',
  16: 'invoices:events.16',
  17: 'invoices:events.17',
  18: 'invoices:events.18',
  19: 'invoices:events.19',
  20: 'invoices:events.20',
  21: 'invoices:events.21',
  22: 'invoices:events.22',
  23: 'invoices:events.23',
  24: 'invoices:events.24',
  25: 'invoices:events.25',
  26: 'invoices:events.26',
  27: 'invoices:events.27',
  28: 'invoices:events.28',
  29: 'invoices:events.29',
} as const satisfies Record<InvoiceEvent, string>;

export const FILTER_KEYS = {
  all: 'invoices:filters.all',
  active: 'invoices:filters.active',
  overdue: 'invoices:filters.overdue',
  paid: 'invoices:filters.paid',
  partPaid: 'invoices:filters.partPaid',
  recharged: 'invoices:filters.recharged',
  pendingApproval: 'invoices:filters.pendingApproval',
  queued: 'invoices:filters.queued',
  rejected: 'invoices:filters.rejected',
} as const satisfies Record<InvoiceFilter, string>;

export const SERVICE_KEYS = {
  internalService: 'invoices:services.internalService',
  factoring: 'invoices:services.factoring',
  invoicingService: 'invoices:services.invoicingService',
  debtCollectionService: 'invoices:services.debtCollectionService',
  loans: 'invoices:services.loans',
  invoiceLoans: 'invoices:services.invoiceLoans',
  nonRecourseFactoring: 'invoices:services.nonRecourseFactoring',
  nonRecourceService: 'invoices:services.nonRecourceService',
  chargeBack: 'invoices:services.chargeBack',
  restClaims: 'invoices:services.restClaims',
  revolvingCredit: 'invoices:services.revolvingCredit',
} as const satisfies Record<ServiceType, string>;

/** Unit abbreviations, as rows show them. */
export const UNIT_KEYS = {
  st: 'invoices:units.st',
  h: 'invoices:units.h',
  km: 'invoices:units.km',
  pack: 'invoices:units.pack',
  utl: 'invoices:units.utl',
} as const satisfies Record<Unit, string>;

export const ROT_RUT_KEYS = {
  none: 'invoices:rot_rut.types.none',
  rot: 'invoices:rot_rut.types.rot',
  rut: 'invoices:rot_rut.types.rut',
} as const satisfies Record<(typeof ROT_RUT_TYPES)[number], string>;

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

export const IMPORT_COLUMN_KEYS = {
  invoiceNumber: 'invoices:import.columns.invoiceNumber',
  recipientOrganizationNumber: 'invoices:import.columns.recipientOrganizationNumber',
  recipientName: 'invoices:import.columns.recipientName',
  invoiceDate: 'invoices:import.columns.invoiceDate',
  dueDate: 'invoices:import.columns.dueDate',
  service: 'invoices:import.columns.service',
  currency: 'invoices:import.columns.currency',
  orderReference: 'invoices:import.columns.orderReference',
  articleNumber: 'invoices:import.columns.articleNumber',
  description: 'invoices:import.columns.description',
  quantity: 'invoices:import.columns.quantity',
  unit: 'invoices:import.columns.unit',
  unitPrice: 'invoices:import.columns.unitPrice',
  vatPercent: 'invoices:import.columns.vatPercent',
} as const satisfies Record<ImportColumn, string>;
