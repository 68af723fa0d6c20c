// Package config reads the server configuration from environment variables.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
)

type Config struct {
	DatabaseURL      string
	HTTPAddr         string
	SessionSecret    string
	CORSOrigins      []string
	MigrateOnStart   bool
	LogLevel         slog.Level
	DefaultRateLimit float64
}

func Load() (Config, error) {
	cfg := Config{
		DatabaseURL:   os.Getenv("DATABASE_URL"),
		HTTPAddr:      getenv("HTTP_ADDR", ":8080"),
		SessionSecret: os.Getenv("SESSION_SECRET"),
	}
	var errs []error
	if cfg.DatabaseURL == "" {
		errs = append(errs, errors.New("DATABASE_URL is required"))
	}
	if len(cfg.SessionSecret) < 32 {
		errs = append(errs, errors.New("SESSION_SECRET must be at least 32 characters"))
	}
	if origins := os.Getenv("CORS_ORIGINS"); origins != "" {
		cfg.CORSOrigins = strings.Split(origins, ",")
	}
	cfg.MigrateOnStart = os.Getenv("MIGRATE_ON_START") == "true"
	if err := cfg.LogLevel.UnmarshalText([]byte(getenv("LOG_LEVEL", "info"))); err != nil {
		errs = append(errs, fmt.Errorf("LOG_LEVEL: %w", err))
	}
	limit, err := strconv.ParseFloat(getenv("DEFAULT_RATE_LIMIT", "10"), 64)
	if err != nil || limit <= 0 {
		errs = append(errs, errors.New("DEFAULT_RATE_LIMIT must be a positive number"))
	}
	cfg.DefaultRateLimit = limit
	return cfg, errors.Join(errs...)
}

func getenv(key, fallback string) string {
	if value, ok := os.LookupEnv(key); ok && value != "" {
		return value
	}
	return fallback
}
