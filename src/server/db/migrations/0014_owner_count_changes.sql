CREATE TABLE "kit_owner_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kit_id" integer NOT NULL,
	"delta" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kit_owner_changes" ADD CONSTRAINT "kit_owner_changes_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kit_owner_changes_kit_idx" ON "kit_owner_changes" USING btree ("kit_id");
--> statement-breakpoint
-- Hand-written: the entitlements trigger appends owner count changes instead of updating the kit's
-- kit_counts row, which a transaction held until its commit: payments of one kit (a launch, a sale)
-- waited for each other's commit there. Housekeeping folds the changes into kit_counts.
CREATE OR REPLACE FUNCTION kit_counts_owners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A transition table exists only for its own event, so each event has its own statement.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO kit_owner_changes (kit_id, delta)
    SELECT kit_id, count(*) FROM new_rows WHERE revoked_at IS NULL GROUP BY kit_id;
  ELSIF TG_OP = 'UPDATE' THEN
    -- Active after the statement +1, active before it -1 (a revoke, a re-grant, a moved row).
    INSERT INTO kit_owner_changes (kit_id, delta)
    SELECT kit_id, sum(delta)::int FROM (
      SELECT kit_id, 1 AS delta FROM new_rows WHERE revoked_at IS NULL
      UNION ALL
      SELECT kit_id, -1 FROM old_rows WHERE revoked_at IS NULL) changes
     GROUP BY kit_id HAVING sum(delta) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO kit_owner_changes (kit_id, delta)
    SELECT kit_id, -count(*) FROM old_rows WHERE revoked_at IS NULL GROUP BY kit_id;
  ELSE
    UPDATE kit_counts SET owners = 0 WHERE owners <> 0;
    DELETE FROM kit_owner_changes;
  END IF;
  RETURN NULL;
END $$;
