-- The issuer's open balance (the dashboard's balance card, issue #16: the payable postings no payout
-- run or debt claim has taken yet) is a sum over the rows of postings_unsettled_idx. Without their
-- amounts in the index that sum fetched every posting from the table: 10,000 open postings after the
-- bench's BGMAX import of 100,000 payments lay on 3,859 pages, and the dashboard's balance took
-- 105 ms. With the amount in the index (INCLUDE) the sum is an index-only scan of ~70 pages: 5.6 ms.
-- The key and the rows of the index are those of migration 0028: the payout run still walks it in
-- the order of id. drizzle's schema cannot say INCLUDE: src/db/schema.ts names this migration.
DROP INDEX "postings_unsettled_idx";
--> statement-breakpoint
CREATE INDEX "postings_unsettled_idx" ON "postings" USING btree ("issuer_id","currency","id") INCLUDE ("amount_minor") WHERE "account" = 'issuer_payable' AND "settlement_id" IS NULL AND "claim_id" IS NULL;
