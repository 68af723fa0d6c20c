module github.com/yourorg/notes-api

go 1.23

require (
	github.com/go-chi/chi/v5 v5.2.0
	github.com/go-chi/cors v1.2.1
	github.com/jackc/pgx/v5 v5.7.2
	github.com/pressly/goose/v3 v3.24.1
	golang.org/x/crypto v0.32.0
	golang.org/x/time v0.9.0
)
