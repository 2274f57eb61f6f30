# Sourced by scripts/install and scripts/package (after toolchain.sh), from the top of the
# checkout: build_release builds the static release binary, .build/release/mockgps.
#
# From a git checkout it links in the commit, which `mockgps --version` then shows as
# `mockgps 0.1.0 (abc1234)` (`-dirty` when tracked files differ from it). The commit goes into a
# C file generated in .build/build-info/, whose strong mockgps_build_commit() the linker takes
# over the weak empty one of Sources/CBuildInfo: nothing in the checkout changes, a new commit
# only relinks, and a plain `swift build` shows the version alone.
build_release() {
  local link_flags=()
  local commit
  if commit=$(git rev-parse --short=7 HEAD 2>/dev/null); then
    git diff --quiet HEAD -- 2>/dev/null || commit+="-dirty"
    local directory=.build/build-info
    mkdir -p "$directory"
    # The commit is in the object's name: SwiftPM relinks when the link command changes, not
    # when a file it does not know of does.
    local object="$directory/build_info-$commit.o"
    if [[ ! -f "$object" ]]; then
      printf 'const char *mockgps_build_commit(void) { return "%s"; }\n' "$commit" \
        >"$directory/build_info.c"
      local compiler
      compiler="$(dirname "$(command -v swift)")/clang"
      [[ -x "$compiler" ]] || compiler=cc
      "$compiler" -c -O2 -fPIC -o "$object" "$directory/build_info.c"
    fi
    link_flags=(-Xlinker "$PWD/$object")
  fi
  swift build -c release --product mockgps --static-swift-stdlib "${link_flags[@]}"
}
