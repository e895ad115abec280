-- BGMAX TK21 deductions are no longer unmatched payments (docs/MONEY.md "Incoming payments"). Until now
-- the import kept each one as an unmatched payment of a negative amount (Dr unmatched_payments /
-- Cr bank), which no operator could ever assign. From now on the import records them with the status
-- `deduction` and books Dr payment_deductions / Cr bank. This moves the ones already imported the same
-- way: the status changes (so they leave the operator's unmatched queue) and one journal per deduction
-- moves its amount from unmatched_payments to payment_deductions; the bank postings stay as they were
-- (the deposit was that much smaller). A deduction is known by its dedupe key, which ends in the record
-- type. The files' unmatched counts leave them out, as the import now does.
WITH moved AS (
	UPDATE "payments" SET "status" = 'deduction'
	WHERE "status" = 'unmatched' AND "dedupe_key" LIKE '%|TK21'
	RETURNING "id", "file_id", "issuer_id", "currency", "amount_minor", gen_random_uuid() AS "journal_id"
), counted AS (
	UPDATE "payment_files" f SET "unmatched_count" = f."unmatched_count" - m."n"
	FROM (SELECT "file_id", count(*)::int AS "n" FROM moved GROUP BY "file_id") m
	WHERE f."id" = m."file_id"
)
INSERT INTO "postings" ("journal_id", "issuer_id", "account", "amount_minor", "currency", "kind", "payment_id", "at")
SELECT m."journal_id", m."issuer_id", l."account", l."sign" * -m."amount_minor", m."currency", 'deduction', m."id", now()
FROM moved m
CROSS JOIN (VALUES ('payment_deductions', 1), ('unmatched_payments', -1)) AS l("account", "sign")
WHERE m."amount_minor" <> 0;
