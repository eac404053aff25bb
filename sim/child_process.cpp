#include "sim/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace ridgeline {

std::string self_executable() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0) throw std::runtime_error("cannot find the running executable (/proc/self/exe)");
  return std::string(path, static_cast<std::size_t>(length));
}

namespace {

struct Running {
  std::size_t index;
  std::string error_path;
};

pid_t spawn(const std::string& program, const std::vector<std::string>& arguments,
            const std::string& error_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, error_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + program + ": " + std::strerror(error));
  return pid;
}

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

std::vector<ChildResult> run_children(const std::string& program,
                                      const std::vector<std::vector<std::string>>& arguments,
                                      unsigned jobs) {
  std::vector<ChildResult> results(arguments.size());
  char directory_template[] = "/tmp/ridgeline-children-XXXXXX";
  const char* directory = mkdtemp(directory_template);
  if (directory == nullptr) throw std::runtime_error("cannot create a temporary directory in /tmp");
  std::map<pid_t, Running> running;
  std::size_t next = 0;
  while (next < arguments.size() || !running.empty()) {
    while (next < arguments.size() && running.size() < std::max(1u, jobs)) {
      const std::string error_path = std::string(directory) + "/" + std::to_string(next) + ".err";
      running[spawn(program, arguments[next], error_path)] = Running{next, error_path};
      ++next;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("waiting for a child process failed");
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    ChildResult& result = results[it->second.index];
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    result.error_text = read_file(it->second.error_path);
    std::remove(it->second.error_path.c_str());
    running.erase(it);
  }
  rmdir(directory);
  return results;
}

}  // namespace ridgeline
