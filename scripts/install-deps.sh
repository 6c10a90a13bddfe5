#!/usr/bin/env bash
# Installs what Pulldown needs on Debian, only where it is missing.
#   scripts/install-deps.sh build   libraries the server links against, and esbuild, which bundles the page
#   scripts/install-deps.sh test    the above, plus Chromium, Node, PostgreSQL, wrk, sqlite3 and stress-ng for
#                                   the tests, make test-repeat and make soak, and a Python virtual environment
#                                   with pinned packages
#   scripts/install-deps.sh bench   the above build set, plus wrk, nginx, Chromium, PostgreSQL, gcc and
#                                   valgrind (make bench, make instructions)
#   scripts/install-deps.sh postgres  the build set, plus PostgreSQL (make postgres-demo)
set -euo pipefail
cd "$(dirname "$0")/.."

want=(pkg-config libmicrohttpd-dev libsqlite3-dev zlib1g-dev libdeflate-dev nettle-dev libpq-dev libjansson-dev libqrencode-dev libpng-dev libgnutls28-dev esbuild)
case "${1:-build}" in
  build) ;;
  # postgresql: a throwaway cluster (scripts/postgres.sh) for the PostgreSQL store's tests.
  # wrk and sqlite3: load during the stop tests and make soak; reading a stopped server's database.
  # stress-ng: make test-repeat BUSY=K keeps every core busy with it.
  # zbar-tools: the start-up QR code is read back in a test.
  # libnss3-tools: certutil makes the NSS database through which Chromium trusts the --https root.
  test) want+=(chromium postgresql wrk sqlite3 stress-ng zbar-tools libnss3-tools) ;;
  postgres) want+=(postgresql) ;;
  bench) want+=(wrk nginx-light chromium postgresql gcc valgrind) ;;
  *) echo "usage: $0 build|test|bench|postgres" >&2; exit 2 ;;
esac
command -v node >/dev/null 2>&1 || [ "${1:-build}" != test ] || want+=(nodejs)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || want+=(python3-venv)

missing=()
for package in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "${1:-build}" = test ] || [ "${1:-build}" = bench ]; then
  requirements=Tests/live/requirements.txt
  stamp=.venv/.installed
  if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
  if [ ! -f "$stamp" ] || ! cmp -s "$requirements" "$stamp"; then
    .venv/bin/pip install -q --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$stamp"
  fi
  # pulldownkit/ (what the live tests, bench, soak and the screenshots share) is imported from the
  # repository root, which this puts on the environment's path.
  site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  echo "$PWD" > "$site/pulldown-repo.pth"
fi
