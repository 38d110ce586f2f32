#!/usr/bin/env bash
# Checks the n8n package the way n8n does, offline, on the packed tgz:
#  1. @n8n/scan-community-package's ESLint checks (its exported analyzePackage, the same config as
#     `npx @n8n/scan-community-package`): the tarball leg on the unpacked tgz (**/*.js, package.json)
#     and the source leg on package.json + nodes/ + credentials/. The CLI itself also demands npm
#     provenance and downloads the GitHub source of a *published* version: impossible before
#     publishing and without GitHub access, so those two steps are not run here.
#  2. `n8n-node lint` (@n8n/node-cli, strict mode, its default eslint.config.mjs) in a package
#     folder holding the TypeScript sources that the bundle is built from.
#  3. The publishing fields: package.json's `author`, `homepage` and `repository` still hold the
#     placeholders written when the package was created (no true maintainer or public repository is
#     known yet). They must be filled before `npm publish`: this step names them; with --publish it
#     fails on them (run it so before publishing).
# Tools are installed once into a temp folder (pinned versions), not into the project.
#   scripts/check-n8n-package.sh [--publish] path/to/n8n-nodes-magnifinance-<version>.tgz
set -euo pipefail
publish=0
if [ "${1:-}" = "--publish" ]; then publish=1; shift; fi
repo="$(cd "$(dirname "$0")/.." && pwd)"
tgz="$(realpath "$1")"
SCANNER=@n8n/scan-community-package@0.32.0
NODE_CLI=@n8n/node-cli@0.48.3
# The scanner 0.32.0 depends on typescript 7.0.2, the native compiler without the JavaScript API
# that its ESLint parser (@typescript-eslint) loads ("Cannot read properties of undefined (reading
# 'Intrinsic')"): TypeScript is pinned to a 5.x for every tool in the folder.
TYPESCRIPT=5.8.3
tools="${TMPDIR:-/tmp}/n8n-package-tools-0.32.0-0.48.3-ts$TYPESCRIPT"
if [ ! -f "$tools/done" ]; then
  mkdir -p "$tools" && echo "{\"private\":true,\"overrides\":{\"typescript\":\"$TYPESCRIPT\"}}" > "$tools/package.json"
  (cd "$tools" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error "$SCANNER" "$NODE_CLI" zod n8n-workflow@1 >/dev/null)
  touch "$tools/done"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== @n8n/scan-community-package checks (tarball and sources)"
mkdir -p "$work/tarball" "$work/source"
tar -xzf "$tgz" -C "$work/tarball" --strip-components=1
cp "$work/tarball/package.json" "$work/source/"
cp -r "$repo/nodes" "$repo/credentials" "$work/source/"
cat > "$tools/scan.mjs" <<'JS'
import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';
let failed = false;
for (const [label, dir, patterns] of [
  ['tarball', process.argv[2], ['**/*.js', 'package.json']],
  ['source', process.argv[3], SOURCE_FILE_PATTERNS],
]) {
  const result = await analyzePackage(dir, patterns);
  console.log(`${result.passed ? 'passed' : 'FAILED'}: ${label} leg${result.message ? ` (${result.message})` : ''}`);
  if (result.details) console.log(result.details);
  failed ||= !result.passed;
}
process.exit(failed ? 1 : 0);
JS
node "$tools/scan.mjs" "$work/tarball" "$work/source"

echo "== n8n-node lint (@n8n/node-cli)"
lint="$work/lint"
mkdir -p "$lint"
cp "$work/tarball/package.json" "$lint/"
# The package's own sources, nodes/ and credentials/, are what n8n-node lint checks (as in any n8n
# package). The shared code they import (bundled into dist/: client/, law/, platforms/, webhooks/,
# and connector/ for the order meta keys the node shares with the connector) is symlinked so imports
# resolve; ESLint does not walk into symlinked folders, so it is not linted as node code (it belongs
# to the main package and its own lint). No source file is changed for the check.
cp -r "$repo/nodes" "$repo/credentials" "$lint/"
for shared in client law platforms webhooks connector; do ln -s "$repo/$shared" "$lint/$shared"; done
printf "import { config } from '@n8n/node-cli/eslint';\n\nexport default config;\n" > "$lint/eslint.config.mjs"
cat > "$lint/tsconfig.json" <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "strict": true, "esModuleInterop": true, "skipLibCheck": true, "types": [] }, "include": ["nodes", "credentials"] }
JSON
ln -s "$tools/node_modules" "$lint/node_modules"
(cd "$lint" && "$tools/node_modules/.bin/n8n-node" lint)

echo "== publishing fields (author, homepage, repository)"
# The placeholder values, exactly as packages/n8n-nodes-magnifinance/package.json was created.
if ! PUBLISH="$publish" node - "$work/tarball/package.json" <<'JS'
const manifest = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
const placeholders = {
  author: JSON.stringify({ name: 'MagniFinance WooCommerce connector team', email: 'faturacao@magnifinance.com' }),
  homepage: JSON.stringify('https://github.com/magnifinance/n8n-nodes-magnifinance#readme'),
  repository: JSON.stringify({ type: 'git', url: 'git+https://github.com/magnifinance/n8n-nodes-magnifinance.git' }),
};
const unfilled = Object.keys(placeholders).filter((field) => manifest[field] === undefined || JSON.stringify(manifest[field]) === placeholders[field]);
if (unfilled.length === 0) {
  console.log('filled: author, homepage and repository are not the placeholders');
} else {
  const message = `${unfilled.join(', ')} in packages/n8n-nodes-magnifinance/package.json ${unfilled.length === 1 ? 'is a placeholder' : 'are placeholders'}: fill ${unfilled.length === 1 ? 'it' : 'them'} with the real maintainer and public repository before npm publish`;
  if (process.env.PUBLISH === '1') {
    console.log(`NOT READY TO PUBLISH: ${message}`);
    process.exit(1);
  }
  console.log(`warning: ${message} (scripts/check-n8n-package.sh --publish fails on this)`);
}
JS
then
  exit 1
fi
echo "check-n8n-package: zero errors"
