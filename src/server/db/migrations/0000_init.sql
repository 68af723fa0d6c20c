CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kits" (
	"id" serial PRIMARY KEY NOT NULL,
	"sef_id" text NOT NULL,
	"title" text NOT NULL,
	"spot" text NOT NULL,
	"features" jsonb NOT NULL,
	"price_cents" integer NOT NULL,
	"discounted_from_cents" integer,
	"paddle_price_id" text NOT NULL,
	"version" text NOT NULL,
	"details" jsonb NOT NULL,
	"setup_html" text NOT NULL,
	"docs" jsonb NOT NULL,
	"position" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"content_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "kits_sef_id_key" ON "kits" USING btree ("sef_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kits_paddle_price_id_key" ON "kits" USING btree ("paddle_price_id");--> statement-breakpoint
CREATE INDEX "kits_active_position_idx" ON "kits" USING btree ("position") WHERE "kits"."active";