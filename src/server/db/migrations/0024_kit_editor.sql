ALTER TABLE "kits" ADD COLUMN "setup_markdown" text;--> statement-breakpoint
ALTER TABLE "kits" ADD COLUMN "docs_markdown" jsonb;--> statement-breakpoint
ALTER TABLE "kits" ADD COLUMN "console_changed_at" timestamp with time zone;