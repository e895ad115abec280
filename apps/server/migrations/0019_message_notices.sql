-- System messages (issue #11): a notice of ours keeps its code and parameters, worded when it is read in the reader's language.
ALTER TABLE "messages" ADD COLUMN "code" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "params" jsonb;
