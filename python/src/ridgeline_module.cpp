// ridgeline._core: the analytical model in the Python process. The package's analyze() calls it;
// everything that simulates runs the ridgeline executable instead (SystemC elaborates once per
// process), so this module links no SystemC.
#include <Python.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sim/graph/graph_config.hpp"
#include "sim/graph/graph_report.hpp"
#include "sim/report/report.hpp"
#include "sim/sweep/cached_config_loader.hpp"
#include "sim/sweep/sweep_results.hpp"
#include "sim/sweep/sweep_summary.hpp"
#include "sim/util/error_json.hpp"
#include "sim/util/version.hpp"

namespace py = pybind11;

namespace {

using ridgeline::Json;

// A report key as a Python string, borrowed. Reports repeat the same few hundred keys on every
// call: each is made (and hashed) once, not once a call. The strings live until the interpreter
// ends (the map is never freed, so that no Python object is released after it); past kMaxKeys
// distinct keys, new ones are kept alive by `made` instead.
PyObject* key_string(const std::string& key, py::object& made) {
  constexpr std::size_t kMaxKeys = 4096;
  static auto* const keys = new std::unordered_map<std::string, PyObject*>();
  if (auto found = keys->find(key); found != keys->end()) return found->second;
  made = py::str(key.data(), key.size());
  if (keys->size() < kMaxKeys) keys->emplace(key, made.inc_ref().ptr());
  return made.ptr();
}

PyObject* checked(PyObject* made) {
  if (made == nullptr) throw py::error_already_set();
  return made;
}

// A JSON document as the dicts, lists, strings and numbers Python's json module would read from
// its text (integers stay int, doubles float, keys in document order), as a new reference. The
// CPython calls themselves: a report converts on every analyze() call.
PyObject* new_python(const Json& json) {
  switch (json.type()) {
    case Json::value_t::object: {
      py::object dict = py::reinterpret_steal<py::object>(checked(PyDict_New()));
      for (const auto& [key, value] : json.get_ref<const Json::object_t&>()) {
        py::object made;
        PyObject* name = key_string(key, made);
        const py::object item = py::reinterpret_steal<py::object>(new_python(value));
        if (PyDict_SetItem(dict.ptr(), name, item.ptr()) != 0) throw py::error_already_set();
      }
      return dict.release().ptr();
    }
    case Json::value_t::array: {
      const Json::array_t& array = json.get_ref<const Json::array_t&>();
      py::object list = py::reinterpret_steal<py::object>(
          checked(PyList_New(static_cast<Py_ssize_t>(array.size()))));
      for (std::size_t i = 0; i < array.size(); ++i)  // a slot left empty by a throw is freed
        PyList_SET_ITEM(list.ptr(), static_cast<Py_ssize_t>(i), new_python(array[i]));
      return list.release().ptr();
    }
    case Json::value_t::string: {
      const auto& text = json.get_ref<const std::string&>();
      return checked(
          PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace"));
    }
    case Json::value_t::boolean:
      return PyBool_FromLong(json.get<bool>());
    case Json::value_t::number_integer:
      return checked(PyLong_FromLongLong(json.get<std::int64_t>()));
    case Json::value_t::number_unsigned:
      return checked(PyLong_FromUnsignedLongLong(json.get<std::uint64_t>()));
    case Json::value_t::number_float:
      return checked(PyFloat_FromDouble(json.get<double>()));
    default:
      Py_INCREF(Py_None);
      return Py_None;
  }
}

py::object to_python(const Json& json) {
  return py::reinterpret_steal<py::object>(new_python(json));
}

// The loader keeps every document read and every override seen; calls hold the GIL, so one
// loader serves the whole interpreter.
ridgeline::CachedConfigLoader& loader() {
  static ridgeline::CachedConfigLoader instance;
  return instance;
}

py::object analyze(const std::string& hardware_path, std::optional<std::string> hardware_text,
                   const std::string& workload_path, std::optional<std::string> workload_text,
                   const std::vector<std::string>& overrides) {
  const ridgeline::ConfigInput hardware{hardware_path, std::move(hardware_text)};
  const ridgeline::ConfigInput workload{workload_path, std::move(workload_text)};
  // A graph goes to the graph's reader, told apart by its workload alone, as the command does.
  if (ridgeline::workload_is_graph(workload, overrides)) {
    return to_python(ridgeline::graph_report_json(
        ridgeline::load_graph_config(hardware, workload, overrides), nullptr));
  }
  return to_python(ridgeline::report_json(loader().load(hardware, workload, overrides), nullptr));
}

// An objective as Python gives it: name, maximize, expression.
using ObjectiveTuple = std::tuple<std::string, bool, std::string>;

// The summary (summary.json's form) of a results directory's rows under other objectives than
// the sweep's, by the sweep's own SweepSummary: Sweep.best() and Sweep.pareto().
py::object summarize(const std::string& directory, const std::vector<ObjectiveTuple>& objectives,
                     const std::vector<std::string>& pareto) {
  std::vector<ridgeline::Objective> list;
  for (const auto& [name, maximize, expression] : objectives)
    list.push_back(ridgeline::Objective{name, maximize, expression, std::nullopt});
  ridgeline::ColumnTable columns;
  std::optional<ridgeline::SweepSummary> summary;
  try {
    summary.emplace(list, pareto, columns);
  } catch (const ridgeline::ExpressionError& error) {
    throw py::value_error("at character " + std::to_string(error.offset() + 1) + ": " +
                          error.what());
  }
  ridgeline::Row row;
  ridgeline::for_each_line(directory + "/results.jsonl", [&](std::string_view line) {
    if (ridgeline::parse_json_line(line, columns, row)) summary->add(row);
  });
  return to_python(summary->json());
}

}  // namespace

PYBIND11_MODULE(_core, module) {
  module.doc() = "Ridgeline's analytical model in process (use the ridgeline package, not this).";

  // A bad input becomes ridgeline.ConfigError, built from the same parts the CLI prints with
  // --error-format json, so that an error in process and one from a child process read alike.
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const ridgeline::ConfigError& error) {
      py::object errors = py::module_::import("ridgeline.errors");
      py::object exception =
          errors.attr("error_from_json")(to_python(ridgeline::error_json(error)));
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
    }
  });

  module.def("analyze", &analyze, py::arg("hardware_path"), py::arg("hardware_text"),
             py::arg("workload_path"), py::arg("workload_text"), py::arg("overrides"),
             "The analytical report (`ridgeline analyze --json`) of two documents, each a file "
             "path or, with its text given, a name; raises ridgeline.ConfigError.");
  module.def("summarize", &summarize, py::arg("directory"), py::arg("objectives"),
             py::arg("pareto"),
             "summary.json of a results directory under other objectives: each a (name, "
             "maximize, expression); pareto: two of their names, or none.");
  module.def(
      "slow_loads", [] { return loader().slow_loads(); },
      "Calls so far whose configuration was read whole (not from the cache's typed fields).");
  module.attr("__version__") = ridgeline::ridgeline_version();
}
