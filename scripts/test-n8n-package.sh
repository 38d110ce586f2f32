#!/usr/bin/env bash
# The n8n package as users get it: packs packages/n8n-nodes-magnifinance (built by npm run build)
# into artifacts/ (the release artefact: the file users install until the package is on npm; the
# folder is git-ignored and kept after the run), installs that tgz into a clean temp folder once with
# n8n-workflow 1.x and once with the latest 2.x, and runs the node test files against the sandbox
# through the harness, which then loads the node, the credential and n8n-workflow from that install
# (MAGNIFINANCE_N8N_PACKAGE).
#   scripts/test-n8n-package.sh            (after npm run build)
# Install scripts are skipped (--ignore-scripts), as n8n's own installer does: n8n-workflow 2.x
# pulls isolated-vm, a native module that needs Node 24 to build; the node never loads it.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
artifacts="$repo/artifacts"
mkdir -p "$artifacts"
rm -f "$artifacts"/n8n-nodes-magnifinance-*.tgz
(cd packages/n8n-nodes-magnifinance && npm pack --pack-destination "$artifacts" --loglevel=error >/dev/null)
tgz="$(ls "$artifacts"/n8n-nodes-magnifinance-*.tgz)"
scripts/check-n8n-package.sh "$tgz"
for major in 1 2; do
  dir="$work/n8n-workflow-$major"
  mkdir -p "$dir" && echo '{"private":true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error "$tgz" "n8n-workflow@$major" >/dev/null)
done
# The two installs' node tests run side by side: most of their time is the service's real 10 s wait
# before Get Document, not CPU (issue 29.5): four workers each, eight test files waiting at once.
# Each log is printed whole once both are done.
pids=()
for major in 1 2; do
  dir="$work/n8n-workflow-$major"
  version="$(node -p "require('$dir/node_modules/n8n-workflow/package.json').version")"
  echo "== node tests against the installed package with n8n-workflow $version" > "$work/jest-$major.log"
  MAGNIFINANCE_N8N_PACKAGE="$dir/node_modules/n8n-nodes-magnifinance" npx jest test/nodes --maxWorkers=4 >> "$work/jest-$major.log" 2>&1 &
  pids+=("$!")
done
failed=0
for i in 0 1; do
  wait "${pids[$i]}" || failed=1
  cat "$work/jest-$((i + 1)).log"
done
[ "$failed" -eq 0 ] || { echo "node tests failed against the installed package (above)"; exit 1; }
echo "== release artefact: ${tgz#"$repo"/}"
