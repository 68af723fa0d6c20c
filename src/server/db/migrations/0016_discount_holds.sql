DROP INDEX "orders_discount_code_idx";--> statement-breakpoint
ALTER TABLE "discount_redemptions" ADD COLUMN "mailbox" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "code_held_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written: open checkouts with a code held it from when they were opened.
UPDATE "orders" SET "code_held_at" = "created_at" WHERE "status" = 'pending' AND "discount_code_id" IS NOT NULL;--> statement-breakpoint
-- Hand-written: the mailbox of each redemption's buyer, by mailboxKey's rule (src/server/lib/mailbox.ts):
-- lower case, no +tag, and at Gmail no dots and gmail.com for googlemail.com. Erased accounts keep none.
UPDATE "discount_redemptions" r SET "mailbox" = CASE
    WHEN p.domain IS NULL THEN p.address
    WHEN p.domain IN ('gmail.com', 'googlemail.com') THEN replace(p.local, '.', '') || '@gmail.com'
    ELSE p.local || '@' || p.domain END
  FROM (SELECT u.id, a.address,
               regexp_replace(substring(a.address FROM '^(.*)@'), '^([^+]+)\+.*$', '\1') AS local,
               substring(a.address FROM '@([^@]*)$') AS domain
          FROM "users" u, LATERAL (SELECT lower(btrim(u.email)) AS address) a
         WHERE u.deleted_at IS NULL) p
 WHERE p.id = r.user_id;--> statement-breakpoint
CREATE INDEX "discount_redemptions_code_mailbox_idx" ON "discount_redemptions" USING btree ("code_id","mailbox");--> statement-breakpoint
CREATE INDEX "orders_code_hold_idx" ON "orders" USING btree ("discount_code_id","code_held_at") WHERE "orders"."status" = 'pending' AND "orders"."code_held_at" IS NOT NULL;
