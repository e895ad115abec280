import { z } from 'zod';

/** Every permission key of spec §6. A route or menu entry names one of these, or none. */
export const ABILITIES = [
  'limited_register_invoice',
  'limited_register_invoice_upload',
  'limited_register_invoice_file_upload',
  'limited_contract_financing',
  'limited_invoices',
  'limited_transfercosts',
  'limited_send_invoice',
  'limited_report_payments',
  'limited_report_ledger',
  'limited_verify_bank_account',
  'limited_fortnox_bookkeeping',
] as const;

export const abilitySchema = z.enum(ABILITIES);
export type Ability = z.infer<typeof abilitySchema>;

/**
 * The keys that open the reports (spec §6: "limited_report_payments or limited_report_ledger: reports"):
 * any one of them shows every report entry (payments, ledger, the active invoices and active regress
 * downloads), so the menu, the screen guards and every report call use this one list.
 */
export const REPORT_ABILITIES = [
  'limited_report_payments',
  'limited_report_ledger',
] as const satisfies readonly Ability[];

/**
 * The keys that open the history (spec §6: "limited_invoices or limited_transfercosts: history (all
 * invoices, transfer costs, articles)"): the menu entries, the screen guards and the API calls of those
 * three screens all read this one list, so a menu entry never leads to a refusal.
 */
export const HISTORY_ABILITIES = [
  'limited_invoices',
  'limited_transfercosts',
] as const satisfies readonly Ability[];

/**
 * The guard of spec §2: a route with a permission key is blocked when the loaded abilities list is
 * non-empty and lacks the key. An empty list (not loaded yet) blocks nothing; the server still
 * refuses the call with 403, so this only decides what the browser shows.
 */
export function isRouteAllowed(
  abilities: readonly string[],
  permission: Ability | null | undefined,
): boolean {
  if (!permission) return true;
  if (abilities.length === 0) return true;
  return abilities.includes(permission);
}

/** True when at least one of the keys is in the abilities list. */
export function hasAnyAbility(abilities: readonly string[], keys: readonly Ability[]): boolean {
  return keys.some((k) => abilities.includes(k));
}
