-- The kept totals are updated once per statement instead of once per invoice row. A row trigger made
-- a bulk change (a BGMAX file paying 100,000 invoices of one recipient, a payout run) update the same
-- totals row 100,000 times in one transaction, each update leaving a dead version the next one had to
-- step over: quadratic. Now each statement adds up its changed rows per key (transition tables) and
-- writes each totals row once, in key order so that concurrent statements lock in the same order.
DROP TRIGGER invoices_state_totals ON invoices;--> statement-breakpoint
DROP FUNCTION invoice_state_totals_apply();--> statement-breakpoint
CREATE FUNCTION invoice_state_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO invoice_state_totals AS t (issuer_id, recipient_id, state, rejected, currency, invoice_count, gross_minor)
    SELECT issuer_id, recipient_id, state, coalesce(decision = 'rejected', false), currency, count(*), sum(gross_minor)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (issuer_id, recipient_id, state, rejected, currency) DO UPDATE
      SET invoice_count = t.invoice_count + EXCLUDED.invoice_count, gross_minor = t.gross_minor + EXCLUDED.gross_minor;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO invoice_state_totals AS t (issuer_id, recipient_id, state, rejected, currency, invoice_count, gross_minor)
    SELECT issuer_id, recipient_id, state, coalesce(decision = 'rejected', false), currency, -count(*), -sum(gross_minor)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (issuer_id, recipient_id, state, rejected, currency) DO UPDATE
      SET invoice_count = t.invoice_count + EXCLUDED.invoice_count, gross_minor = t.gross_minor + EXCLUDED.gross_minor;
  ELSE
    INSERT INTO invoice_state_totals AS t (issuer_id, recipient_id, state, rejected, currency, invoice_count, gross_minor)
    SELECT issuer_id, recipient_id, state, rejected, currency, sum(n), sum(g)
    FROM (
      SELECT issuer_id, recipient_id, state, coalesce(decision = 'rejected', false) AS rejected, currency,
             -1 AS n, -gross_minor AS g
      FROM old_rows
      UNION ALL
      SELECT issuer_id, recipient_id, state, coalesce(decision = 'rejected', false), currency, 1, gross_minor
      FROM new_rows
    ) d
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(n) <> 0 OR sum(g) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (issuer_id, recipient_id, state, rejected, currency) DO UPDATE
      SET invoice_count = t.invoice_count + EXCLUDED.invoice_count, gross_minor = t.gross_minor + EXCLUDED.gross_minor;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_state_totals_insert AFTER INSERT ON invoices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_state_totals_apply();
--> statement-breakpoint
CREATE TRIGGER invoices_state_totals_update AFTER UPDATE ON invoices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_state_totals_apply();
--> statement-breakpoint
CREATE TRIGGER invoices_state_totals_delete AFTER DELETE ON invoices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION invoice_state_totals_apply();
