CREATE TABLE "kit_counts" (
	"kit_id" integer PRIMARY KEY NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"owners" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriber_list_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kit_counts" ADD CONSTRAINT "kit_counts_kit_id_kits_id_fk" FOREIGN KEY ("kit_id") REFERENCES "public"."kits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written: the triggers that keep kit_counts and subscriber_list_version (see the schema).
-- Statement triggers with transition tables: a bulk insert (the seed, an import) costs one upsert per kit.
-- Upserts go in kit_id order, so two transactions touching the same kits never deadlock.
INSERT INTO "kit_counts" ("kit_id", "downloads", "owners")
SELECT k.id,
       (SELECT count(*) FROM "downloads" d WHERE d.kit_id = k.id),
       (SELECT count(*) FROM "entitlements" e WHERE e.kit_id = k.id AND e.revoked_at IS NULL)
  FROM "kits" k;
--> statement-breakpoint
CREATE FUNCTION kit_counts_downloads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO kit_counts (kit_id, downloads)
    SELECT kit_id, count(*) FROM new_rows GROUP BY kit_id ORDER BY kit_id
    ON CONFLICT (kit_id) DO UPDATE SET downloads = kit_counts.downloads + EXCLUDED.downloads;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE kit_counts c SET downloads = c.downloads - r.n
      FROM (SELECT kit_id, count(*) AS n FROM old_rows GROUP BY kit_id) r WHERE c.kit_id = r.kit_id;
  ELSE
    UPDATE kit_counts SET downloads = 0 WHERE downloads <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER downloads_count_insert AFTER INSERT ON "downloads" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kit_counts_downloads();
--> statement-breakpoint
CREATE TRIGGER downloads_count_delete AFTER DELETE ON "downloads" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kit_counts_downloads();
--> statement-breakpoint
CREATE TRIGGER downloads_count_truncate AFTER TRUNCATE ON "downloads"
  FOR EACH STATEMENT EXECUTE FUNCTION kit_counts_downloads();
--> statement-breakpoint
CREATE FUNCTION kit_counts_owners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A transition table exists only for its own event, so each event has its own statement.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO kit_counts (kit_id, owners)
    SELECT kit_id, count(*) FROM new_rows WHERE revoked_at IS NULL GROUP BY kit_id ORDER BY kit_id
    ON CONFLICT (kit_id) DO UPDATE SET owners = kit_counts.owners + EXCLUDED.owners;
  ELSIF TG_OP = 'UPDATE' THEN
    -- Active after the statement +1, active before it -1 (a revoke, a re-grant, a moved row).
    INSERT INTO kit_counts (kit_id, owners)
    SELECT kit_id, sum(delta)::int FROM (
      SELECT kit_id, 1 AS delta FROM new_rows WHERE revoked_at IS NULL
      UNION ALL
      SELECT kit_id, -1 FROM old_rows WHERE revoked_at IS NULL) changes
     GROUP BY kit_id HAVING sum(delta) <> 0 ORDER BY kit_id
    ON CONFLICT (kit_id) DO UPDATE SET owners = kit_counts.owners + EXCLUDED.owners;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE kit_counts c SET owners = c.owners - r.n
      FROM (SELECT kit_id, count(*) AS n FROM old_rows WHERE revoked_at IS NULL GROUP BY kit_id) r
     WHERE c.kit_id = r.kit_id;
  ELSE
    UPDATE kit_counts SET owners = 0 WHERE owners <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER entitlements_count_insert AFTER INSERT ON "entitlements" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kit_counts_owners();
--> statement-breakpoint
CREATE TRIGGER entitlements_count_update AFTER UPDATE ON "entitlements"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kit_counts_owners();
--> statement-breakpoint
CREATE TRIGGER entitlements_count_delete AFTER DELETE ON "entitlements" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION kit_counts_owners();
--> statement-breakpoint
CREATE TRIGGER entitlements_count_truncate AFTER TRUNCATE ON "entitlements"
  FOR EACH STATEMENT EXECUTE FUNCTION kit_counts_owners();
--> statement-breakpoint
INSERT INTO "subscriber_list_version" ("id", "version") VALUES (1, 0);
--> statement-breakpoint
CREATE FUNCTION subscriber_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE subscriber_list_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER subscribers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "subscribers"
  FOR EACH STATEMENT EXECUTE FUNCTION subscriber_list_changed();
