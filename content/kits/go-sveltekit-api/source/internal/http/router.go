// Package http wires routes, middleware and handlers.
package http

import (
	"io/fs"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/cors"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/yourorg/notes-api/internal/auth"
	"github.com/yourorg/notes-api/internal/config"
	"github.com/yourorg/notes-api/internal/logwriter"
	"github.com/yourorg/notes-api/internal/store/db"
	"github.com/yourorg/notes-api/web"
)

func NewRouter(cfg config.Config, pool *pgxpool.Pool, logs *logwriter.Writer) http.Handler {
	q := db.New(pool)
	h := &handlers{q: q, cfg: cfg}
	limits := auth.NewLimiterStore(10 * time.Minute)

	r := chi.NewRouter()
	r.Use(middleware.RequestID, middleware.RealIP, requestLogger(logs), middleware.Recoverer)
	if len(cfg.CORSOrigins) > 0 {
		r.Use(cors.Handler(cors.Options{
			AllowedOrigins:   cfg.CORSOrigins,
			AllowedMethods:   []string{"GET", "POST", "PATCH", "DELETE"},
			AllowedHeaders:   []string{"Authorization", "Content-Type", "X-CSRF-Token"},
			AllowCredentials: true,
			MaxAge:           600,
		}))
	}

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	r.Get("/readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := pool.Ping(r.Context()); err != nil {
			http.Error(w, "database unavailable", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})

	// Public API, authenticated with API keys.
	r.Route("/api/v1", func(r chi.Router) {
		r.Use(auth.APIKey(q), auth.RateLimit(limits))
		r.With(auth.RequireScope("read")).Get("/notes", h.listNotes)
		r.With(auth.RequireScope("write")).Post("/notes", h.createNote)
		r.With(auth.RequireScope("write")).Delete("/notes/{id}", h.deleteNote)
		r.With(auth.RequireScope("read")).Get("/usage", h.usage)
	})

	// Dashboard API, authenticated with the session cookie.
	r.Route("/api/dashboard", func(r chi.Router) {
		r.Post("/sign-in", h.signIn)
		r.Group(func(r chi.Router) {
			r.Use(auth.Session(q, cfg.SessionSecret), auth.CSRF)
			r.Get("/overview", h.overview)
			r.Get("/keys", h.listKeys)
			r.Post("/keys", h.createKey)
			r.Delete("/keys/{id}", h.revokeKey)
			r.Get("/logs", h.listLogs)
		})
	})

	// Everything else is the embedded SvelteKit build, with index.html as SPA fallback.
	build, _ := fs.Sub(web.Build, "build")
	r.Handle("/*", spaHandler(build))
	return r
}
