ALTER TABLE "sessions" ADD COLUMN "second_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Hand-written: sessions that began with a passkey or a second step proved one already.
UPDATE "sessions" SET "second_factor" = true WHERE "method" IN ('code', 'passkey');
