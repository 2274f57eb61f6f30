# Sourced by the scripts: puts the Swift toolchain on PATH when the environment lacks it
# (the toolchain of this machine kind lives in /opt/swift).
if ! command -v swift >/dev/null 2>&1; then
  for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
    if [[ -x "$candidate/swift" ]]; then
      export PATH="$candidate:$PATH"
      break
    fi
  done
fi
if ! command -v swift >/dev/null 2>&1; then
  echo "$(basename "$0"): no Swift toolchain found (install Swift 6 and put it on PATH)" >&2
  exit 1
fi
