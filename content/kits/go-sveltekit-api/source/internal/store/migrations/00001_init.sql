-- +goose Up
CREATE TABLE accounts (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email         text NOT NULL UNIQUE,
    password_hash text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name        text NOT NULL,
    lookup      char(8) NOT NULL UNIQUE,
    secret_hash bytea NOT NULL,
    scopes      text[] NOT NULL DEFAULT '{read}',
    rate_limit  double precision NOT NULL DEFAULT 10,
    last_used_at timestamptz,
    revoked_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_active ON api_keys (lookup) WHERE revoked_at IS NULL;

CREATE TABLE notes (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    title      text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    body       text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notes_account_id ON notes (account_id, id DESC);

CREATE TABLE request_logs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key_id      bigint REFERENCES api_keys (id) ON DELETE SET NULL,
    method      text NOT NULL,
    path        text NOT NULL,
    status      smallint NOT NULL,
    duration_us integer NOT NULL,
    request_id  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX request_logs_key_time ON request_logs (key_id, created_at DESC);

-- +goose Down
DROP TABLE request_logs;
DROP TABLE notes;
DROP TABLE api_keys;
DROP TABLE accounts;
