import { type SQL, sql } from 'drizzle-orm';

/**
 * `(…)` for `column in (…)` over many values sent as one text parameter: no limit on the number of
 * parameters, and one statement text whatever the count. Each value is read back as `type`; the
 * values must not contain a comma (ids, OCR references, dedupe keys, bankgiro numbers).
 */
export function inList(values: readonly (string | number)[], type: 'text' | 'uuid' | 'bigint' = 'text'): SQL {
  return sql`(select unnest(string_to_array(${values.join(',')}, ','))::${sql.raw(type)})`;
}
