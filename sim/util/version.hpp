// The build's version, project(VERSION) in the top-level CMakeLists.txt: what `ridgeline
// --version` prints and every JSON report records, so a result says which build made it.
#pragma once

namespace ridgeline {

/// "0.1.0"
const char* ridgeline_version();

}  // namespace ridgeline
