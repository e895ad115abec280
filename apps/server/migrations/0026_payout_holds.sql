-- Issue #13: payouts go to the verified account only (docs/MONEY.md "Payout holds"), and a new account
-- replaces a verified one only after its user confirms with two-factor (docs/INTEGRATIONS.md).
-- A verification whose account differs from the current one waits in 'confirming' until its user
-- confirms with a code; its account is stored unconfirmed (confirmed_at null) meanwhile.
ALTER TABLE "bank_verifications" DROP CONSTRAINT "bank_verifications_status_check";
--> statement-breakpoint
ALTER TABLE "bank_verifications" ADD CONSTRAINT "bank_verifications_status_check" CHECK ("status" IN ('started', 'confirming', 'verified', 'failed'));
--> statement-breakpoint
ALTER TABLE "verified_bank_accounts" ADD COLUMN "confirmed_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "verified_bank_accounts" SET "confirmed_at" = "verified_at";
--> statement-breakpoint
-- The current account: confirmed and not replaced, at most one per issuer. An unconfirmed one that is
-- given up (expired, or another attempt) gets replaced_at as well.
DROP INDEX "verified_bank_accounts_current_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "verified_bank_accounts_current_idx" ON "verified_bank_accounts" USING btree ("issuer_id") WHERE "replaced_at" IS NULL AND "confirmed_at" IS NOT NULL;
--> statement-breakpoint
-- The account a settlement paid to (null only for settlements made before this migration).
ALTER TABLE "settlements" ADD COLUMN "bank_account_id" uuid REFERENCES "verified_bank_accounts"("id");
