#!/usr/bin/env bash
# Build the Linux one-folder bundle of OFC Desk and pack it as a tarball with a .desktop file and icon.
#
#   installer/build.sh           build installer/out/ofc-desk-VERSION-linux-ARCH.tar.gz
#   installer/build.sh --check   build it, then run the bundled program: --version; an import of every
#                                native module of the desk's dependencies (installer/bundle_contents.py);
#                                `score` on the shipped example deal; `replay` + `verify` of the shipped
#                                example script on a scratch database and its session report as PDF;
#                                the sign-in: that script replayed with a dealer and a supervisor
#                                account, then again with --resume, which signs both in by PIN; the
#                                desk (on the first database) started offscreen; and `demo --smoke-test`,
#                                which exits 0 once the demo table is drawn.
#
# Uses the project's .venv (or $PYTHON); installs PyInstaller there if it is missing.
# CHECK_POSTGRES_URL=postgresql+psycopg://user@host/empty_db also does the sign-in step (accounts,
# replay, --resume, verify) on that (empty) PostgreSQL database with the bundled psycopg.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/installer/out"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
EXAMPLES="$ROOT/resources/examples"
DESK_SECONDS="${DESK_SECONDS:-10}"

check=false
case "${1:-}" in
    "") ;;
    --check) check=true ;;
    *) echo "usage: installer/build.sh [--check]" >&2; exit 2 ;;
esac

say() { printf '\n== %s  [%ss]\n' "$*" "$((SECONDS - started))"; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

project_field() {
    "$PYTHON" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"][sys.argv[2]])' \
        "$ROOT/pyproject.toml" "$1"
}

prepare_python() {
    [ -x "$PYTHON" ] || fail "no Python at $PYTHON (create the venv as the README says, or set PYTHON)"
    "$PYTHON" -m PyInstaller --version >/dev/null 2>&1 || "$PYTHON" -m pip install -q "pyinstaller>=6.6"
    local installed
    installed="$("$PYTHON" -c 'from importlib.metadata import version; print(version("ofc-desk"))' 2>/dev/null || true)"
    if [ "$installed" != "$VERSION" ]; then
        # The bundle reports the installed metadata's version, so refresh it when pyproject moved on.
        "$PYTHON" -m pip install -q --no-deps -e "$ROOT"
    fi
}

build_bundle() {
    rm -rf "$OUT/build" "$OUT/dist" "$OUT/$PACKAGE" "$TARBALL"
    "$PYTHON" -m PyInstaller --noconfirm --log-level WARN \
        --distpath "$OUT/dist" --workpath "$OUT/build" "$ROOT/installer/ofc-desk.spec"
    mkdir -p "$OUT/$PACKAGE"
    cp -a "$OUT/dist/$NAME/." "$OUT/$PACKAGE/"
    cp "$ROOT/resources/ofc-desk.desktop" "$OUT/$PACKAGE/ofc-desk.desktop"
    cp "$ROOT/resources/icons/ofc-desk-256.png" "$OUT/$PACKAGE/ofc-desk.png"
    cp "$ROOT/installer/install-linux.sh" "$OUT/$PACKAGE/install.sh"
}

# gzip keeps one core busy for a while: pack the tarball in the background while the check runs.
start_tarball() {
    tar -C "$OUT" -czf "$TARBALL" "$PACKAGE" &
    tar_pid=$!
}

# However the script ends: stop a desk the check started, remove the check's scratch folder, and on
# a failure stop packing and remove the half-written tarball.
clean_up() {
    if [ -n "$desk_pid" ]; then kill "$desk_pid" 2>/dev/null || true; fi
    if [ -n "$scratch" ]; then rm -rf "$scratch"; fi
    if [ -n "$tar_pid" ]; then
        kill "$tar_pid" 2>/dev/null || true
        wait "$tar_pid" 2>/dev/null || true
        rm -f "$TARBALL"
    fi
}

check_bundle() {
    local program="$OUT/$PACKAGE/$NAME"
    scratch="$(mktemp -d)"
    # Keep the check away from the real user's settings and default database.
    export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache"
    export QT_QPA_PLATFORM=offscreen
    local database="sqlite:///$scratch/check.db"

    say "--version"
    local reported
    reported="$("$program" --version)" || fail "--version exited $?"
    [ "$reported" = "$NAME $VERSION" ] || fail "--version said '$reported', expected '$NAME $VERSION'"
    echo "$reported"

    say "every native module of the desk's dependencies imports in the bundle"
    "$PYTHON" "$ROOT/installer/bundle_contents.py" "$program" || fail "the bundle lacks native modules"

    say "score resources/examples/score-deal.json"
    "$program" score "$EXAMPLES/score-deal.json" >"$scratch/score.json" || fail "score exited $?"
    "$PYTHON" "$ROOT/installer/compare_examples.py" score "$scratch/score.json" \
        "$EXAMPLES/score-deal-expected.json" || fail "score differs from score-deal-expected.json"
    echo "matches score-deal-expected.json"

    say "replay resources/examples/replay-pineapple-4-hands.json on a scratch database (built-in dealer)"
    replay_matches replay "$EXAMPLES/replay-pineapple-4-hands.json" "$database"

    say "verify the scratch database"
    "$program" verify --db "$database" || fail "verify exited $?"

    say "session report of the scratch database"
    "$program" report --db "$database" --out "$scratch/session.pdf" || fail "report exited $?"
    [ "$(head -c 5 "$scratch/session.pdf")" = "%PDF-" ] || fail "report wrote no PDF"
    echo "session.pdf: $(du -h "$scratch/session.pdf" | cut -f1)"

    say "the desk, offscreen, on the scratch database (started now, checked after the steps below)"
    start_desk "$program" --db "$database"

    local accounts="$scratch/with-accounts.json"
    "$PYTHON" "$ROOT/installer/compare_examples.py" with-accounts "$EXAMPLES/replay-pineapple-4-hands.json" \
        "$accounts" || fail "could not write the example script with accounts"
    check_sign_in "$accounts" "sqlite:///$scratch/accounts.db" SQLite
    if [ -n "${CHECK_POSTGRES_URL:-}" ]; then
        check_sign_in "$accounts" "$CHECK_POSTGRES_URL" PostgreSQL
    fi

    say "the demo table, offscreen, until it is drawn (demo --smoke-test)"
    "$program" demo --smoke-test 2>"$scratch/smoke.err" || {
        cat "$scratch/smoke.err" >&2
        fail "the desk did not draw the demo table"
    }
    say "the desk started before, still waiting for the dealer"
    check_desk
}

# Replay a script on a database with the bundled program (more arguments go to replay) and compare its
# figures with the shipped example's. Uses check_bundle's program and scratch folder.
replay_matches() {
    local label="$1" script="$2" database="$3"
    shift 3
    "$program" replay "$script" --db "$database" "$@" >"$scratch/$label.json" || fail "$label exited $?"
    "$PYTHON" "$ROOT/installer/compare_examples.py" replay "$scratch/$label.json" \
        "$EXAMPLES/replay-pineapple-4-hands-expected.json" || fail "$label differs from its expected figures"
    echo "$label matches replay-pineapple-4-hands-expected.json"
}

# The sign-in path on an empty database: the replay creates the script's two accounts (keys sealed
# under their PINs, the dealer's approved by the supervisor's signature) and signs every hand; the
# replay with --resume finds the accounts and signs both in by PIN, as a desk does; verify checks it.
check_sign_in() {
    local accounts="$1" database="$2" label="$3"
    say "sign-in on $label: replay with a dealer and a supervisor account, again with --resume, verify"
    replay_matches "accounts-$label" "$accounts" "$database"
    replay_matches "sign-in-$label" "$accounts" "$database" --resume
    "$program" verify --db "$database" || fail "verify on $label exited $?"
}

# Start the bundled desk with the given arguments in the background; check_desk looks at it later.
start_desk() {
    "$@" >"$scratch/desk.out" 2>"$scratch/desk.err" &
    desk_pid=$!
    desk_started=$SECONDS
}

# The desk must still be running (waiting for the dealer) DESK_SECONDS after it started and must not
# have printed a traceback.
check_desk() {
    local status=0 left=$((DESK_SECONDS - (SECONDS - desk_started)))
    if [ "$left" -gt 0 ]; then sleep "$left"; fi
    if ! kill -0 "$desk_pid" 2>/dev/null; then
        wait "$desk_pid" || status=$?
        desk_pid=""
        cat "$scratch/desk.err" >&2
        fail "the desk exited (status $status) within ${DESK_SECONDS}s instead of waiting for the dealer"
    fi
    kill "$desk_pid"
    wait "$desk_pid" 2>/dev/null || true
    desk_pid=""
    if grep -q "Traceback" "$scratch/desk.err"; then
        cat "$scratch/desk.err" >&2
        fail "the desk raised an exception"
    fi
    echo "the desk started and was still running after ${DESK_SECONDS}s or more"
}

NAME="$(project_field name)"
VERSION="$(project_field version)"
PACKAGE="$NAME-$VERSION-linux-$(uname -m)"
TARBALL="$OUT/$PACKAGE.tar.gz"

started=$SECONDS
desk_pid="" scratch="" tar_pid=""
trap clean_up EXIT
prepare_python
say "building $PACKAGE"
build_bundle
built=$SECONDS
start_tarball
if $check; then
    check_bundle
fi
status=0
wait "$tar_pid" || status=$?
tar_pid=""
[ "$status" -eq 0 ] || { rm -f "$TARBALL"; fail "tar exited $status packing $TARBALL"; }
say "done"
echo "tarball:     $TARBALL ($(du -h "$TARBALL" | cut -f1))"
echo "bundle size: $(du -sh "$OUT/$PACKAGE" | cut -f1) unpacked"
echo "build time:  $((built - started))s; total with checks: $((SECONDS - started))s"
