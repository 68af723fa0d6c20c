package auth

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/yourorg/notes-api/internal/httpx"
)

type entry struct {
	limiter  *rate.Limiter
	lastSeen time.Time
}

// LimiterStore holds one token bucket per API key, evicting idle ones.
type LimiterStore struct {
	mu      sync.Mutex
	entries map[int64]*entry
	idle    time.Duration
}

func NewLimiterStore(idle time.Duration) *LimiterStore {
	s := &LimiterStore{entries: make(map[int64]*entry), idle: idle}
	go s.evictLoop()
	return s
}

func (s *LimiterStore) get(key Key) *rate.Limiter {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[key.ID]
	limit := rate.Limit(key.RateLimit)
	if !ok || e.limiter.Limit() != limit {
		// New key, or its limit was changed in the dashboard.
		e = &entry{limiter: rate.NewLimiter(limit, int(math.Max(1, 2*key.RateLimit)))}
		s.entries[key.ID] = e
	}
	e.lastSeen = time.Now()
	return e.limiter
}

func (s *LimiterStore) evictLoop() {
	for range time.Tick(time.Minute) {
		s.mu.Lock()
		for id, e := range s.entries {
			if time.Since(e.lastSeen) > s.idle {
				delete(s.entries, id)
			}
		}
		s.mu.Unlock()
	}
}

// RateLimit must run after APIKey.
func RateLimit(store *LimiterStore) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key, _ := FromContext(r.Context())
			limiter := store.get(key)
			w.Header().Set("X-RateLimit-Limit", strconv.FormatFloat(key.RateLimit, 'f', -1, 64))

			reservation := limiter.Reserve()
			if delay := reservation.Delay(); delay > 0 {
				reservation.Cancel()
				w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(delay.Seconds()))))
				httpx.Error(w, r, http.StatusTooManyRequests, "rate_limited", "Rate limit exceeded, retry after "+delay.Round(time.Second).String())
				return
			}
			w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(int(limiter.Tokens())))
			next.ServeHTTP(w, r)
		})
	}
}
