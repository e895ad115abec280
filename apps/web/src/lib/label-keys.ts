/**
 * The translation key of each value of a contract list, `<namespace>:<group>.<value>`: e.g.
 * `labelKeys('invoices', 'units', UNITS).h` is `invoices:units.h`. The keys are built, so the locale
 * test (lib/locales.test.ts, DYNAMIC_KEYS) lists the same families from the same contract lists: a new
 * value without a text fails there.
 */
export function labelKeys<V extends string | number>(
  namespace: string,
  group: string,
  values: readonly V[],
): Record<V, string> {
  return Object.fromEntries(values.map((value) => [value, `${namespace}:${group}.${value}`])) as Record<
    V,
    string
  >;
}
