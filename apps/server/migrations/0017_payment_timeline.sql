-- The timeline's payment events (6 paid, 7 part paid, 21 overpayment) are read from the payments
-- instead of being written a second time as invoice_events rows. A payment applied to an invoice
-- already holds every figure of its events (the amount applied, the overpayment, the payment date);
-- it now also keeps the invoice's remaining amount after it and whether it was passed on to the
-- issuer (the invoice was charged back). A BGMAX file of 100,000 payments wrote ~95,000 event rows,
-- about a fifth of the import's time (docs/BENCHMARKS.md).
--   * remaining_after_minor: set on every payment applied to an invoice from now on (matched by an
--     import or assigned by an operator); null on unmatched payments and deductions, and on payments
--     applied before this migration, whose events stay in invoice_events as they were written.
--   * seq: drawn from the events' own sequence (invoice_events.seq), so stored events and payments
--     share one order of writing: two payments of one invoice in one file keep the file's order, and
--     a payout written at the same instant as a payment keeps its place (an operator's assignment
--     draws a new number).
-- The view invoice_timeline is the whole timeline: the stored events and the payments' events, in
-- the order of (at, seq, sub): by time; at the same time in the order written; a payment's paid or
-- part paid before its overpayment. Dates in the details are YYYY-MM-DD whatever the DateStyle.
ALTER TABLE "payments" ADD COLUMN "seq" bigint DEFAULT nextval('invoice_events_seq_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "remaining_after_minor" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "forwarded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE VIEW "invoice_timeline" AS
  SELECT e.id::text AS id, e.invoice_id, e.issuer_id, e.event, e.at, e.user_id, e.details,
         e.seq, 0 AS sub
  FROM invoice_events e
  UNION ALL
  SELECT p.id::text || '.' || CASE WHEN p.remaining_after_minor = 0 THEN 6 ELSE 7 END,
         p.invoice_id, p.issuer_id, CASE WHEN p.remaining_after_minor = 0 THEN 6 ELSE 7 END,
         coalesce(p.assigned_at, p.created_at), NULL::uuid,
         jsonb_build_object('amountMinor', p.applied_minor, 'paymentDate', to_char(p.payment_date, 'YYYY-MM-DD'),
                            'remainingMinor', p.remaining_after_minor)
           || CASE WHEN p.forwarded THEN '{"forwarded": 1}'::jsonb ELSE '{}'::jsonb END,
         p.seq, 0
  FROM payments p
  WHERE p.remaining_after_minor IS NOT NULL AND p.applied_minor > 0
  UNION ALL
  SELECT p.id::text || '.21', p.invoice_id, p.issuer_id, 21, coalesce(p.assigned_at, p.created_at), NULL::uuid,
         jsonb_build_object('overpaidMinor', p.overpaid_minor, 'paymentDate', to_char(p.payment_date, 'YYYY-MM-DD')),
         p.seq, 1
  FROM payments p
  WHERE p.remaining_after_minor IS NOT NULL AND p.overpaid_minor > 0;
