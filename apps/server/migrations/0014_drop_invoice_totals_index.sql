-- Index-only totals per issuer, state and currency (migration 0004) were superseded by the totals kept
-- by triggers (0005-0007, 0010, 0012): no query reads the index any more (no scan of it in a whole
-- `npm run bench` run: lists, filters, buckets, dashboard, exports, import), but every invoice update
-- that changes a state still writes it. A BGMAX import updates 100,000 invoices in one go.
DROP INDEX IF EXISTS "invoices_issuer_totals_idx";
