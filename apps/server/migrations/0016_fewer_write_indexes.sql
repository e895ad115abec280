-- Two indexes fewer to write on the money flow's hot paths (docs/BENCHMARKS.md):
--   * invoices: the unique (issuer, ocr) index and the (issuer, ocr text_pattern_ops) prefix index
--     become one unique index with text_pattern_ops. Its equality operator is the ordinary text `=`,
--     so it keeps OCR references unique per issuer and serves both the lookup by reference (payment
--     matching) and the prefix search of the invoice list. Every update that changes an invoice's
--     state writes each of its indexes; a BGMAX file paying 95,000 invoices wrote 11, now 10.
--   * postings: nothing reads postings by journal (the books check adds journals up with a hash), so
--     postings_journal_idx was written for every posting and never used.
DROP INDEX "invoices_issuer_ocr_prefix_idx";--> statement-breakpoint
DROP INDEX "invoices_issuer_ocr_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_issuer_ocr_idx" ON "invoices" USING btree ("issuer_id", "ocr" text_pattern_ops);--> statement-breakpoint
DROP INDEX "postings_journal_idx";
