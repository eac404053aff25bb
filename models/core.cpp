#include "models/core.hpp"

namespace ridgeline {

}  // namespace ridgeline
