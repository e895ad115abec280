-- Issue #16: an issuer's debt is collected (docs/MONEY.md "Debt claims"). A debt no payout covers
-- (open issuer_payable postings whose settlement total would be negative) becomes, after the issuer's
-- `debt_claim_days`, a claim on the issuer: a statement with an OCR reference, paid to our own bankgiro.
ALTER TABLE "issuers" ADD COLUMN "debt_claim_days" integer NOT NULL DEFAULT 30 CHECK ("debt_claim_days" BETWEEN 1 AND 365);
--> statement-breakpoint
CREATE TABLE "issuer_debt_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL UNIQUE,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"currency" char(3) NOT NULL CHECK ("currency" IN ('SEK', 'EUR')),
	-- What the issuer owes: the negative total of the taken postings (gross less fees), made positive.
	"amount_minor" bigint NOT NULL CHECK ("amount_minor" > 0),
	"paid_minor" bigint NOT NULL DEFAULT 0 CHECK ("paid_minor" >= 0 AND "paid_minor" <= "amount_minor"),
	"gross_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"row_count" integer NOT NULL CHECK ("row_count" > 0),
	"ocr" text NOT NULL UNIQUE,
	"claim_date" date NOT NULL,
	"due_date" date NOT NULL CHECK ("due_date" >= "claim_date"),
	"state" text NOT NULL DEFAULT 'open' CHECK ("state" IN ('open', 'paid')),
	"reminders_sent" integer NOT NULL DEFAULT 0 CHECK ("reminders_sent" >= 0),
	"last_reminder_date" date,
	"paid_at" timestamp with time zone,
	"operator_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CHECK (("state" = 'paid') = ("paid_minor" = "amount_minor"))
);
--> statement-breakpoint
CREATE INDEX "issuer_debt_claims_issuer_idx" ON "issuer_debt_claims" USING btree ("issuer_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "issuer_debt_claims_open_idx" ON "issuer_debt_claims" USING btree ("due_date") WHERE "state" = 'open';
--> statement-breakpoint
-- One row per posting the claim took: a charge back, or a payout, payment or plan payout set off.
CREATE TABLE "issuer_debt_claim_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL REFERENCES "issuer_debt_claims"("id"),
	"posting_id" bigint NOT NULL UNIQUE,
	"invoice_id" uuid REFERENCES "invoices"("id"),
	"plan_id" uuid REFERENCES "installment_plans"("id"),
	"kind" text NOT NULL CHECK ("kind" IN ('payout', 'payment', 'chargeBack', 'planPayout', 'deduction')),
	-- A `deduction` row's BGMAX deduction (migration 0029): the payer's reference is shown with it.
	"payment_id" uuid,
	"posted_at" timestamp with time zone NOT NULL,
	"position" integer NOT NULL,
	"gross_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"net_minor" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "issuer_debt_claim_rows_claim_idx" ON "issuer_debt_claim_rows" USING btree ("claim_id", "position");
--> statement-breakpoint
-- The claim a posting belongs to: the taken issuer_payable postings, the claim's journal and its
-- payments. Checked by check-books (rule `debt_claim`), not by a foreign key: postings are written in
-- bulk by the BGMAX import (migration 0015's reasoning).
ALTER TABLE "postings" ADD COLUMN "claim_id" uuid;
--> statement-breakpoint
CREATE INDEX "postings_claim_idx" ON "postings" USING btree ("claim_id", "account") WHERE "claim_id" IS NOT NULL;
--> statement-breakpoint
-- What the next payout run settles: neither settled nor taken by a claim.
DROP INDEX "postings_unsettled_idx";
--> statement-breakpoint
CREATE INDEX "postings_unsettled_idx" ON "postings" USING btree ("issuer_id","currency","id") WHERE "account" = 'issuer_payable' AND "settlement_id" IS NULL AND "claim_id" IS NULL;
--> statement-breakpoint
-- A payment of a claim (status 'claim'): no invoice, the claim it paid.
ALTER TABLE "payments" ADD COLUMN "claim_id" uuid;
--> statement-breakpoint
CREATE INDEX "payments_claim_idx" ON "payments" USING btree ("claim_id") WHERE "claim_id" IS NOT NULL;
