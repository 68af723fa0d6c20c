// Package auth implements API key and session authentication.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"math/big"
	"net/http"
	"slices"
	"strings"

	"github.com/yourorg/notes-api/internal/httpx"
	"github.com/yourorg/notes-api/internal/store/db"
)

const (
	keyPrefix   = "sk_live_"
	lookupLen   = 8
	secretLen   = 43 // ~256 bits in base62
	base62Chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

type ctxKey struct{}

// Key is the authenticated API key stored in the request context.
type Key struct {
	ID        int64
	AccountID int64
	Scopes    []string
	RateLimit float64
}

func FromContext(ctx context.Context) (Key, bool) {
	key, ok := ctx.Value(ctxKey{}).(Key)
	return key, ok
}

// Generate returns the full key (shown once), its lookup id and the hash to store.
func Generate() (full, lookup string, hash []byte, err error) {
	lookup, err = randomString(lookupLen)
	if err != nil {
		return "", "", nil, err
	}
	secret, err := randomString(secretLen)
	if err != nil {
		return "", "", nil, err
	}
	sum := sha256.Sum256([]byte(secret))
	return keyPrefix + lookup + "_" + secret, lookup, sum[:], nil
}

func parse(header string) (lookup, secret string, err error) {
	token, ok := strings.CutPrefix(header, "Bearer ")
	if !ok {
		return "", "", errors.New("missing bearer token")
	}
	rest, ok := strings.CutPrefix(token, keyPrefix)
	if !ok {
		return "", "", errors.New("not an API key")
	}
	lookup, secret, ok = strings.Cut(rest, "_")
	if !ok || len(lookup) != lookupLen || secret == "" {
		return "", "", errors.New("malformed API key")
	}
	return lookup, secret, nil
}

// APIKey authenticates requests with "Authorization: Bearer sk_live_<lookup>_<secret>".
func APIKey(q *db.Queries) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			lookup, secret, err := parse(r.Header.Get("Authorization"))
			if err != nil {
				httpx.Error(w, r, http.StatusUnauthorized, "unauthenticated", err.Error())
				return
			}
			row, err := q.GetActiveKeyByLookup(r.Context(), lookup)
			sum := sha256.Sum256([]byte(secret))
			if err != nil || subtle.ConstantTimeCompare(sum[:], row.SecretHash) != 1 {
				httpx.Error(w, r, http.StatusUnauthorized, "unauthenticated", "unknown or revoked API key")
				return
			}
			key := Key{ID: row.ID, AccountID: row.AccountID, Scopes: row.Scopes, RateLimit: row.RateLimit}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, key)))
		})
	}
}

// RequireScope rejects keys without the given scope. "admin" implies every scope.
func RequireScope(scope string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key, ok := FromContext(r.Context())
			if !ok || !(slices.Contains(key.Scopes, scope) || slices.Contains(key.Scopes, "admin")) {
				httpx.Error(w, r, http.StatusForbidden, "insufficient_scope", "this key needs the "+scope+" scope")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func randomString(n int) (string, error) {
	out := make([]byte, n)
	max := big.NewInt(int64(len(base62Chars)))
	for i := range out {
		idx, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", err
		}
		out[i] = base62Chars[idx.Int64()]
	}
	return string(out), nil
}
