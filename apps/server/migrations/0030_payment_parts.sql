-- Issue #16 (docs/MONEY.md "Incoming payments"): a payment the payer split over its extra references
-- (BGMAX TK22/TK23 whose amounts add up to the TK20's) is registered as one row per part; `part` is the
-- extra reference's place among them (1-based, file order), null for a whole payment. A zero amount is
-- kept with the status 'information'; the back office lists those oldest first, as it does the
-- unmatched payments, on a partial index of their own (rare rows: nothing for the others to carry).
ALTER TABLE "payments" ADD COLUMN "part" integer;
--> statement-breakpoint
CREATE INDEX "payments_information_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'information';
