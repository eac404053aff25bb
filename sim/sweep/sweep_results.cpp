#include "sim/sweep/sweep_results.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/util/output_file.hpp"

namespace ridgeline {

namespace {

constexpr std::size_t kBatchBytes = 1 << 16;

[[noreturn]] void directory_error(const std::string& path, const std::string& rule,
                                  const std::string& fix) {
  throw ConfigError(SourceLocation{path, 0, 0}, "", "", rule, fix);
}

void write_all(int fd, const std::string& data, const std::string& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      directory_error(path, std::string("cannot write the file: ") + std::strerror(errno),
                      "check the disk has room and the directory is writable");
    }
    done += static_cast<std::size_t>(n);
  }
}

int open_append(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    directory_error(path, std::string("cannot open the file: ") + std::strerror(errno),
                    "check the directory is writable");
  }
  return fd;
}

std::uint64_t fnv1a(std::uint64_t hash, std::string_view text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::vector<std::string> split_header(std::string_view line) {
  std::vector<std::string> names;
  std::size_t start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    names.emplace_back(
        line.substr(start, comma == std::string_view::npos ? line.npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return names;
}

}  // namespace

Json SweepManifest::to_json() const {
  Json objectives_json = Json::array();
  for (const Objective& o : objectives) {
    objectives_json.push_back({{"name", o.name},
                               {"goal", o.maximize ? "maximize" : "minimize"},
                               {"expression", o.expression}});
  }
  return Json{{"fingerprint", fingerprint},
              {"mode", analytical ? "analytical" : "simulated"},
              {"points", points},
              {"shard", shard.to_string()},
              {"sweep_file", sweep_file},
              {"objectives", objectives_json},
              {"pareto", pareto}};
}

SweepManifest SweepManifest::from_json(const Json& json, const std::string& path) {
  try {
    SweepManifest m;
    m.fingerprint = json.at("fingerprint").get<std::string>();
    m.analytical = json.at("mode").get<std::string>() == "analytical";
    m.points = json.at("points").get<std::uint64_t>();
    m.shard = parse_shard(json.at("shard").get<std::string>());
    m.sweep_file = json.at("sweep_file").get<std::string>();
    for (const auto& o : json.at("objectives")) {
      m.objectives.push_back(Objective{o.at("name").get<std::string>(),
                                       o.at("goal").get<std::string>() == "maximize",
                                       o.at("expression").get<std::string>(),
                                       {}});
    }
    m.pareto = json.at("pareto").get<std::vector<std::string>>();
    return m;
  } catch (const std::exception&) {
    directory_error(path, "not a sweep's manifest", "it is written by 'ridgeline sweep'");
  }
}

std::string sweep_fingerprint(const SweepSpec& spec) {
  std::uint64_t hash = 14695981039346656037ULL;
  hash = fnv1a(hash, spec.text);
  std::vector<std::string> files{spec.hardware_file, spec.workload_file};
  for (const SweptKey* key : spec.swept_keys())
    for (const AxisValue& value : key->values)
      if (!value.file.empty()) files.push_back(value.file);
  for (const auto& file : files) {
    if (file.empty()) continue;
    hash = fnv1a(hash, "\n--- file ---\n");
    hash = fnv1a(hash, read_config_file(file));
  }
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::uint64_t for_each_line(const std::string& path,
                            const std::function<void(std::string_view line)>& visit) {
  std::ifstream file(path, std::ios::binary);
  std::uint64_t complete = 0;
  std::uint64_t offset = 0;
  std::string pending;
  std::vector<char> block(1 << 20);
  while (file) {
    file.read(block.data(), static_cast<std::streamsize>(block.size()));
    const auto got = static_cast<std::size_t>(file.gcount());
    if (got == 0) break;
    std::string_view data(block.data(), got);
    for (;;) {
      const auto newline = data.find('\n');
      if (newline == std::string_view::npos) {
        pending.append(data);
        break;
      }
      std::string_view line = data.substr(0, newline);
      if (!pending.empty()) {
        pending.append(line);
        line = pending;
      }
      offset += line.size() + 1;
      visit(line);
      complete = offset;
      pending.clear();
      data.remove_prefix(newline + 1);
    }
  }
  return complete;
}

std::int64_t point_of_line(std::string_view line) {
  constexpr std::string_view kStart = "{\"point\":";
  if (line.substr(0, kStart.size()) != kStart) return -1;
  std::int64_t point = 0;
  std::size_t i = kStart.size();
  if (i >= line.size() || !std::isdigit(static_cast<unsigned char>(line[i]))) return -1;
  for (; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i)
    point = point * 10 + (line[i] - '0');
  return i < line.size() && (line[i] == ',' || line[i] == '}') ? point : -1;
}

SweepManifest read_manifest(const std::string& directory) {
  const std::string path = directory + "/sweep.json";
  std::ifstream file(path);
  if (!file) {
    directory_error(directory, "holds no sweep results (no sweep.json)",
                    "give directories written by 'ridgeline sweep --out'");
  }
  const Json json = Json::parse(file, nullptr, false);
  return SweepManifest::from_json(json, path);
}

ResultsDirectory::ResultsDirectory(std::string directory, ColumnTable& columns, bool batched)
    : directory_(std::move(directory)), columns_(columns), batched_(batched), writer_(columns) {}

ResultsDirectory::~ResultsDirectory() {
  try {
    flush();
  } catch (const std::exception&) {
  }
  for (int fd : {jsonl_fd_, csv_fd_, lock_fd_})
    if (fd >= 0) ::close(fd);
}

std::string ResultsDirectory::point_directory(std::uint64_t point) const {
  return directory_ + "/points/" + std::to_string(point);
}

std::uint64_t ResultsDirectory::open(const SweepManifest& manifest, const std::string& sweep_text,
                                     const std::function<void(const Row&)>& visit) {
  const std::string manifest_path = directory_ + "/sweep.json";
  auto refuse_another_sweep = [&]() {
    const SweepManifest there = read_manifest(directory_);
    std::string differs;
    if (there.fingerprint != manifest.fingerprint) differs = "the sweep file or a file it reads";
    if (there.analytical != manifest.analytical) differs = "the mode (--analytical)";
    if (there.shard.to_string() != manifest.shard.to_string()) differs = "the shard";
    if (!differs.empty()) {
      directory_error(directory_,
                      "holds the results of another sweep (" + differs + " changed since)",
                      "give another --out, or remove the directory to start over");
    }
  };
  // Once before taking the lock, so that refusing another sweep's directory leaves it as it was.
  if (std::filesystem::exists(manifest_path)) refuse_another_sweep();

  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) {
    directory_error(directory_, "cannot create the directory: " + error.message(),
                    "check the path and that its parent is writable");
  }
  const std::string lock_path = directory_ + "/.lock";
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0 || flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    directory_error(directory_, "another sweep is writing this directory",
                    "wait for it, or give another --out");
  }

  if (std::filesystem::exists(manifest_path)) {
    refuse_another_sweep();
  } else {
    if (std::filesystem::exists(jsonl_path()) || std::filesystem::exists(csv_path())) {
      directory_error(directory_, "holds results without a sweep.json",
                      "give another --out, or remove the directory to start over");
    }
    write_file_atomically(directory_ + "/sweep.yaml", sweep_text);
    write_file_atomically(manifest_path, manifest.to_json().dump(2) + "\n");
  }

  // The complete lines must be the shard's first points, in order.
  std::uint64_t done = 0;
  Row row;
  const std::uint64_t kept = for_each_line(jsonl_path(), [&](std::string_view line) {
    const std::int64_t point = point_of_line(line);
    const std::uint64_t expected = manifest.shard.index + done * manifest.shard.count;
    if (point < 0 || static_cast<std::uint64_t>(point) != expected || expected >= manifest.points) {
      directory_error(jsonl_path(),
                      "line " + std::to_string(done + 1) + " is not point " +
                          std::to_string(expected) + " of this sweep",
                      "the file was changed by hand: remove the directory to start over");
    }
    if (visit) {
      if (!parse_json_line(line, columns_, row)) {
        directory_error(jsonl_path(), "line " + std::to_string(done + 1) + " is not a result row",
                        "remove the directory to start over");
      }
      visit(row);
    }
    ++done;
  });
  // A line cut short by a kill is not a result: drop it.
  if (std::filesystem::exists(jsonl_path()) && std::filesystem::file_size(jsonl_path()) != kept) {
    std::filesystem::resize_file(jsonl_path(), kept);
  }
  jsonl_fd_ = open_append(jsonl_path());

  // The CSV must hold the same rows under a header; else it is rebuilt from the JSONL.
  std::string header;
  std::uint64_t csv_rows = 0;
  bool first = true;
  const std::uint64_t csv_kept = for_each_line(csv_path(), [&](std::string_view line) {
    if (first) {
      header = std::string(line);
      first = false;
    } else {
      ++csv_rows;
    }
  });
  const bool csv_whole =
      std::filesystem::exists(csv_path()) && std::filesystem::file_size(csv_path()) == csv_kept;
  if (done == 0) {
    std::filesystem::remove(csv_path());
  } else if (first || !csv_whole || csv_rows != done) {
    for_each_line(jsonl_path(), [&](std::string_view line) {
      parse_json_line(line, columns_, row);
      columns_.place(row);
    });
    rewrite_csv();
  } else {
    columns_.restore_order(split_header(header));
  }
  if (csv_fd_ < 0) csv_fd_ = open_append(csv_path());
  return done;
}

void ResultsDirectory::append(const Row& row) {
  const bool new_columns = columns_.place(row);
  writer_.write(row, &jsonl_buffer_, new_columns ? nullptr : &csv_buffer_);
  if (new_columns) {
    // The header changes, so the CSV is written again, this row included.
    flush();
    rewrite_csv();
    return;
  }
  if (!batched_ || jsonl_buffer_.size() >= kBatchBytes) flush();
}

void ResultsDirectory::flush() {
  // JSONL first: a row in the CSV is always in the JSONL.
  if (!jsonl_buffer_.empty()) {
    write_all(jsonl_fd_, jsonl_buffer_, jsonl_path());
    jsonl_buffer_.clear();
  }
  if (!csv_buffer_.empty()) {
    write_all(csv_fd_, csv_buffer_, csv_path());
    csv_buffer_.clear();
  }
}

void ResultsDirectory::rewrite_csv() {
  const std::string temporary = csv_path() + ".partial";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    directory_error(temporary, std::string("cannot write the file: ") + std::strerror(errno),
                    "check the directory is writable");
  }
  std::string out = csv_header(columns_);
  Row row;
  for_each_line(jsonl_path(), [&](std::string_view line) {
    parse_json_line(line, columns_, row);
    writer_.write(row, nullptr, &out);
    if (out.size() >= kBatchBytes) {
      write_all(fd, out, temporary);
      out.clear();
    }
  });
  write_all(fd, out, temporary);
  ::close(fd);
  if (std::rename(temporary.c_str(), csv_path().c_str()) != 0) {
    directory_error(csv_path(), std::string("cannot write the file: ") + std::strerror(errno),
                    "check the directory is writable");
  }
  if (csv_fd_ >= 0) ::close(csv_fd_);
  csv_fd_ = open_append(csv_path());
}

}  // namespace ridgeline
