ALTER TABLE "licence_keys" ADD COLUMN "activation_limit" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
-- Keys issued before this column carry the default; those of a tier line (the buyer's, and each
-- seat's) take the tier's limit.
UPDATE "licence_keys" lk SET "activation_limit" = t.lim
  FROM (
    SELECT e.id, max(kl.activation_limit) AS lim
      FROM "entitlements" e
      JOIN "order_items" oi ON oi.kit_id = e.kit_id AND oi.licence_id IS NOT NULL
      JOIN "orders" o ON o.id = oi.order_id
      JOIN "kit_licences" kl ON kl.id = oi.licence_id
     WHERE (e.source = o.public_id AND e.user_id = o.user_id)
        OR e.source IN (SELECT 'seat:' || ts.id FROM "team_seats" ts WHERE ts.order_item_id = oi.id)
     GROUP BY e.id
  ) t
 WHERE t.id = lk.entitlement_id AND t.lim > lk.activation_limit;
