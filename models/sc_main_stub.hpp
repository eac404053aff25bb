// libsystemc.so carries a main() that calls sc_main(); programs with their own main() (the CLI,
// the tests, the benchmarks) still have to define the symbol for the link. Include this in
// exactly one source file of such a program.
#pragma once

extern "C" int sc_main(int /*argc*/, char** /*argv*/) { return 1; }  // never called
