-- Issue #13: the Fortnox connection of an issuer, its business invoices taken over, and the payments
-- registered back in Fortnox (docs/INTEGRATIONS.md "Fortnox").
-- One connection per issuer. The tokens are sealed with AES-256-GCM (modules/fortnox/fortnox-seal.ts);
-- `status` is 'active' while the tokens work, 'revoked' after a disconnect or when Fortnox refused the
-- refresh token (the customer removed the integration in Fortnox, or it lapsed): then the page asks
-- the customer to connect again.
CREATE TABLE "fortnox_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"status" text NOT NULL,
	"reason" text,
	"company_name" text NOT NULL,
	"company_org_no" text NOT NULL,
	"scope" text NOT NULL,
	"access_token_sealed" text,
	"refresh_token_sealed" text,
	"access_expires_at" timestamp with time zone,
	"connected_by" uuid NOT NULL REFERENCES "users"("id"),
	"connected_at" timestamp with time zone NOT NULL,
	"refreshed_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "fortnox_connections_status_check" CHECK ("status" IN ('active', 'revoked'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "fortnox_connections_issuer_idx" ON "fortnox_connections" USING btree ("issuer_id");
--> statement-breakpoint
-- An authorization started at Fortnox: the state we sent is kept as its SHA-256 only, bound to the user
-- and issuer, short-lived, and used once (the conditional update in the repository).
CREATE TABLE "fortnox_authorizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"state_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "fortnox_authorizations_state_idx" ON "fortnox_authorizations" USING btree ("state_hash");
--> statement-breakpoint
-- A Fortnox invoice taken over as one of ours: each Fortnox invoice (company and document number) at
-- most once, whichever issuer or request tries again.
CREATE TABLE "fortnox_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"company_org_no" text NOT NULL,
	"document_number" text NOT NULL,
	"invoice_id" uuid NOT NULL REFERENCES "invoices"("id") ON DELETE CASCADE,
	"customer_number" text NOT NULL,
	"created_by" uuid REFERENCES "users"("id"),
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "fortnox_invoices_document_idx" ON "fortnox_invoices" USING btree ("company_org_no", "document_number");
--> statement-breakpoint
CREATE UNIQUE INDEX "fortnox_invoices_invoice_idx" ON "fortnox_invoices" USING btree ("invoice_id");
--> statement-breakpoint
CREATE INDEX "fortnox_invoices_issuer_idx" ON "fortnox_invoices" USING btree ("issuer_id", "document_number");
--> statement-breakpoint
-- A payment we received for a Fortnox invoice, to be registered in Fortnox (POST /3/invoicepayments)
-- for an issuer with limited_fortnox_bookkeeping: one row per payment (the unique key), 'pending' until
-- Fortnox has it. A try claims the row until `claimed_until` (longer than a call can take), so two
-- processes never post it at once; `attempts` > 0 with 'pending' means an earlier try may have reached
-- Fortnox: the next try looks in Fortnox's payments of the invoice first, so it is registered once.
CREATE TABLE "fortnox_payment_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"payment_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL REFERENCES "invoices"("id") ON DELETE CASCADE,
	"document_number" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"payment_date" date NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"fortnox_payment_number" text,
	"created_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "fortnox_payment_outbox_status_check" CHECK ("status" IN ('pending', 'done'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "fortnox_payment_outbox_payment_idx" ON "fortnox_payment_outbox" USING btree ("payment_id");
--> statement-breakpoint
CREATE INDEX "fortnox_payment_outbox_pending_idx" ON "fortnox_payment_outbox" USING btree ("issuer_id", "created_at") WHERE "status" = 'pending';
