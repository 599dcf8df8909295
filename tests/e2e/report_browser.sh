#!/usr/bin/env bash
# The report page in a real browser: headless Chromium (Debian's chromium, installed here when
# missing) loads the smoke set's report offline; every figure must load, the page must log
# nothing to the console (no error, no uncaught exception), and a screenshot is kept in the build
# folder ($LBB_BUILD_DIR/report_screenshot.png) for a person to look at.
set -euo pipefail
lbbench=$1
SKIP=77  # ctest's skip code (tests/CMakeLists.txt)
if ! command -v chromium > /dev/null; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo -n"
  echo "report_browser: installing Debian's chromium (once)"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
      --no-install-recommends chromium > /dev/null; } 2>&1; then
    echo "report_browser: SKIPPED: chromium is not installed and could not be installed"
    exit $SKIP
  fi
fi
. "$(dirname "$0")/lib/scratch.sh"
"$lbbench" run configs/smoke.yaml -o "$tmp/smoke" > /dev/null
"$lbbench" report "$tmp/smoke" --out "$tmp/report" > /dev/null
page="file://$tmp/report/index.html"
browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
         --user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 --virtual-time-budget=10000)
timeout 120 "${browser[@]}" --dump-dom "$page" > "$tmp/dom.html" 2> "$tmp/browser.log"
# The page's own check (page.py) counts the figures that loaded once the page has.
body=$(grep -o '<body[^>]*>' "$tmp/dom.html" || true)
images=$(sed -n 's/.*data-images="\([0-9]*\)".*/\1/p' <<< "$body")
loaded=$(sed -n 's/.*data-images-loaded="\([0-9]*\)".*/\1/p' <<< "$body")
figures=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' \
          "$tmp/report/figures.json")
if [ -z "$images" ] || [ "$images" -ne "$figures" ] || [ "$loaded" != "$images" ]; then
  echo "report_browser: $loaded of $images images loaded, $figures figures written: $body"
  exit 1
fi
if grep -q "CONSOLE" "$tmp/browser.log"; then
  echo "report_browser: the page logged to the console:"
  grep "CONSOLE" "$tmp/browser.log"
  exit 1
fi
shot="${LBB_BUILD_DIR:-build}/report_screenshot.png"
timeout 120 "${browser[@]}" --window-size=1280,2600 --screenshot="$shot" "$page" 2> /dev/null
/usr/bin/python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); sys.exit(not d.startswith(b"\x89PNG"))' "$shot"
echo "report_browser: $loaded of $images figures loaded, console clean; screenshot $shot"
