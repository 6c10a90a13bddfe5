#!/usr/bin/env bash
# Builds the page that is served: Public/ (readable sources, served as they are in development)
# into .build/public, each script and stylesheet an HTML file links bundled into one minified
# file of the same name by esbuild (Debian's package), every other file copied.
#   scripts/build-public.sh [OUT]     default OUT: .build/public
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/public}
command -v esbuild >/dev/null || scripts/install-deps.sh build

# The entry points: what the pages link from this folder (src="/x.js", href="/x.css"), and the
# modules a script loads only when asked (import('./x.js')): those stay files of their own, which
# the bundles import by the same name, so that only who needs one fetches it.
mapfile -t entries < <(grep -ohE '(src|href)="/[^"/]+\.(js|css)"' Public/*.html | sed -E 's/.*"\/(.*)"/\1/' | sort -u)
mapfile -t lazy < <(grep -ohE "import\('\./[^'/]+\.js'\)" Public/*.js | sed -E "s/.*'\.\/(.*)'.*/\1/" | sort -u)

rm -rf "$out"
mkdir -p "$out"
# Everything but scripts and stylesheets goes as it is; those are only reached through an entry.
find Public -maxdepth 1 -type f ! -name '*.js' ! -name '*.css' ! -name '.*' -exec cp -p {} "$out"/ \;
# No source map: the readable source is Public/ itself.
esbuild --bundle --minify --format=esm --target=es2022 --charset=utf8 --log-level=warning \
  "${lazy[@]/#/--external:./}" --outdir="$out" "${entries[@]/#/Public/}" "${lazy[@]/#/Public/}"
# Each page carries its bundled stylesheet inside it: a linked one is a second round trip before
# the first paint (on a phone's 150 ms network, most of the wait). The server's content policy
# allows each <style> by its hash. The files stay, for a page of someone else's that links them.
scripts/inline-styles.py "$out"
