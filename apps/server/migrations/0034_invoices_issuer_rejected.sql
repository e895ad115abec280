-- The invoice list's filter `rejected` (decision = 'rejected', modules/invoices/invoice-list.repository.ts)
-- had no index of its own: the planner read the issuer's invoices and checked each one's decision. For
-- the bench's big issuer (100,000 invoices, none of them rejected) that was a parallel bitmap scan of
-- 107 ms to answer an empty page. Rejected invoices are few, so this index holds only them, in the
-- list's default order (invoice date, then id): the page is read from it at once, and any other sort
-- sorts those few.
CREATE INDEX "invoices_issuer_rejected_idx" ON "invoices" USING btree ("issuer_id","invoice_date","id") WHERE "invoices"."decision" = 'rejected';
