#include "sim/util/version.hpp"

namespace ridgeline {

// RIDGELINE_VERSION is defined for this file alone (sim/util/CMakeLists.txt), so a new version
// rebuilds one file.
const char* ridgeline_version() { return RIDGELINE_VERSION; }

}  // namespace ridgeline
