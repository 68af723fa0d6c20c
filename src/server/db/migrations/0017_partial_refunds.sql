CREATE TABLE "order_refunds" (
	"adjustment_id" text NOT NULL,
	"item_id" integer NOT NULL,
	"cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_refunds_item_id_adjustment_id_pk" PRIMARY KEY("item_id","adjustment_id")
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "credit_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "credited_items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "lapsed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_item_id_order_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_refunds_created_idx" ON "order_refunds" USING btree ("created_at");--> statement-breakpoint
-- Hand-written: lines refunded before refunds were recorded by amount were refunded in full, each by
-- one refund on the day it was refunded (the owner's refund figures read order_refunds).
UPDATE "order_items" SET "refunded_cents" = "price_cents" WHERE "refunded_at" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "order_refunds" ("adjustment_id", "item_id", "cents", "created_at")
SELECT 'refund of line ' || "id", "id", "price_cents", "refunded_at" FROM "order_items" WHERE "refunded_at" IS NOT NULL;
