// Found first on the include path of the plain libraries (ridgeline_library(... PLAIN ...) in
// CMakeLists.txt): their code compiles without SystemC, and this line says so when it does not.
#error "a plain library includes a SystemC header: include the model's plain header (x.hpp), not x_module.hpp"
