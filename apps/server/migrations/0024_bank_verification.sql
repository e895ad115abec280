-- Issue #13: bank-account verification through an open-banking provider (docs/INTEGRATIONS.md).
-- One row per attempt: the state we gave the provider is kept as its SHA-256 only, bound to the user
-- and issuer that started it, and expires; the callback and the webhook each move a row out of
-- 'started' once (the conditional update in the repository), so a replay changes nothing.
CREATE TABLE "bank_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"state_hash" text NOT NULL,
	"provider" text NOT NULL,
	"provider_session_id" text NOT NULL,
	"bank_id" text NOT NULL,
	"bank_name" text NOT NULL,
	"status" text DEFAULT 'started' NOT NULL,
	"reason" text,
	"completed_by" text,
	"report_id" text,
	"report" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "bank_verifications_status_check" CHECK ("status" IN ('started', 'verified', 'failed')),
	CONSTRAINT "bank_verifications_completed_by_check" CHECK ("completed_by" IN ('callback', 'webhook'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "bank_verifications_state_idx" ON "bank_verifications" USING btree ("state_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "bank_verifications_session_idx" ON "bank_verifications" USING btree ("provider", "provider_session_id");
--> statement-breakpoint
CREATE INDEX "bank_verifications_issuer_idx" ON "bank_verifications" USING btree ("issuer_id", "created_at");
--> statement-breakpoint
-- The accounts a verification proved to be the issuer's. The current one (replaced_at null, at most
-- one per issuer) is what payouts and settlements pay to; a new verification replaces it.
CREATE TABLE "verified_bank_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"verification_id" uuid NOT NULL REFERENCES "bank_verifications"("id"),
	"kind" text NOT NULL,
	"clearing_number" text,
	"account_number" text,
	"bankgiro" text,
	"iban" text,
	"bic" text,
	"currency" text,
	"holder_name" text NOT NULL,
	"bank_name" text NOT NULL,
	"masked" text NOT NULL,
	"provider" text NOT NULL,
	"report_id" text NOT NULL,
	"verified_by_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"verified_at" timestamp with time zone NOT NULL,
	"replaced_at" timestamp with time zone,
	CONSTRAINT "verified_bank_accounts_kind_check" CHECK ("kind" IN ('se-bban', 'bankgiro', 'iban'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "verified_bank_accounts_current_idx" ON "verified_bank_accounts" USING btree ("issuer_id") WHERE "replaced_at" IS NULL;
