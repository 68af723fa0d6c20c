CREATE TABLE "kit_licences" (
	"id" integer PRIMARY KEY DEFAULT nextval('kits_id_seq') NOT NULL,
	"kit_id" integer NOT NULL,
	"tier" text NOT NULL,
	"name" text NOT NULL,
	"seats" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"paddle_price_id" text NOT NULL,
	"activation_limit" integer DEFAULT 3 NOT NULL,
	"position" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_seats" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_item_id" integer NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"user_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text NOT NULL,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "licence_id" integer;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "seats" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "kit_licences" ADD CONSTRAINT "kit_licences_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_seats" ADD CONSTRAINT "team_seats_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_seats" ADD CONSTRAINT "team_seats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kit_licences_kit_tier_key" ON "kit_licences" USING btree ("kit_id","tier");--> statement-breakpoint
CREATE UNIQUE INDEX "kit_licences_paddle_price_id_key" ON "kit_licences" USING btree ("paddle_price_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_seats_open_email_key" ON "team_seats" USING btree ("order_item_id","email_key") WHERE "team_seats"."status" IN ('pending', 'active');--> statement-breakpoint
CREATE INDEX "team_seats_item_idx" ON "team_seats" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "team_seats_user_idx" ON "team_seats" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_seats_token_key" ON "team_seats" USING btree ("token_hash");--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_licence_id_kit_licences_id_fk" FOREIGN KEY ("licence_id") REFERENCES "public"."kit_licences"("id") ON DELETE no action ON UPDATE no action;