-- The kept totals get the recipient in their key, so that a recipient filter or a search by recipient
-- name reads its totals from here too. The rows are added up again from the invoices.
DELETE FROM "invoice_state_totals";--> statement-breakpoint
ALTER TABLE "invoice_state_totals" DROP CONSTRAINT "invoice_state_totals_issuer_id_state_rejected_currency_pk";--> statement-breakpoint
ALTER TABLE "invoice_state_totals" ADD COLUMN "recipient_id" uuid NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_state_totals" ADD CONSTRAINT "invoice_state_totals_issuer_id_recipient_id_state_rejected_currency_pk" PRIMARY KEY("issuer_id","recipient_id","state","rejected","currency");--> statement-breakpoint
CREATE OR REPLACE FUNCTION invoice_state_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO invoice_state_totals AS t (issuer_id, recipient_id, state, rejected, currency, invoice_count, gross_minor)
    VALUES (OLD.issuer_id, OLD.recipient_id, OLD.state, coalesce(OLD.decision = 'rejected', false), OLD.currency, -1, -OLD.gross_minor)
    ON CONFLICT (issuer_id, recipient_id, state, rejected, currency) DO UPDATE
      SET invoice_count = t.invoice_count + EXCLUDED.invoice_count, gross_minor = t.gross_minor + EXCLUDED.gross_minor;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO invoice_state_totals AS t (issuer_id, recipient_id, state, rejected, currency, invoice_count, gross_minor)
    VALUES (NEW.issuer_id, NEW.recipient_id, NEW.state, coalesce(NEW.decision = 'rejected', false), NEW.currency, 1, NEW.gross_minor)
    ON CONFLICT (issuer_id, recipient_id, state, rejected, currency) DO UPDATE
      SET invoice_count = t.invoice_count + EXCLUDED.invoice_count, gross_minor = t.gross_minor + EXCLUDED.gross_minor;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER invoices_state_totals ON invoices;--> statement-breakpoint
CREATE TRIGGER invoices_state_totals
  AFTER INSERT OR DELETE OR UPDATE OF issuer_id, recipient_id, state, decision, currency, gross_minor ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoice_state_totals_apply();
--> statement-breakpoint
INSERT INTO invoice_state_totals (issuer_id, recipient_id, state, rejected, currency, invoice_count, gross_minor)
SELECT issuer_id, recipient_id, state, coalesce(decision = 'rejected', false), currency, count(*), sum(gross_minor)
FROM invoices GROUP BY 1, 2, 3, 4, 5;
