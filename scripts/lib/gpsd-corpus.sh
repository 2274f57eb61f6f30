# Sourced by scripts/install-deps and scripts/test: where gpsd's regression logs are.
#
# The logs (test/daemon/*.log with gpsd's expected output *.log.chk) come from the Debian source
# package of the installed gpsd, so that the expected output matches the gpsd the tests run.
# scripts/install-deps --test unpacks them into the cache below; MOCKGPS_GPSD_SOURCE, naming an
# unpacked gpsd source tree, replaces the cache.

# The installed gpsd's Debian version, or nothing.
gpsd_version() { dpkg-query -W -f='${Version}' gpsd 2>/dev/null || true; }

# mockgps's cache folder.
mockgps_cache_dir() { echo "${XDG_CACHE_HOME:-$HOME/.cache}/mockgps"; }

# The folder holding the *.log and *.log.chk files.
gpsd_logs_dir() {
  if [[ -n "${MOCKGPS_GPSD_SOURCE:-}" ]]; then
    echo "${MOCKGPS_GPSD_SOURCE%/}/test/daemon"
  else
    echo "$(mockgps_cache_dir)/gpsd-$(gpsd_version)/test/daemon"
  fi
}
