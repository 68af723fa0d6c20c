CREATE TABLE "downloads" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kit_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kit_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"kit_id" integer NOT NULL,
	"version" text NOT NULL,
	"released_on" text NOT NULL,
	"changelog" text NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_version_id_kit_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."kit_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_versions" ADD CONSTRAINT "kit_versions_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "downloads_user_kit_idx" ON "downloads" USING btree ("user_id","kit_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "kit_versions_kit_version_key" ON "kit_versions" USING btree ("kit_id","version");--> statement-breakpoint
CREATE INDEX "kit_versions_kit_created_idx" ON "kit_versions" USING btree ("kit_id","created_at");