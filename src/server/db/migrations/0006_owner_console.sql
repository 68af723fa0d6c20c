CREATE TABLE "kit_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kit_id" integer NOT NULL,
	"note" text NOT NULL,
	"granted_by" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoke_note" text
);
--> statement-breakpoint
CREATE TABLE "kit_sales_days" (
	"day" date NOT NULL,
	"kit_id" integer NOT NULL,
	"units" integer NOT NULL,
	"gross_cents" integer NOT NULL,
	CONSTRAINT "kit_sales_days_day_kit_id_pk" PRIMARY KEY("day","kit_id")
);
--> statement-breakpoint
CREATE TABLE "sales_days" (
	"day" date PRIMARY KEY NOT NULL,
	"gross_cents" integer NOT NULL,
	"refunds_cents" integer NOT NULL,
	"orders" integer NOT NULL,
	"checkouts" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owner_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"detail" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owners" (
	"email" text PRIMARY KEY NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kits" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "ref" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "kit_grants" ADD CONSTRAINT "kit_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_grants" ADD CONSTRAINT "kit_grants_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kit_grants_active_key" ON "kit_grants" USING btree ("user_id","kit_id") WHERE "kit_grants"."revoked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "owner_activity_at_idx" ON "owner_activity" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "owner_activity_target_idx" ON "owner_activity" USING btree ("target");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "downloads_kit_idx" ON "downloads" USING btree ("kit_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_ref_idx" ON "mail_outbox" USING btree ("ref") WHERE "mail_outbox"."ref" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "subscribers_active_idx" ON "subscribers" USING btree ("subscribed_at","id") WHERE "subscribers"."unsubscribed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "order_items_kit_idx" ON "order_items" USING btree ("kit_id","order_id");--> statement-breakpoint
CREATE INDEX "order_items_refunded_idx" ON "order_items" USING btree ("refunded_at") WHERE "order_items"."refunded_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_paid_at_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."paid_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_events_transaction_all_idx" ON "payment_events" USING btree ("transaction_id","received_at");--> statement-breakpoint
CREATE FUNCTION owner_activity_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'owner_activity rows are never changed or deleted';
END $$;--> statement-breakpoint
CREATE TRIGGER owner_activity_append_only BEFORE UPDATE OR DELETE ON "owner_activity"
  FOR EACH ROW EXECUTE FUNCTION owner_activity_is_append_only();
