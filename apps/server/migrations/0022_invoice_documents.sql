-- Issue #11: a sent invoice's document is frozen. The PDF that went out at sending is stored here,
-- in the same transaction as the send, and every later download returns these bytes: a change of the
-- issuer's phone, address or bankgiro, or of the recipient, only reaches invoices sent afterwards.
-- The bytes live in the row itself (not the file store) so that a send that fails half-way leaves no
-- document behind, and a document never exists without its send. An invoice sent before this
-- migration has no row; its PDF is drawn from the stored invoice when asked for (docs/INVOICES.md).
CREATE TABLE "invoice_documents" (
	"invoice_id" uuid PRIMARY KEY NOT NULL REFERENCES "invoices"("id") ON DELETE CASCADE,
	"issuer_id" uuid NOT NULL REFERENCES "issuers"("id"),
	"kind" text NOT NULL,
	"language" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"data" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_documents_kind_check" CHECK ("kind" IN ('generated', 'uploaded'))
);
--> statement-breakpoint
CREATE INDEX "invoice_documents_issuer_idx" ON "invoice_documents" USING btree ("issuer_id");
