// The test binaries use GoogleTest's main(); libsystemc.so still needs sc_main to link.
#include "models/sc_main_stub.hpp"
