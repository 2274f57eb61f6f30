#include "CBuildInfo.h"

__attribute__((weak)) const char *mockgps_build_commit(void) { return ""; }
