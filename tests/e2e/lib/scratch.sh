# Sourced by the e2e scripts: $tmp, a scratch directory removed when the script exits.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
