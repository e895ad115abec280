CREATE TABLE "invoice_state_totals" (
	"issuer_id" uuid NOT NULL,
	"state" integer NOT NULL,
	"rejected" boolean NOT NULL,
	"currency" char(3) NOT NULL,
	"invoice_count" bigint NOT NULL,
	"gross_minor" bigint NOT NULL,
	CONSTRAINT "invoice_state_totals_issuer_id_state_rejected_currency_pk" PRIMARY KEY("issuer_id","state","rejected","currency")
);
