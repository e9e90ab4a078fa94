#!/usr/bin/env bash
# Installs the pinned n8n into a cache folder outside the package's own
# node_modules, once. Re-running is cheap: an install that loads is reused.
set -euo pipefail
N8N_VERSION="${N8N_VERSION:-2.8.4}"
CACHE_ROOT="${PAYONUS_N8N_CACHE:-$HOME/.cache/n8n-nodes-payonus}"
DIR="$CACHE_ROOT/n8n-$N8N_VERSION"
BIN="$DIR/node_modules/.bin/n8n"

ok() {
  [ -x "$BIN" ] && (cd "$DIR" && node -e "require('sqlite3')" >/dev/null 2>&1)
}

if ok; then
  echo "n8n $N8N_VERSION ready in $DIR"
  exit 0
fi

mkdir -p "$DIR"
cd "$DIR"
cat > package.json <<JSON
{
  "name": "payonus-n8n-runtime",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "xlsx": "0.18.5" }
}
JSON
echo "installing n8n $N8N_VERSION into $DIR (takes several minutes the first time)"
npm install --no-audit --no-fund --loglevel=error
if ! node -e "require('sqlite3')" >/dev/null 2>&1; then
  echo "building sqlite3 from source"
  npm rebuild sqlite3 --loglevel=error
fi
node -e "require('sqlite3')"
[ -x "$BIN" ]
echo "n8n $N8N_VERSION ready in $DIR"
