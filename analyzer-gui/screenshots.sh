#!/usr/bin/env bash
# Screenshots of the real window for the README: starts Xvfb (apt-get install xvfb libgtk-3-0 fonts-dejavu-core)
# unless DISPLAY is set, runs ScreenshotTest with JavaFX's GTK platform, and leaves the PNGs in docs/images/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=""
if [ -z "${DISPLAY:-}" ]; then
  command -v Xvfb >/dev/null || { echo "screenshots.sh: Xvfb is needed (apt-get install xvfb libgtk-3-0 fonts-dejavu-core)" >&2; exit 2; }
  Xvfb :97 -screen 0 1400x950x24 -nolisten tcp >/dev/null 2>&1 &
  started=$!
  trap 'kill "$started" 2>/dev/null || true' EXIT
  export DISPLAY=:97
  sleep 1
fi
mvn -B -q -Dstyle.color=never -Dfuzz.skip=true -pl analyzer-gui -am test \
  -Dtest=ScreenshotTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Drddp.screenshots=true -Dgui.glass=gtk -Dgui.headless=false -Dgui.robot=glass -Dgui.prism=sw
ls -l docs/images/*.png
