// The SystemC shell of a core's register file; the capacity is RegisterFileTiming (register_file.hpp).
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <systemc>

#include "models/register_file.hpp"

namespace ridgeline {

class RegisterFile : public sc_core::sc_module {
 public:
  RegisterFile(sc_core::sc_module_name name, const RegisterFileParams& params)
      : sc_module(name), timing(params) {}
  RegisterFileTiming timing;
};

}  // namespace ridgeline
