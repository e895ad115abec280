import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  BANK_VERIFICATION_FAILURE_REASONS,
  ERROR_CODES,
  IMPORT_COLUMNS,
  IMPORT_ISSUE_CODES,
  INVOICE_EVENTS,
  INVOICE_FILTERS,
  INVOICE_STATE_NUMBERS,
  LANGUAGES,
  LEDGER_COLUMNS,
  LEDGER_PROCESSES,
  PLAN_EVENTS,
  PLAN_STATE_GROUPS,
  PLAN_STATE_NUMBERS,
  REPORT_FILE_TYPES,
  ROT_RUT_TYPES,
  SERVICE_TYPES,
  SETTLEMENT_ROW_KINDS,
  SIGNING_STATUSES,
  UNITS,
  VALIDATION_CODES,
} from '@portal/contracts';
import { LOCALES, type Messages, resources } from '@portal/i18n';
import { describe, expect, it } from 'vitest';
import { i18next, WEB_NAMESPACES } from './i18n';

function flatten(node: Messages, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') Object.assign(out, flatten(value as Messages, path));
    else out[path] = value;
  }
  return out;
}

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * The namespaces whose keys the web's source names: its own, and `reports`, which it shares with the
 * server (report screens here, report files there).
 */
const SCANNED_NAMESPACES = [...WEB_NAMESPACES, 'reports'] as const;

/** Every `ns:key` literal in the web's source (t() calls and label keys held in data). */
function usedKeys(): Set<string> {
  const pattern = new RegExp(`['"\`]((?:${SCANNED_NAMESPACES.join('|')}):[A-Za-z0-9_.-]+)['"\`]`, 'g');
  const keys = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) if (match[1]) keys.add(match[1]);
  }
  return keys;
}

/**
 * Keys built at run time, so the static scan cannot see them. Each family is listed with the values
 * it can take: error codes (lib/messages.ts), rule codes (contracts/rules.ts), language names
 * (language-flags.tsx), report file types, issuer field labels (account details form), the ledger's
 * columns and processes and the settlement row kinds (report screens), the labels of the contract's
 * lists (lib/label-keys.ts) and the texts of the registers' pages (RegisterList in
 * components/ui/list-results.tsx).
 */
const DYNAMIC_KEYS = [
  ...ERROR_CODES.map((code) => `errors:${code}`),
  ...IMPORT_ISSUE_CODES.map((code) => `errors:import.${code}`),
  ...VALIDATION_CODES.map((code) => `validation:${code}`),
  ...LANGUAGES.map((language) => `common:language.names.${language}`),
  ...REPORT_FILE_TYPES.map((type) => `layout:regress.file_types.${type}`),
  ...['organizationNo', 'name', 'email', 'VAT', 'telephone', 'address', 'zipcode', 'city'].map(
    (field) => `account:details.fields.${field}`,
  ),
  ...LEDGER_COLUMNS.map((column) => `reports:ledger.columns.${column}`),
  ...LEDGER_PROCESSES.map((process) => `reports:ledger.process.${process}`),
  ...SETTLEMENT_ROW_KINDS.map((kind) => `reports:transferCosts.kinds.${kind}`),
  ...BANK_VERIFICATION_FAILURE_REASONS.map((reason) => `bank-verification:failure.${reason}`),
  ...['se-bban', 'bankgiro', 'iban'].map((kind) => `bank-verification:account.kinds.${kind}`),
  ...['SE', 'FI'].map((country) => `bank-verification:countries.${country}`),
  ...INVOICE_STATE_NUMBERS.map((state) => `invoices:states.${state}`),
  ...Object.keys(PLAN_STATE_GROUPS).map((group) => `dashboard:plans.${group}`),
  ...PLAN_STATE_NUMBERS.map((state) => `installments:states.${state}`),
  ...Object.keys(PLAN_EVENTS).map((event) => `installments:events.${event}`),
  ...SIGNING_STATUSES.map((status) => `installments:signing.${status}`),
  ...Object.keys(INVOICE_EVENTS).map((event) => `invoices:events.${event}`),
  ...INVOICE_FILTERS.map((filter) => `invoices:filters.${filter}`),
  ...SERVICE_TYPES.map((service) => `invoices:services.${service}`),
  ...ROT_RUT_TYPES.map((type) => `invoices:rot_rut.types.${type}`),
  ...IMPORT_COLUMNS.map((column) => `invoices:import.columns.${column}`),
  ...UNITS.flatMap((unit) => [
    `invoices:units.${unit}`,
    `articles:units.short.${unit}`,
    `articles:units.long.${unit}`,
  ]),
  ...['articles', 'recipients'].flatMap((ns) =>
    [
      'page.title',
      'page.lead',
      'page.search',
      'page.search_hint',
      'page.new',
      'page.pages',
      'page.empty',
      'page.no_matches',
      'page.created',
      'page.saved',
      'page.deleted',
      'delete.title',
      'actions.edit_row',
      'actions.delete_row',
      'columns.actions',
    ].map((key) => `${ns}:${key}`),
  ),
];

function allKeys(
  locale: (typeof LOCALES)[number],
  namespaces: readonly (typeof SCANNED_NAMESPACES)[number][] = WEB_NAMESPACES,
): string[] {
  // The code names a key of `sign-in-errors` as `errors:<code>` too (i18next's fallbackNS, lib/i18n.ts).
  const named = (ns: string) => (ns === 'sign-in-errors' ? 'errors' : ns);
  return namespaces.flatMap((ns) =>
    Object.keys(flatten(resources[locale][ns])).map((key) => `${named(ns)}:${key}`),
  );
}

/**
 * The key `t()` is called with: i18next picks `x_one`, `x_other`, ... by the `count` it is given, and
 * every plural family has an `_other` form (a key such as `select_at_least_one` is not a plural).
 */
const PLURAL_BASES = new Set(
  LOCALES.flatMap((locale) => allKeys(locale, SCANNED_NAMESPACES))
    .filter((key) => key.endsWith('_other'))
    .map((key) => key.slice(0, -'_other'.length)),
);
function baseKey(key: string): string {
  const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
  return base !== key && PLURAL_BASES.has(base) ? base : key;
}

/**
 * What the web's source asks of the texts. That every namespace file has the same keys, non-empty
 * strings and the same placeholders in the three locales is packages/i18n/src/locales.test.ts.
 */
describe('locales', () => {
  it('every key the source uses exists', () => {
    const known = new Set(allKeys('sv-SE', SCANNED_NAMESPACES).map(baseKey));
    const missing = [...usedKeys(), ...DYNAMIC_KEYS].filter((key) => !known.has(key));
    expect(missing).toEqual([]);
  });

  it('every error code of the contract has a translation', () => {
    for (const code of ERROR_CODES) expect(i18next.exists(`errors:${code}`), code).toBe(true);
  });

  // Of the web's own namespaces only: the server writes most of `reports` (the files' columns and titles).
  it('no key is unused', () => {
    const used = new Set([...usedKeys(), ...DYNAMIC_KEYS]);
    expect(allKeys('sv-SE').filter((key) => !used.has(baseKey(key)))).toEqual([]);
  });
});
