-- Deductions (BGMAX TK21) get a process (issue #16, docs/MONEY.md "Deductions (TK21)"). An operator
-- resolves each one once: `chargeIssuer` (the payer used a credit of the issuer's: Dr issuer_payable /
-- Cr payment_deductions, a negative `deduction` row of the issuer's next settlement) or `settleInvoice`
-- (the payer took it off what it owed on a named invoice: Dr receivable / Cr payment_deductions, the
-- invoice's remaining amount goes up). The payment keeps its status `deduction`; the columns say how
-- and when it was resolved, and `invoice_id` names the invoice concerned (the settled invoice, or for a
-- charge the issuer's invoice whose OCR the deduction's reference is, if any).
ALTER TABLE "payments" ADD COLUMN "deduction_action" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_deduction_action_check"
  CHECK ("deduction_action" IS NULL OR ("status" = 'deduction' AND "deduction_action" IN ('chargeIssuer', 'settleInvoice') AND "resolved_at" IS NOT NULL));--> statement-breakpoint
-- The operator's queue: open deductions, oldest first.
CREATE INDEX "payments_open_deductions_idx" ON "payments" USING btree ("created_at", "id")
  WHERE "status" = 'deduction' AND "deduction_action" IS NULL;--> statement-breakpoint
-- A deduction charged to the issuer is a settlement row of its own kind; when its reference names no
-- invoice of the issuer's, the row names neither an invoice nor a plan, only the deduction (payment_id).
ALTER TABLE "settlement_rows" DROP CONSTRAINT "settlement_rows_subject_check";--> statement-breakpoint
ALTER TABLE "settlement_rows" ADD CONSTRAINT "settlement_rows_subject_check"
  CHECK (num_nonnulls("invoice_id", "plan_id") = 1 OR ("kind" = 'deduction' AND "plan_id" IS NULL AND "payment_id" IS NOT NULL));
