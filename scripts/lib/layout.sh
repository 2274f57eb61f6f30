# Sourced by scripts/install and scripts/uninstall: set_layout PREFIX sets where each installed
# file goes. udev and systemd read PREFIX/lib for /usr/local; a /usr install (a package) uses
# /lib as Debian 12's packages do.
set_layout() {
  local prefix=$1 lib=$1/lib
  [[ $prefix == /usr ]] && lib=/lib
  bindir=$prefix/bin
  mandir=$prefix/share/man/man1
  bash_completion_dir=$prefix/share/bash-completion/completions
  zsh_completion_dir=$prefix/share/zsh/site-functions
  [[ $prefix == /usr ]] && zsh_completion_dir=$prefix/share/zsh/vendor-completions
  udev_rules_dir=$lib/udev/rules.d
  systemd_unit_dir=$lib/systemd/system
  docdir=$prefix/share/doc/mockgps
  manifest_path=$prefix/share/mockgps/install-manifest
}
