#!/usr/bin/env bash
# Builds the page that is served: Public/ (readable sources, served as they are in development)
# into .build/public, each script and stylesheet an HTML file links bundled into one minified
# file of the same name by esbuild (Debian's package), every other file copied.
#   scripts/build-public.sh [OUT]     default OUT: .build/public
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-.build/public}")
command -v esbuild >/dev/null || scripts/install-deps.sh build

# The entry points: what the pages link (src="/x.js", href="/demo/y.css"), and the modules a
# script loads only when asked (import('/demo/panel.js'), import('./texts-zh.js')): those stay
# files of their own, at the same path, which the bundles import by the name written, so that
# only who needs one fetches it. A relative name is read from the importing file's folder, so it
# holds only where that file is bundled into a script of the same folder (i18n.js into feed.js,
# demo/texts.js into demo/panel.js); a module bundled into a script of another folder names
# what it loads from the top (demo/button.js, in feed.js: /demo/panel.js).
mapfile -t entries < <(grep -ohE '(src|href)="/[^"]+\.(js|css)"' Public/*.html | sed -E 's/.*"\/(.*)"/\1/' | sort -u)
lazy=() lazy_files=()
while IFS=: read -r file name; do
  lazy+=("$name")
  case $name in
    /*) lazy_files+=("Public$name") ;;
    *) lazy_files+=("$(realpath -m --relative-to=. "$(dirname "$file")/$name")") ;;
  esac
done < <(grep -roE "import\('\.{0,2}/[^']+\.js'\)" Public --include='*.js' | sed -E "s/import\('(.*)'\)/\1/")
mapfile -t lazy < <(printf '%s\n' "${lazy[@]}" | sort -u)
mapfile -t lazy_files < <(printf '%s\n' "${lazy_files[@]}" | sort -u)

rm -rf "$out"
mkdir -p "$out"
# Everything but scripts and stylesheets goes as it is; those are only reached through an entry.
(cd Public && find . -type f ! -name '*.js' ! -name '*.css' ! -name '.*' -exec cp -p --parents {} "$out"/ \;)
# No source map: the readable source is Public/ itself.
esbuild --bundle --minify --format=esm --target=es2022 --charset=utf8 --log-level=warning \
  "${lazy[@]/#/--external:}" --outbase=Public --outdir="$out" "${entries[@]/#/Public/}" "${lazy_files[@]}"
# Each page carries its bundled stylesheet inside it: a linked one is a second round trip before
# the first paint (on a phone's 150 ms network, most of the wait). The server's content policy
# allows each <style> by its hash. The files stay, for a page of someone else's that links them.
scripts/inline-styles.py "$out"
