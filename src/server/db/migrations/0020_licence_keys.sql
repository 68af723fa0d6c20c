CREATE TABLE "licence_activations" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"licence_key_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licence_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"entitlement_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kit_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"key_sealed" text NOT NULL,
	"key_tail" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "licence_activations" ADD CONSTRAINT "licence_activations_licence_key_id_licence_keys_id_fk" FOREIGN KEY ("licence_key_id") REFERENCES "public"."licence_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_entitlement_id_entitlements_id_fk" FOREIGN KEY ("entitlement_id") REFERENCES "public"."entitlements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_keys" ADD CONSTRAINT "licence_keys_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "licence_activations_public_id_key" ON "licence_activations" USING btree ("public_id");--> statement-breakpoint
CREATE INDEX "licence_activations_key_idx" ON "licence_activations" USING btree ("licence_key_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "licence_keys_entitlement_key" ON "licence_keys" USING btree ("entitlement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "licence_keys_hash_key" ON "licence_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "licence_keys_user_kit_idx" ON "licence_keys" USING btree ("user_id","kit_id");