#!/usr/bin/env bash
# Build the Linux one-folder bundle of OFC Desk and pack it as a tarball with a .desktop file and icon.
#
#   installer/build.sh           build installer/out/ofc-desk-VERSION-linux-ARCH.tar.gz
#   installer/build.sh --check   build it, then run the bundled program: --version, `score` on the
#                                shipped example deal, `replay` + `verify` of the shipped example script
#                                on a scratch database, its session report as PDF, the desk (on that
#                                database) started offscreen, and `demo --smoke-test`, which exits 0
#                                once the demo table is drawn.
#
# Uses the project's .venv (or $PYTHON); installs PyInstaller there if it is missing.
# CHECK_POSTGRES_URL=postgresql+psycopg://user@host/empty_db also replays and verifies the example
# script on that (empty) PostgreSQL database with the bundled psycopg.
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

say() { printf '\n== %s\n' "$*"; }
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
    tar -C "$OUT" -czf "$TARBALL" "$PACKAGE"
}

check_bundle() {
    local program="$OUT/$PACKAGE/$NAME" scratch
    scratch="$(mktemp -d)"
    # shellcheck disable=SC2064  # expand now: the folder is removed however the script ends
    trap "rm -rf '$scratch'" EXIT
    # Keep the check away from the real user's settings and default database.
    export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache"
    export QT_QPA_PLATFORM=offscreen
    local database="sqlite:///$scratch/check.db"

    say "--version"
    local reported
    reported="$("$program" --version)" || fail "--version exited $?"
    [ "$reported" = "$NAME $VERSION" ] || fail "--version said '$reported', expected '$NAME $VERSION'"
    echo "$reported"

    say "score resources/examples/score-deal.json"
    "$program" score "$EXAMPLES/score-deal.json" >"$scratch/score.json" || fail "score exited $?"
    "$PYTHON" "$ROOT/installer/compare_examples.py" score "$scratch/score.json" \
        "$EXAMPLES/score-deal-expected.json" || fail "score differs from score-deal-expected.json"
    echo "matches score-deal-expected.json"

    say "replay resources/examples/replay-pineapple-4-hands.json on a scratch database"
    "$program" replay "$EXAMPLES/replay-pineapple-4-hands.json" --db "$database" >"$scratch/replay.json" \
        || fail "replay exited $?"
    "$PYTHON" "$ROOT/installer/compare_examples.py" replay "$scratch/replay.json" \
        "$EXAMPLES/replay-pineapple-4-hands-expected.json" || fail "replay differs from its expected figures"
    echo "matches replay-pineapple-4-hands-expected.json"

    say "verify the scratch database"
    "$program" verify --db "$database" || fail "verify exited $?"

    say "session report of the scratch database"
    "$program" report --db "$database" --out "$scratch/session.pdf" || fail "report exited $?"
    [ "$(head -c 5 "$scratch/session.pdf")" = "%PDF-" ] || fail "report wrote no PDF"
    echo "session.pdf: $(du -h "$scratch/session.pdf" | cut -f1)"

    if [ -n "${CHECK_POSTGRES_URL:-}" ]; then
        say "replay and verify on PostgreSQL"
        "$program" replay "$EXAMPLES/replay-pineapple-4-hands.json" --db "$CHECK_POSTGRES_URL" \
            >"$scratch/replay-postgres.json" || fail "replay on PostgreSQL exited $?"
        "$PYTHON" "$ROOT/installer/compare_examples.py" replay "$scratch/replay-postgres.json" \
            "$EXAMPLES/replay-pineapple-4-hands-expected.json" || fail "replay on PostgreSQL differs"
        "$program" verify --db "$CHECK_POSTGRES_URL" || fail "verify on PostgreSQL exited $?"
    fi

    say "the desk, offscreen, on the scratch database"
    check_desk "$scratch" desk "$program" --db "$database"
    say "the demo table, offscreen, until it is drawn (demo --smoke-test)"
    "$program" demo --smoke-test 2>"$scratch/smoke.err" || {
        cat "$scratch/smoke.err" >&2
        fail "the desk did not draw the demo table"
    }
}

# Start the bundled desk with the given arguments; it must still be running (waiting for the dealer)
# after DESK_SECONDS and must not have printed a traceback.
check_desk() {
    local scratch="$1" label="$2"
    shift 2
    "$@" >"$scratch/$label.out" 2>"$scratch/$label.err" &
    local desk_pid=$! status=0
    sleep "$DESK_SECONDS"
    if ! kill -0 "$desk_pid" 2>/dev/null; then
        wait "$desk_pid" || status=$?
        cat "$scratch/$label.err" >&2
        fail "$label exited (status $status) within ${DESK_SECONDS}s instead of waiting for the dealer"
    fi
    kill "$desk_pid"
    wait "$desk_pid" 2>/dev/null || true
    if grep -q "Traceback" "$scratch/$label.err"; then
        cat "$scratch/$label.err" >&2
        fail "$label raised an exception"
    fi
    echo "$label started and was still running after ${DESK_SECONDS}s"
}

NAME="$(project_field name)"
VERSION="$(project_field version)"
PACKAGE="$NAME-$VERSION-linux-$(uname -m)"
TARBALL="$OUT/$PACKAGE.tar.gz"

started=$SECONDS
prepare_python
say "building $PACKAGE"
build_bundle
built=$SECONDS
if $check; then
    check_bundle
fi
say "done"
echo "tarball:     $TARBALL ($(du -h "$TARBALL" | cut -f1))"
echo "bundle size: $(du -sh "$OUT/$PACKAGE" | cut -f1) unpacked"
echo "build time:  $((built - started))s; total with checks: $((SECONDS - started))s"
