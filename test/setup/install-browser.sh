#!/usr/bin/env bash
# The report's browser test drives Debian's chromium (no browser downloads): install it when it is missing.
# CI runs as root; elsewhere, install it yourself (sudo apt-get install chromium) or set LEDGERPIPE_CHROMIUM.
set -euo pipefail
browser="${LEDGERPIPE_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$browser" ]; then exit 0; fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "test setup: $browser is missing; install Debian's chromium (sudo apt-get install chromium) or set LEDGERPIPE_CHROMIUM" >&2
exit 1
