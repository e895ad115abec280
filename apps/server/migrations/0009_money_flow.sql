CREATE TABLE "issuer_fees" (
	"issuer_id" uuid NOT NULL,
	"service" text NOT NULL,
	"currency" char(3) NOT NULL,
	"percent_basis_points" integer DEFAULT 0 NOT NULL,
	"fixed_minor" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issuer_fees_issuer_id_service_currency_pk" PRIMARY KEY("issuer_id","service","currency")
);
--> statement-breakpoint
CREATE TABLE "payment_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sha256" text NOT NULL,
	"filename" text NOT NULL,
	"written_at" text NOT NULL,
	"test_mark" char(1) NOT NULL,
	"payment_count" integer NOT NULL,
	"registered_count" integer NOT NULL,
	"matched_count" integer NOT NULL,
	"unmatched_count" integer NOT NULL,
	"operator_id" uuid,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_files_sha256_unique" UNIQUE("sha256")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_id" uuid NOT NULL,
	"dedupe_key" text NOT NULL,
	"receiving_bankgiro" text NOT NULL,
	"issuer_id" uuid,
	"invoice_id" uuid,
	"status" text NOT NULL,
	"reference" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"payment_date" date NOT NULL,
	"payer_bankgiro" text,
	"payer_name" text DEFAULT '' NOT NULL,
	"channel" integer NOT NULL,
	"bgc_serial" text NOT NULL,
	"applied_minor" bigint DEFAULT 0 NOT NULL,
	"overpaid_minor" bigint DEFAULT 0 NOT NULL,
	"assigned_by" uuid,
	"assigned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "postings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"journal_id" uuid NOT NULL,
	"issuer_id" uuid,
	"invoice_id" uuid,
	"account" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"kind" text NOT NULL,
	"settlement_id" uuid,
	"payment_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"settlement_id" uuid NOT NULL,
	"issuer_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payment_id" uuid,
	"position" integer NOT NULL,
	"gross_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"net_minor" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigserial NOT NULL,
	"issuer_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"currency" char(3) NOT NULL,
	"payout_date" date NOT NULL,
	"gross_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"total_payout_minor" bigint NOT NULL,
	"row_count" integer NOT NULL,
	"operator_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlements_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "dunning_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "interest_through" date;--> statement-breakpoint
ALTER TABLE "issuers" ADD COLUMN "collection_bankgiro" text;--> statement-breakpoint
ALTER TABLE "issuers" ADD COLUMN "recourse_days" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD COLUMN "kind" text DEFAULT 'session' NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "issuer_fees" ADD CONSTRAINT "issuer_fees_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_file_id_payment_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."payment_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_rows" ADD CONSTRAINT "settlement_rows_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_rows" ADD CONSTRAINT "settlement_rows_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_issuer_id_issuers_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."issuers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_issuer_date_idx" ON "payments" USING btree ("issuer_id","payment_date","id");--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "payments_unmatched_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'unmatched';--> statement-breakpoint
CREATE INDEX "postings_invoice_idx" ON "postings" USING btree ("invoice_id","account");--> statement-breakpoint
CREATE INDEX "postings_journal_idx" ON "postings" USING btree ("journal_id");--> statement-breakpoint
CREATE INDEX "postings_issuer_account_idx" ON "postings" USING btree ("issuer_id","account","at");--> statement-breakpoint
CREATE INDEX "postings_unsettled_idx" ON "postings" USING btree ("issuer_id","currency","id") WHERE "postings"."account" = 'issuer_payable' and "postings"."settlement_id" is null;--> statement-breakpoint
CREATE INDEX "settlement_rows_settlement_idx" ON "settlement_rows" USING btree ("settlement_id","position");--> statement-breakpoint
CREATE INDEX "settlement_rows_invoice_idx" ON "settlement_rows" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_rows_payout_once_idx" ON "settlement_rows" USING btree ("invoice_id") WHERE "settlement_rows"."kind" = 'payout';--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_rows_charge_back_once_idx" ON "settlement_rows" USING btree ("invoice_id") WHERE "settlement_rows"."kind" = 'chargeBack';--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_rows_payment_once_idx" ON "settlement_rows" USING btree ("payment_id") WHERE "settlement_rows"."payment_id" is not null;--> statement-breakpoint
CREATE INDEX "settlements_issuer_created_idx" ON "settlements" USING btree ("issuer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_unpaid_due_idx" ON "invoices" USING btree ("due_date","id") WHERE "invoices"."state" in (2, 3);--> statement-breakpoint
ALTER TABLE "issuers" ADD CONSTRAINT "issuers_collection_bankgiro_unique" UNIQUE("collection_bankgiro");