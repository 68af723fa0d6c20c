-- name: GetActiveKeyByLookup :one
SELECT id, account_id, secret_hash, scopes, rate_limit
FROM api_keys
WHERE lookup = $1 AND revoked_at IS NULL;

-- name: CreateKey :one
INSERT INTO api_keys (account_id, name, lookup, secret_hash, scopes, rate_limit)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING id, name, lookup, scopes, rate_limit, created_at;

-- name: ListKeys :many
SELECT id, name, lookup, scopes, rate_limit, last_used_at, revoked_at, created_at
FROM api_keys
WHERE account_id = $1
ORDER BY revoked_at IS NOT NULL, created_at DESC;

-- name: RevokeKey :execrows
UPDATE api_keys SET revoked_at = now()
WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL;

-- name: DailyUsage :many
SELECT date_trunc('day', l.created_at)::date AS day,
       count(*)                                AS requests,
       count(*) FILTER (WHERE l.status >= 500) AS errors,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY l.duration_us)::int AS p95_us
FROM request_logs l
JOIN api_keys k ON k.id = l.key_id
WHERE k.account_id = $1 AND l.created_at >= now() - make_interval(days => sqlc.arg(days)::int)
GROUP BY day
ORDER BY day;
