CREATE TABLE "github_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"github_id" bigint NOT NULL,
	"login" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "github_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"repository" text NOT NULL,
	"github_id" bigint NOT NULL,
	"login" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"outcome" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "github_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"session_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"code_verifier" text NOT NULL,
	"return_path" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kits" ADD COLUMN "github_repository" text;--> statement-breakpoint
ALTER TABLE "github_accounts" ADD CONSTRAINT "github_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "github_jobs" ADD CONSTRAINT "github_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "github_oauth_states" ADD CONSTRAINT "github_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "github_accounts_github_id_key" ON "github_accounts" USING btree ("github_id");--> statement-breakpoint
CREATE INDEX "github_jobs_due_idx" ON "github_jobs" USING btree ("next_attempt_at") WHERE "github_jobs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "github_jobs_user_repository_idx" ON "github_jobs" USING btree ("user_id","repository","id");--> statement-breakpoint
CREATE INDEX "github_jobs_queued_target_idx" ON "github_jobs" USING btree ("repository","github_id","id") WHERE "github_jobs"."status" = 'queued';