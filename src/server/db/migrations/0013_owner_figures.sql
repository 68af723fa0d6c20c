CREATE TABLE "account_days" (
	"day" date PRIMARY KEY NOT NULL,
	"accounts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_created_idx";--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","id","user_id");--> statement-breakpoint
-- Hand-written: account_days (see the schema) filled from the accounts there are, then kept by triggers
-- on users, as kit_counts is (0008): statement triggers with transition tables, so a bulk insert (the
-- seed) or the sweep of unverified accounts costs one upsert per day; upserts go in day order, so two
-- transactions touching the same days never deadlock. Days are UTC days, as the owner console counts.
INSERT INTO "account_days" ("day", "accounts")
SELECT (created_at AT TIME ZONE 'UTC')::date, count(*) FROM "users" GROUP BY 1;
--> statement-breakpoint
CREATE FUNCTION account_days_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO account_days (day, accounts)
    SELECT (created_at AT TIME ZONE 'UTC')::date, count(*) FROM new_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET accounts = account_days.accounts + EXCLUDED.accounts;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE account_days a SET accounts = a.accounts - r.n
      FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM old_rows GROUP BY 1) r
     WHERE a.day = r.day;
  ELSE
    DELETE FROM account_days;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_days_insert AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_days_count();
--> statement-breakpoint
CREATE TRIGGER users_days_delete AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_days_count();
--> statement-breakpoint
CREATE TRIGGER users_days_truncate AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION account_days_count();
--> statement-breakpoint
-- A changed created_at (never done by the shop, but a test or an import may) moves the account to its
-- new day. Row level: a column list cannot go with transition tables, and every other update of users
-- (sign-ins, settings) must not pay for this.
CREATE FUNCTION account_days_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_days (day, accounts)
  SELECT day, delta FROM (VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, -1),
                                 ((NEW.created_at AT TIME ZONE 'UTC')::date, 1)) AS c(day, delta)
   ORDER BY day
  ON CONFLICT (day) DO UPDATE SET accounts = account_days.accounts + EXCLUDED.accounts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_days_move AFTER UPDATE OF created_at ON "users"
  FOR EACH ROW WHEN ((OLD.created_at AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.created_at AT TIME ZONE 'UTC')::date)
  EXECUTE FUNCTION account_days_move();
