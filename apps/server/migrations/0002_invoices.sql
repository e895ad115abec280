CREATE TABLE "idempotency_keys" (
	"issuer_id" uuid NOT NULL,
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_issuer_id_key_pk" PRIMARY KEY("issuer_id","key")
);
--> statement-breakpoint
CREATE TABLE "invoice_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"issuer_id" uuid NOT NULL,
	"event" integer NOT NULL,
	"seq" bigserial NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "invoice_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"article_number" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"quantity_milli" bigint NOT NULL,
	"unit" text NOT NULL,
	"unit_price_minor" bigint NOT NULL,
	"vat_basis_points" integer NOT NULL,
	"rot_rut" boolean DEFAULT false NOT NULL,
	"net_minor" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"issuer_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"invoice_number" text NOT NULL,
	"service" text NOT NULL,
	"state" integer NOT NULL,
	"decision" text,
	"currency" char(3) NOT NULL,
	"invoice_date" date NOT NULL,
	"due_date" date NOT NULL,
	"order_reference" text DEFAULT '' NOT NULL,
	"issuer_contact" text DEFAULT '' NOT NULL,
	"recipient_contact" text DEFAULT '' NOT NULL,
	"ocr" text,
	"net_minor" bigint NOT NULL,
	"vat_minor" bigint NOT NULL,
	"gross_minor" bigint NOT NULL,
	"deduction_minor" bigint DEFAULT 0 NOT NULL,
	"to_pay_minor" bigint NOT NULL,
	"remaining_minor" bigint NOT NULL,
	"rot_rut" jsonb,
	"vat_lines" jsonb NOT NULL,
	"source" text DEFAULT 'form' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "issuer_counters" (
	"issuer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"value" bigint NOT NULL,
	CONSTRAINT "issuer_counters_issuer_id_name_pk" PRIMARY KEY("issuer_id","name")
);
--> statement-breakpoint
ALTER TABLE "invoice_events" ADD CONSTRAINT "invoice_events_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_events" ADD CONSTRAINT "invoice_events_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_rows" ADD CONSTRAINT "invoice_rows_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_recipient_id_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."recipients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issuer_counters" ADD CONSTRAINT "issuer_counters_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_events_invoice_idx" ON "invoice_events" USING btree ("invoice_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_rows_position_idx" ON "invoice_rows" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_issuer_number_idx" ON "invoices" USING btree ("issuer_id","invoice_number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_issuer_ocr_idx" ON "invoices" USING btree ("issuer_id","ocr");--> statement-breakpoint
CREATE INDEX "invoices_issuer_state_date_idx" ON "invoices" USING btree ("issuer_id","state","invoice_date");--> statement-breakpoint
CREATE INDEX "invoices_issuer_date_idx" ON "invoices" USING btree ("issuer_id","invoice_date","id");--> statement-breakpoint
CREATE INDEX "invoices_issuer_due_idx" ON "invoices" USING btree ("issuer_id","due_date");--> statement-breakpoint
CREATE INDEX "invoices_recipient_idx" ON "invoices" USING btree ("recipient_id");