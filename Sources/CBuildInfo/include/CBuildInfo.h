#ifndef MOCKGPS_CBUILDINFO_H
#define MOCKGPS_CBUILDINFO_H

/// The git commit the binary was built from, such as "abc1234" or "abc1234-dirty", or "" when
/// it was built without the build scripts (plain `swift build`).
///
/// The definition here is weak: scripts/lib/build-release.sh compiles a strong one into
/// .build/build-info/ and hands that object to the linker, so the commit changes only the link
/// step and never a file of the checkout.
const char *mockgps_build_commit(void);

#endif
