import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { rows } from '../../src/db/migrate';

/**
 * Each table kept by a trigger on `invoices` (migrations 0010 and 0012), against the same figures added
 * up from the invoices themselves. Returns the keys where they differ, named by table; [] when every
 * kept figure is right. A kept row with zero count and zero sum equals a key with no invoices.
 */
const KEPT = [
  {
    table: 'invoice_state_totals',
    keys: 'issuer_id, recipient_id, state, rejected, currency',
    sums: 'invoice_count, gross_minor',
    fromInvoices: `select issuer_id, recipient_id, state, coalesce(decision = 'rejected', false) as rejected, currency,
                          count(*) as invoice_count, sum(gross_minor) as gross_minor
                   from invoices group by 1, 2, 3, 4, 5`,
  },
  {
    table: 'invoice_sales_days',
    keys: 'issuer_id, currency, invoice_date',
    sums: 'invoice_count, to_pay_minor',
    fromInvoices: `select issuer_id, currency, invoice_date, count(*) as invoice_count, sum(to_pay_minor) as to_pay_minor
                   from invoices where state not in (1, 7, 11) group by 1, 2, 3`,
  },
  {
    table: 'invoice_sales_months',
    keys: 'issuer_id, currency, month, recipient_id',
    sums: 'invoice_count, to_pay_minor',
    fromInvoices: `select issuer_id, currency, date_trunc('month', invoice_date)::date as month, recipient_id,
                          count(*) as invoice_count, sum(to_pay_minor) as to_pay_minor
                   from invoices where state not in (1, 7, 11) group by 1, 2, 3, 4`,
  },
  {
    table: 'invoice_unpaid_dues',
    keys: 'issuer_id, currency, due_date',
    sums: 'invoice_count, remaining_minor',
    fromInvoices: `select issuer_id, currency, due_date, count(*) as invoice_count, sum(remaining_minor) as remaining_minor
                   from invoices where state in (2, 3) group by 1, 2, 3`,
  },
] as const;

export async function keptTotalsDrift(db: Db): Promise<{ table: string; row: unknown }[]> {
  const drift: { table: string; row: unknown }[] = [];
  for (const k of KEPT) {
    const sums = k.sums.split(', ');
    const keyList = k.keys.split(', ');
    const differs = sums.map((s) => `coalesce(kept.${s}, 0) <> coalesce(actual.${s}, 0)`).join(' or ');
    const found = rows<Record<string, unknown>>(
      await db.execute(
        sql.raw(`
          select ${keyList.map((c) => `coalesce(kept.${c}, actual.${c}) as ${c}`).join(', ')},
                 ${sums.map((s) => `kept.${s}::text as kept_${s}, actual.${s}::text as actual_${s}`).join(', ')}
          from ${k.table} kept
          full join (${k.fromInvoices}) actual using (${k.keys})
          where ${differs}`),
      ),
    );
    for (const row of found) drift.push({ table: k.table, row });
  }
  return drift;
}
