-- Issue #11: a recipient's invoice documents are written in its own language (sv-SE, en-US or fi-FI),
-- never in the language of whoever downloads them. Existing recipients get their country's language
-- (contracts documentLanguageForCountry: SE Swedish, FI Finnish, any other English). The portal writes
-- the language on every insert; the default (the portal's default language, spec §9) only serves a
-- row written by hand.
ALTER TABLE "recipients" ADD COLUMN "document_language" text;--> statement-breakpoint
UPDATE "recipients" SET "document_language" = CASE "country" WHEN 'SE' THEN 'sv-SE' WHEN 'FI' THEN 'fi-FI' ELSE 'en-US' END;--> statement-breakpoint
ALTER TABLE "recipients" ALTER COLUMN "document_language" SET DEFAULT 'sv-SE';--> statement-breakpoint
ALTER TABLE "recipients" ALTER COLUMN "document_language" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "recipients" ADD CONSTRAINT "recipients_document_language_check" CHECK ("document_language" IN ('sv-SE', 'en-US', 'fi-FI'));
