#!/usr/bin/env bash
# Refreshes package-lock.json after a dependency change (run it after merging branches that touched
# package.json), then proves `npm ci` accepts the lock in a clean clone of the working tree.
#   scripts/refresh-lock.sh
set -euo pipefail
cd "$(dirname "$0")/.."
npm install --package-lock-only --no-audit --no-fund
node scripts/complete-lock.mjs
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The working tree as it is (committed or not), without node_modules.
git ls-files -co --exclude-standard -z | xargs -0 -I{} cp --parents {} "$scratch" 2>/dev/null || true
cp package-lock.json "$scratch/"
(cd "$scratch" && npm ci --dry-run --no-audit --no-fund >/dev/null)
echo "refresh-lock: npm ci accepts the lock"
