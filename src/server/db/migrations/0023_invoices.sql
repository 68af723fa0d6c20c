CREATE TABLE "document_counters" (
	"series" text PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"series" text NOT NULL,
	"number" integer NOT NULL,
	"order_id" integer NOT NULL,
	"adjustment_id" text DEFAULT '' NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_paid_at_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "business" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "business_added_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_documents" ADD CONSTRAINT "order_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_documents_series_number_key" ON "order_documents" USING btree ("series","number");--> statement-breakpoint
CREATE UNIQUE INDEX "order_documents_order_key" ON "order_documents" USING btree ("order_id","series","adjustment_id");--> statement-breakpoint
CREATE INDEX "orders_paid_at_idx" ON "orders" USING btree ("paid_at","id") WHERE "orders"."paid_at" IS NOT NULL;--> statement-breakpoint
INSERT INTO "document_counters" ("series", "last") VALUES ('invoice', 0), ('credit_note', 0);
