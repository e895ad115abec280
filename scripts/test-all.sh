#!/usr/bin/env bash
# The one test command (`npm test`): static checks, every Vitest project on the embedded database, the
# server suite again on PostgreSQL, the production build with its size budget, and Playwright in
# Chromium against the built app. It ends with one "N passed, N failed" line summing all runners.
set -euo pipefail
cd "$(dirname "$0")/.."

results_dir=$(mktemp -d)
trap 'rm -rf "$results_dir"' EXIT

step() { printf '\n=== %s\n' "$*"; }

step "typecheck"
npm run --silent typecheck

step "lint (biome)"
npx biome check .

step "unit, API and web tests (Vitest, embedded PGlite)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results_dir/vitest-pglite.json"

# The same server suite on a real PostgreSQL server. CI must have one; a developer without it is told.
pg_url="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
if node -e "const s=require('net').connect(5432,'127.0.0.1');s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1))"; then
  step "server tests on PostgreSQL ($pg_url)"
  TEST_DATABASE_URL="$pg_url" npx vitest run --project server --reporter=default --reporter=json \
    --outputFile.json="$results_dir/vitest-postgres.json"
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL is not reachable on 127.0.0.1:5432; CI needs it (see .ci/run)." >&2
  exit 1
else
  echo "PostgreSQL not reachable on 127.0.0.1:5432: the PostgreSQL run of the server suite is skipped." >&2
fi

step "build"
npm run --silent build

step "the login page's JavaScript as Chromium downloads it (budget 100 kB sent)"
node apps/web/scripts/check-bundle-size.mjs

step "end-to-end (Playwright, Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results_dir/playwright.json" npm run --silent test:e2e -w @portal/web

node scripts/sum-results.mjs "$results_dir"
