-- Issue #14: installment plans (contract financing), docs/INSTALLMENTS.md. A plan of an issuer to one
-- of its recipients (the buyer), its schedule (one row per installment, linked to the installment's
-- invoice once the daily job has issued it), its parties (signees and securities) and its timeline.
CREATE TABLE "installment_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"recipient_id" uuid NOT NULL REFERENCES "recipients"("id"),
	"loan_number" text NOT NULL,
	"state" integer NOT NULL CHECK ("state" BETWEEN 1 AND 10),
	"description" text NOT NULL,
	"currency" char(3) NOT NULL,
	"financed_minor" bigint NOT NULL CHECK ("financed_minor" > 0),
	"initial_fee_minor" bigint NOT NULL DEFAULT 0 CHECK ("initial_fee_minor" >= 0),
	"monthly_fee_minor" bigint NOT NULL DEFAULT 0 CHECK ("monthly_fee_minor" >= 0),
	"administration_fee_minor" bigint NOT NULL DEFAULT 0 CHECK ("administration_fee_minor" >= 0),
	"total_minor" bigint NOT NULL,
	"no_of_installments" integer NOT NULL CHECK ("no_of_installments" > 0),
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"replaces_plan_id" uuid REFERENCES "installment_plans"("id"),
	-- The signing order at the e-signing provider (docs/INTEGRATIONS.md), while and after it runs.
	"signing_document_id" text,
	-- The sealed agreement, stored unchanged in the file store once every signee has signed.
	"signed_file_key" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CHECK ("start_date" < "end_date" OR "no_of_installments" = 1),
	CHECK ("currency" IN ('SEK', 'EUR'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "installment_plans_issuer_loan_idx" ON "installment_plans" USING btree ("issuer_id", "loan_number");
--> statement-breakpoint
CREATE INDEX "installment_plans_issuer_created_idx" ON "installment_plans" USING btree ("issuer_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "installment_plans_issuer_state_idx" ON "installment_plans" USING btree ("issuer_id", "state");
--> statement-breakpoint
CREATE UNIQUE INDEX "installment_plans_signing_idx" ON "installment_plans" USING btree ("signing_document_id") WHERE "signing_document_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "installment_plan_rows" (
	"plan_id" uuid NOT NULL REFERENCES "installment_plans"("id") ON DELETE CASCADE,
	"number" integer NOT NULL CHECK ("number" > 0),
	"due_date" date NOT NULL,
	"principal_minor" bigint NOT NULL CHECK ("principal_minor" >= 0),
	"initial_fee_minor" bigint NOT NULL DEFAULT 0 CHECK ("initial_fee_minor" >= 0),
	"monthly_fee_minor" bigint NOT NULL DEFAULT 0 CHECK ("monthly_fee_minor" >= 0),
	"administration_fee_minor" bigint NOT NULL DEFAULT 0 CHECK ("administration_fee_minor" >= 0),
	"fee_minor" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	-- The installment's invoice, once issued (once: unique).
	"invoice_id" uuid UNIQUE REFERENCES "invoices"("id"),
	PRIMARY KEY ("plan_id", "number"),
	CHECK ("fee_minor" = "initial_fee_minor" + "monthly_fee_minor" + "administration_fee_minor"),
	CHECK ("amount_minor" = "principal_minor" + "fee_minor")
);
--> statement-breakpoint
CREATE TABLE "installment_plan_parties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL REFERENCES "installment_plans"("id") ON DELETE CASCADE,
	"role" text NOT NULL CHECK ("role" IN ('signee', 'security')),
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"identity_number" text NOT NULL,
	"email" text NOT NULL DEFAULT '',
	"phone" text NOT NULL DEFAULT '',
	-- For signees: the provider's party id and signing link, and when the party signed or refused.
	"signing_party_id" text,
	"signing_link" text,
	"signed_at" timestamp with time zone,
	"rejected_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "installment_plan_parties_position_idx" ON "installment_plan_parties" USING btree ("plan_id", "role", "position");
--> statement-breakpoint
CREATE TABLE "installment_plan_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL REFERENCES "installment_plans"("id") ON DELETE CASCADE,
	"issuer_id" uuid NOT NULL,
	"event" integer NOT NULL,
	"state" integer NOT NULL,
	"seq" bigserial NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"details" jsonb
);
--> statement-breakpoint
CREATE INDEX "installment_plan_events_plan_idx" ON "installment_plan_events" USING btree ("plan_id", "seq");
--> statement-breakpoint
-- A plan's installment invoices and its recall invoice (the whole remaining principal, state 5).
ALTER TABLE "installment_plans" ADD COLUMN "recall_invoice_id" uuid UNIQUE REFERENCES "invoices"("id");
--> statement-breakpoint
-- The money of a plan (docs/INSTALLMENTS.md "Money"): its payout is a settlement row of the plan, not
-- of an invoice, so a row names exactly one of the two; a plan is paid out once.
ALTER TABLE "settlement_rows" ALTER COLUMN "invoice_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "settlement_rows" ADD COLUMN "plan_id" uuid REFERENCES "installment_plans"("id");
--> statement-breakpoint
ALTER TABLE "settlement_rows" ADD CONSTRAINT "settlement_rows_subject_check" CHECK (num_nonnulls("invoice_id", "plan_id") = 1);
--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_rows_plan_payout_once_idx" ON "settlement_rows" USING btree ("plan_id") WHERE "kind" = 'planPayout';
--> statement-breakpoint
-- The plan a posting belongs to (plan_receivable, the plan's payout). Checked per statement like the
-- posting's other references (migration 0015), with the plan as a parent that cannot be deleted,
-- renumbered or truncated alone while postings name it.
ALTER TABLE "postings" ADD COLUMN "plan_id" uuid;
--> statement-breakpoint
DROP TRIGGER postings_references_insert ON "postings";
--> statement-breakpoint
DROP TRIGGER postings_references_update ON "postings";
--> statement-breakpoint
CREATE TRIGGER postings_references_insert AFTER INSERT ON "postings"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION reference_check_rows('issuer_id', 'issuers', 'invoice_id', 'invoices', 'plan_id', 'installment_plans');
--> statement-breakpoint
CREATE TRIGGER postings_references_update AFTER UPDATE OF issuer_id, invoice_id, plan_id ON "postings"
  FOR EACH ROW WHEN (OLD.issuer_id IS DISTINCT FROM NEW.issuer_id OR OLD.invoice_id IS DISTINCT FROM NEW.invoice_id
                     OR OLD.plan_id IS DISTINCT FROM NEW.plan_id)
  EXECUTE FUNCTION reference_check_row('issuer_id', 'issuers', 'invoice_id', 'invoices', 'plan_id', 'installment_plans');
--> statement-breakpoint
CREATE TRIGGER installment_plans_references_delete AFTER DELETE ON "installment_plans"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION reference_parent_deleted('postings', 'plan_id', 'restrict');
--> statement-breakpoint
CREATE TRIGGER installment_plans_references_key BEFORE UPDATE OF id ON "installment_plans"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION reference_parent_key_fixed();
--> statement-breakpoint
CREATE TRIGGER installment_plans_references_truncate AFTER TRUNCATE ON "installment_plans"
  FOR EACH STATEMENT EXECUTE FUNCTION reference_parent_truncated('postings');
--> statement-breakpoint
CREATE INDEX "postings_plan_idx" ON "postings" USING btree ("plan_id", "account") WHERE "plan_id" IS NOT NULL;
