# Sourced by the e2e scripts (not a test itself: the tests are tests/e2e/*.sh).
# expect CODE PATTERN -- command...: the command exits with CODE and its stderr matches PATTERN
# (extended regex); otherwise prints the command and its stderr and counts one failure in $fails.
fails=${fails:-0}
expect() {
  local code=$1 pattern=$2 err got
  shift 3
  err=$("$@" 2>&1 >/dev/null)
  got=$?
  if [ "$got" -ne "$code" ] || ! grep -qE -- "$pattern" <<<"$err"; then
    echo "FAIL: $* -> exit $got (want $code), stderr:"; head -c 2000 <<<"$err"
    fails=$((fails + 1))
  fi
}
