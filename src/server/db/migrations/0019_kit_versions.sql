CREATE TABLE "update_mail_opt_outs" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upgrade_patches" (
	"id" serial PRIMARY KEY NOT NULL,
	"kit_id" integer NOT NULL,
	"from_version_id" integer NOT NULL,
	"to_version_id" integer NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kit_versions" ADD COLUMN "notes_html" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "kit_versions" ADD COLUMN "format" text DEFAULT 'zip' NOT NULL;--> statement-breakpoint
ALTER TABLE "kit_versions" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "kit_versions" ADD COLUMN "yanked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "kit_versions" ADD COLUMN "yank_reason" text;--> statement-breakpoint
ALTER TABLE "update_mail_opt_outs" ADD CONSTRAINT "update_mail_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_patches" ADD CONSTRAINT "upgrade_patches_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_patches" ADD CONSTRAINT "upgrade_patches_from_version_id_kit_versions_id_fk" FOREIGN KEY ("from_version_id") REFERENCES "public"."kit_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_patches" ADD CONSTRAINT "upgrade_patches_to_version_id_kit_versions_id_fk" FOREIGN KEY ("to_version_id") REFERENCES "public"."kit_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_patches_pair_key" ON "upgrade_patches" USING btree ("from_version_id","to_version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kit_versions_idempotency_key" ON "kit_versions" USING btree ("kit_id","idempotency_key") WHERE "kit_versions"."idempotency_key" IS NOT NULL;