#!/usr/bin/env bash
# The package as an app installs it: `npm pack`, then a fresh Vite react-ts app in a temporary folder
# (scripts/ci/consumer-app: create-vite's template with its strictest settings, plus
# exactOptionalPropertyTypes and noUncheckedIndexedAccess, and the package's declarations checked)
# installs the tarball and uses the typed surface (createMirror, MirrorProvider, useLiveQuery over
# db.customers, useSave with a create and an update, useRecordSyncState, status, syncNow with a
# signal, and a misspelt field that must not compile); then `tsc -b` and `vite build`.
# SKIP_BUILD=1 packs the dist/ already built (`npm run check:package` builds it just before, in .ci/run).
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS

[ "${SKIP_BUILD:-}" = 1 ] || npm run --silent build >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(npm pack --silent --pack-destination "$work" | tail -1)
cp -R scripts/ci/consumer-app "$work/app"
node -e '
  const fs = require("node:fs");
  const [file, tarball] = process.argv.slice(1);
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.dependencies["pos-cloud-mirror"] = `file:${tarball}`;
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$work/app/package.json" "$work/$tarball"

cd "$work/app"
npm install --no-audit --no-fund --loglevel=error >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; echo "consumer check: npm install failed" >&2; exit 1; }
npx --no-install tsc -b || { echo "consumer check: tsc -b failed on the app above (its types come from the packed $tarball)" >&2; exit 1; }
# Errors only: the app's one chunk holds the library with dexie, ky and zod, past Vite's 500 kB hint; its size is printed below.
npx --no-install vite build --logLevel error || { echo "consumer check: vite build failed" >&2; exit 1; }
bytes=$(cat dist/assets/*.js | wc -c)
echo "consumer check: $tarball installed into a fresh Vite react-ts app; tsc -b and vite build passed, $((bytes / 1024)) KiB of script ($((SECONDS - started)) s)"
