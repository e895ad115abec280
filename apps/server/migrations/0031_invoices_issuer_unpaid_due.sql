-- The invoice list of unpaid invoices by due date (issue #15, docs/INVOICES.md "The list at scale"):
-- the filters `active` and `overdue` and the dashboard's overdue buckets (states 2 and 3) sorted by
-- due date, and their keyset condition `(due_date, id) < (…, …)`, are read from this index in order.
-- invoices_issuer_due_idx holds every state, so a page of unpaid invoices stepped over the paid,
-- pending and sent ones between them (the searched list of the bench: ~1,000 rows read for 150,
-- ~300 with this index). Partial: only an invoice in state 2 or 3 has an entry, so an invoice that
-- is paid (the BGMAX import's update to state 4) writes none. invoices_unpaid_due_idx stays for the
-- daily job's walk over every issuer's unpaid invoices by due date.
CREATE INDEX "invoices_issuer_unpaid_due_idx" ON "invoices" USING btree ("issuer_id","due_date","id") WHERE "invoices"."state" in (2, 3);
