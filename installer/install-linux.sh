#!/usr/bin/env bash
# Install (or remove) the unpacked OFC Desk bundle: the program folder, a command on PATH, and the
# menu entry with its icon. As root it installs for every user under /opt and /usr; otherwise for
# the current user under ~/.local. The dealer's data (database, settings) is never touched.
#
#   ./install.sh               install or upgrade from this folder
#   ./install.sh --uninstall   remove the program, the command and the menu entry
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ "$(id -u)" -eq 0 ]; then
    PROGRAM_DIR=/opt/ofc-desk BIN_DIR=/usr/local/bin SHARE_DIR=/usr/share
else
    PROGRAM_DIR="$HOME/.local/opt/ofc-desk" BIN_DIR="$HOME/.local/bin" SHARE_DIR="${XDG_DATA_HOME:-$HOME/.local/share}"
fi
DESKTOP_FILE="$SHARE_DIR/applications/ofc-desk.desktop"
ICON_FILE="$SHARE_DIR/icons/hicolor/256x256/apps/ofc-desk.png"

uninstall() {
    rm -rf "$PROGRAM_DIR"
    rm -f "$BIN_DIR/ofc-desk" "$DESKTOP_FILE" "$ICON_FILE"
    echo "OFC Desk removed. Each user's database and settings were kept:"
    echo "  ~/.local/share/ofc-desk and ~/.config/OFC Desk (delete them by hand only if no longer needed)."
}

install() {
    rm -rf "$PROGRAM_DIR.new"
    mkdir -p "$PROGRAM_DIR.new" "$BIN_DIR" "$(dirname "$DESKTOP_FILE")" "$(dirname "$ICON_FILE")"
    cp -a "$HERE/ofc-desk" "$HERE/_internal" "$PROGRAM_DIR.new/"
    # Swap in the new version only once it is completely copied.
    rm -rf "$PROGRAM_DIR"
    mv "$PROGRAM_DIR.new" "$PROGRAM_DIR"
    ln -sf "$PROGRAM_DIR/ofc-desk" "$BIN_DIR/ofc-desk"
    cp "$HERE/ofc-desk.png" "$ICON_FILE"
    sed "s|^Exec=.*|Exec=$PROGRAM_DIR/ofc-desk|" "$HERE/ofc-desk.desktop" >"$DESKTOP_FILE"
    echo "OFC Desk installed in $PROGRAM_DIR; start it from the menu or with: $BIN_DIR/ofc-desk"
}

case "${1:-}" in
    "") install ;;
    --uninstall) uninstall ;;
    *) echo "usage: ./install.sh [--uninstall]" >&2; exit 2 ;;
esac
