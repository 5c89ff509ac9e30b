#!/usr/bin/env bash
# Sets up orgreport on a fresh machine with Node 20.19+ and apt. Safe to run again.
#   - installs the pinned pnpm (its standalone executable) when it is missing (corepack's signature check fails here)
#   - installs the workspace's dependencies exactly as locked
#   - installs Chromium and its headless shell (for PDFs), fonts, poppler, openpyxl, LibreOffice Calc and Postgres (for tests) from apt when missing
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
fail() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

# Node
command -v node >/dev/null || fail "Node.js 20.19 or newer is required: https://nodejs.org/"
node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
  || fail "Node.js $(node -v) is too old: orgreport needs 20.19 or newer."

# pnpm, the exact version named in package.json, as pnpm's standalone executable (@pnpm/exe): it
# starts in half the time of the JavaScript package (about 0.2 s against 0.4 s), which every
# `pnpm exec orgreport` pays. --force: its `pnpm` takes the place of another global pnpm's.
pnpm_version=$(node -p 'require("./package.json").packageManager.split("@")[1]')
standalone_pnpm() {
  local bin
  bin=$(command -v pnpm 2>/dev/null) || return 1
  case "$(readlink -f "$bin")" in "$(npm root --global)/@pnpm/exe/"*) ;; *) return 1 ;; esac
  [ "$(pnpm --version 2>/dev/null || true)" = "$pnpm_version" ]
}
if ! standalone_pnpm; then
  say "installing pnpm $pnpm_version (standalone)"
  # npm's output only when it fails (it warns of the package's install script, which links the binary).
  if ! npm_output=$(npm install --global --force --loglevel=error "@pnpm/exe@$pnpm_version" 2>&1); then
    printf '%s\n' "$npm_output" >&2
    fail "could not install pnpm $pnpm_version; run: npm install --global @pnpm/exe@$pnpm_version"
  fi
  hash -r
  standalone_pnpm || fail "pnpm on the PATH ($(command -v pnpm)) is not the one just installed in $(npm prefix --global)/bin: put that folder first on the PATH"
fi
hash -r

# System packages: Chromium renders the PDF; fonts make it readable; poppler, openpyxl and LibreOffice check outputs in tests;
# Postgres serves the tests of the ledger on Postgres.
missing=()
# ORGREPORT_CHROMIUM names another Chromium or Chrome binary; else Debian's packages are used: the
# headless shell prints the PDF (faster to start and print), the full Chromium is what tests compare with.
chromium=${ORGREPORT_CHROMIUM:-/usr/bin/chromium-headless-shell}
[ -n "${ORGREPORT_CHROMIUM:-}" ] || [ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
[ -n "${ORGREPORT_CHROMIUM:-}" ] || [ -x /usr/bin/chromium ] || missing+=(chromium)
[ -f /usr/share/fonts/truetype/noto/NotoSans-Regular.ttf ] || missing+=(fonts-noto-core)
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
command -v qpdf >/dev/null || missing+=(qpdf)
/usr/bin/python3 -c 'import openpyxl' 2>/dev/null || missing+=(python3-openpyxl)
# Postgres for the tests of the ledger on Postgres: each test file starts a cluster of its own.
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
# LibreOffice recalculates the workbook's formulas in a test (headless, no GUI libraries).
command -v soffice >/dev/null || missing+=(libreoffice-calc-nogui)
if [ ${#missing[@]} -gt 0 ]; then
  # As root, or through sudo when it needs no password (CI runners); otherwise say what to run.
  if [ "$(id -u)" = 0 ]; then as_root=(env); elif sudo -n true 2>/dev/null; then as_root=(sudo -n env); else as_root=(); fi
  if [ ${#as_root[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    say "installing ${missing[*]} from apt"
    "${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    "${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    fail "missing system packages; run: sudo apt-get install -y ${missing[*]} (then run this script again)"
  fi
fi

say "installing dependencies (pnpm install --frozen-lockfile)"
pnpm install --frozen-lockfile --reporter=silent

# The orgreport command runs its build: faster to start and to run than the TypeScript sources
# (a developer runs those with ORGREPORT_FROM_SOURCE=1). turbo rebuilds only what changed.
say "building the orgreport command (pnpm turbo run build)"
pnpm turbo run build --filter=@orgreport/cli... --output-logs=errors-only >/dev/null \
  || fail "the build failed; run: pnpm turbo run build --filter=@orgreport/cli..."

# Check the result.
"$chromium" --version >/dev/null 2>&1 || fail "$chromium does not start (set ORGREPORT_CHROMIUM to a working Chromium)"
pnpm exec orgreport --version >/dev/null || fail "the orgreport command does not run"
say "ready: pnpm $(pnpm --version), $("$chromium" --version 2>/dev/null | head -1)"
