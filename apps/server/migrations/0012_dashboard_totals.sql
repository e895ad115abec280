-- The dashboard's figures kept per day instead of added up per request (issue #4: p99 under 100 ms for
-- an issuer with 100,000 invoices). Adding up 12 months of invoices read ~70,000 rows per request.
-- Three small tables, kept by one statement trigger on `invoices` in the same transaction as every
-- change, the way `invoice_state_totals` is (migration 0010):
--   invoice_sales_days    sent invoices (every state but 1 draft, 7 temporary, 11 deleted) per issuer,
--                         currency and invoice date: count and amount to pay. ≤ 366 rows a year.
--   invoice_sales_months  the same per month and recipient: the top customers of 12 months read
--                         ≤ 12 × recipients rows.
--   invoice_unpaid_dues   unpaid invoices (2 not paid, 3 part paid) per issuer, currency and due date:
--                         count and remaining amount. The overdue buckets of any day read these rows.
-- A key whose count falls to zero keeps its row (zero figures add nothing); rows are bounded by days.
CREATE TABLE "invoice_sales_days" (
	"issuer_id" uuid NOT NULL,
	"currency" char(3) NOT NULL,
	"invoice_date" date NOT NULL,
	"invoice_count" bigint NOT NULL,
	"to_pay_minor" bigint NOT NULL,
	CONSTRAINT "invoice_sales_days_pk" PRIMARY KEY("issuer_id","currency","invoice_date")
);
--> statement-breakpoint
CREATE TABLE "invoice_sales_months" (
	"issuer_id" uuid NOT NULL,
	"currency" char(3) NOT NULL,
	"month" date NOT NULL,
	"recipient_id" uuid NOT NULL,
	"invoice_count" bigint NOT NULL,
	"to_pay_minor" bigint NOT NULL,
	CONSTRAINT "invoice_sales_months_pk" PRIMARY KEY("issuer_id","currency","month","recipient_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_unpaid_dues" (
	"issuer_id" uuid NOT NULL,
	"currency" char(3) NOT NULL,
	"due_date" date NOT NULL,
	"invoice_count" bigint NOT NULL,
	"remaining_minor" bigint NOT NULL,
	CONSTRAINT "invoice_unpaid_dues_pk" PRIMARY KEY("issuer_id","currency","due_date")
);
--> statement-breakpoint
-- The changed rows of a statement as signed rows (+1 new, -1 old), added up per key; keys whose sums
-- cancel out (a payment moving 2 to 3 leaves the sales untouched) write nothing. Keys are written in
-- order, so concurrent statements lock them in the same order. Transition tables differ by operation
-- (an INSERT has no old_rows), hence the one statement text built per operation.
CREATE FUNCTION invoice_dashboard_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols constant text := 'issuer_id, recipient_id, state, currency, invoice_date, due_date, to_pay_minor, remaining_minor';
  changed text;
BEGIN
  changed := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS n, %s FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT -1 AS n, %s FROM old_rows', cols)
    ELSE format('SELECT -1 AS n, %1$s FROM old_rows UNION ALL SELECT 1, %1$s FROM new_rows', cols)
  END;
  EXECUTE format($q$
    INSERT INTO invoice_sales_days AS t (issuer_id, currency, invoice_date, invoice_count, to_pay_minor)
    SELECT issuer_id, currency, invoice_date, sum(n), sum(n * to_pay_minor)
    FROM (%s) c WHERE state NOT IN (1, 7, 11)
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(n * to_pay_minor) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (issuer_id, currency, invoice_date) DO UPDATE
      SET invoice_count = t.invoice_count + EXCLUDED.invoice_count,
          to_pay_minor = t.to_pay_minor + EXCLUDED.to_pay_minor$q$, changed);
  EXECUTE format($q$
    INSERT INTO invoice_sales_months AS t (issuer_id, currency, month, recipient_id, invoice_count, to_pay_minor)
    SELECT issuer_id, currency, date_trunc('month', invoice_date)::date, recipient_id, sum(n), sum(n * to_pay_minor)
    FROM (%s) c WHERE state NOT IN (1, 7, 11)
    GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 OR sum(n * to_pay_minor) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (issuer_id, currency, month, recipient_id) DO UPDATE
      SET invoice_count = t.invoice_count + EXCLUDED.invoice_count,
          to_pay_minor = t.to_pay_minor + EXCLUDED.to_pay_minor$q$, changed);
  EXECUTE format($q$
    INSERT INTO invoice_unpaid_dues AS t (issuer_id, currency, due_date, invoice_count, remaining_minor)
    SELECT issuer_id, currency, due_date, sum(n), sum(n * remaining_minor)
    FROM (%s) c WHERE state IN (2, 3)
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(n * remaining_minor) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (issuer_id, currency, due_date) DO UPDATE
      SET invoice_count = t.invoice_count + EXCLUDED.invoice_count,
          remaining_minor = t.remaining_minor + EXCLUDED.remaining_minor$q$, changed);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_dashboard_totals_insert AFTER INSERT ON invoices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_dashboard_totals_apply();
--> statement-breakpoint
CREATE TRIGGER invoices_dashboard_totals_update AFTER UPDATE ON invoices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_dashboard_totals_apply();
--> statement-breakpoint
CREATE TRIGGER invoices_dashboard_totals_delete AFTER DELETE ON invoices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_dashboard_totals_apply();
--> statement-breakpoint
INSERT INTO invoice_sales_days (issuer_id, currency, invoice_date, invoice_count, to_pay_minor)
SELECT issuer_id, currency, invoice_date, count(*), sum(to_pay_minor)
FROM invoices WHERE state NOT IN (1, 7, 11) GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO invoice_sales_months (issuer_id, currency, month, recipient_id, invoice_count, to_pay_minor)
SELECT issuer_id, currency, date_trunc('month', invoice_date)::date, recipient_id, count(*), sum(to_pay_minor)
FROM invoices WHERE state NOT IN (1, 7, 11) GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO invoice_unpaid_dues (issuer_id, currency, due_date, invoice_count, remaining_minor)
SELECT issuer_id, currency, due_date, count(*), sum(remaining_minor)
FROM invoices WHERE state IN (2, 3) GROUP BY 1, 2, 3;
