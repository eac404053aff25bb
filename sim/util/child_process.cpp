#include "sim/util/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ridgeline {

std::string self_executable() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0) throw std::runtime_error("cannot find the running executable (/proc/self/exe)");
  return std::string(path, static_cast<std::size_t>(length));
}

std::string ChildResult::failure() const {
  // The limit, not the time it took: the same words whenever it happens.
  if (timed_out) {
    std::ostringstream text;
    text << "timed out after " << limit_s << " s (--point-timeout)";
    return text.str();
  }
  if (signal != 0) {
    const char* name = sigabbrev_np(signal);
    return std::string("the simulation died of signal ") + std::to_string(signal) +
           (name ? std::string(" (SIG") + name + ")" : std::string());
  }
  // The last line the child wrote, which for ridgeline is its one-line error.
  std::string text = error_text;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const auto newline = text.rfind('\n');
  if (newline != std::string::npos) text = text.substr(newline + 1);
  if (text.rfind("ridgeline: ", 0) == 0) text = text.substr(11);
  if (text.empty()) text = "no message";
  return "exit code " + std::to_string(exit_code) + ": " + text;
}

std::string make_temporary_directory(const std::string& prefix) {
  std::string name = "/tmp/" + prefix + "-XXXXXX";
  if (mkdtemp(name.data()) == nullptr)
    throw std::runtime_error("cannot create a temporary directory in /tmp");
  return name;
}

std::vector<std::string> run_arguments(const std::string& hardware, const std::string& workload,
                                       const std::vector<std::string>& overrides,
                                       const std::string& json,
                                       const std::vector<std::string>& l2_resident,
                                       const std::vector<std::string>& l2_written) {
  std::vector<std::string> arguments{"run", hardware, workload, "--quiet", "--json", json};
  for (const std::string& assignment : overrides) {
    arguments.push_back("--set");
    arguments.push_back(assignment);
  }
  for (const auto& [option, names] :
       {std::pair{"--l2-resident", &l2_resident}, std::pair{"--l2-written", &l2_written}}) {
    if (names->empty()) continue;
    arguments.push_back(option);
    arguments.push_back(fmt::format("{}", fmt::join(*names, ",")));
  }
  return arguments;
}

namespace {

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

ChildPool::ChildPool(std::string program, unsigned jobs, double timeout_s, std::string scratch)
    : program_(std::move(program)),
      jobs_(std::max(1u, jobs)),
      timeout_s_(timeout_s),
      directory_(std::move(scratch)) {
  if (directory_.empty()) {
    directory_ = make_temporary_directory("ridgeline-children");
    own_directory_ = true;
  }
  // SIGCHLD stays pending until wait() takes it, so none is lost between two checks.
  sigset_t child;
  sigemptyset(&child);
  sigaddset(&child, SIGCHLD);
  sigprocmask(SIG_BLOCK, &child, &previous_mask_);
}

ChildPool::~ChildPool() {
  for (const auto& [pid, running] : running_) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  for (unsigned slot = 0; slot < jobs_; ++slot) {
    std::remove((directory_ + "/" + std::to_string(slot) + ".err").c_str());
  }
  if (own_directory_) rmdir(directory_.c_str());
  sigprocmask(SIG_SETMASK, &previous_mask_, nullptr);
}

namespace {

// What a child needs between vfork and exec, prepared before: it may only make system calls.
struct Spawn {
  const char* program;
  char* const* argv;
  const char* error_file;
  const char* folder;  // null: stay here
  const sigset_t* mask;
  pid_t parent;
};

[[noreturn]] __attribute__((noinline)) void exec_child(const Spawn& spawn) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != spawn.parent) _exit(127);  // the parent died before prctl took hold
  const int null = open("/dev/null", O_WRONLY);
  const int error = open(spawn.error_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (null < 0 || error < 0) _exit(127);
  dup2(null, STDOUT_FILENO);
  dup2(error, STDERR_FILENO);
  sigprocmask(SIG_SETMASK, spawn.mask, nullptr);
  if (spawn.folder != nullptr && chdir(spawn.folder) != 0) _exit(127);
  execv(spawn.program, spawn.argv);
  _exit(127);
}

// vfork, not fork: no copy of this process's page tables, which is most of what starting a
// child costs. Its own frame, so that the child, which shares the stack until exec, leaves the
// caller's variables alone.
__attribute__((noinline)) pid_t vfork_exec(const Spawn& spawn) {
  const pid_t pid = vfork();
  if (pid == 0) exec_child(spawn);
  return pid;
}

}  // namespace

void ChildPool::start(std::uint64_t tag, const std::vector<std::string>& arguments,
                      const std::string& directory) {
  // One stderr file per slot, reused: no file made and removed per child.
  std::size_t slot = 0;
  while (std::any_of(running_.begin(), running_.end(),
                     [&](const auto& entry) { return entry.second.slot == slot; })) {
    ++slot;
  }
  const std::string error_path = directory_ + "/" + std::to_string(slot) + ".err";
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program_.c_str()));
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  const Spawn spawn{program_.c_str(),   argv.data(),
                    error_path.c_str(), directory.empty() ? nullptr : directory.c_str(),
                    &previous_mask_,    getpid()};
  const pid_t pid = vfork_exec(spawn);
  if (pid < 0) {
    throw std::runtime_error(std::string("cannot start a child: ") + std::strerror(errno));
  }
  running_[pid] = Running{tag, slot, error_path, std::chrono::steady_clock::now()};
}

std::pair<std::uint64_t, ChildResult> ChildPool::wait() {
  for (;;) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno != EINTR && errno != ECHILD)
      throw std::runtime_error("waiting for a child process failed");
    if (pid > 0) {
      auto it = running_.find(pid);
      if (it == running_.end()) continue;
      ChildResult result;
      if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
      result.timed_out = it->second.killed;
      if (result.timed_out) result.limit_s = timeout_s_;
      result.wall_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - it->second.started)
              .count();
      result.error_text = read_file(it->second.error_path);
      const std::uint64_t tag = it->second.tag;
      running_.erase(it);
      return {tag, std::move(result)};
    }
    // Nothing ended yet: kill whoever is past the limit, then sleep until SIGCHLD or the next
    // limit.
    const auto now = std::chrono::steady_clock::now();
    auto next_limit = std::chrono::steady_clock::time_point::max();
    if (timeout_s_ > 0) {
      const auto limit = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(timeout_s_));
      for (auto& [child, running] : running_) {
        if (running.killed) continue;
        if (now - running.started >= limit) {
          kill(child, SIGKILL);
          running.killed = true;
        } else {
          next_limit = std::min(next_limit, running.started + limit);
        }
      }
    }
    // At most 50 ms at a time: in a process with other threads, SIGCHLD may go to one of them,
    // and the next look at the children must not wait for a signal that never comes here.
    sigset_t child;
    sigemptyset(&child);
    sigaddset(&child, SIGCHLD);
    const auto cap = now + std::chrono::milliseconds(50);
    const auto wait_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::min(next_limit, cap) - now)
            .count();
    timespec timeout{static_cast<time_t>(wait_ns / 1'000'000'000),
                     static_cast<long>(wait_ns % 1'000'000'000)};
    sigtimedwait(&child, nullptr, &timeout);
  }
}

std::vector<ChildResult> run_children(const std::string& program,
                                      const std::vector<std::vector<std::string>>& arguments,
                                      unsigned jobs) {
  std::vector<ChildResult> results(arguments.size());
  ChildPool pool(program, jobs);
  std::size_t next = 0;
  while (next < arguments.size() || pool.running() > 0) {
    while (next < arguments.size() && pool.has_room()) {
      pool.start(next, arguments[next]);
      ++next;
    }
    auto [index, result] = pool.wait();
    results[index] = std::move(result);
  }
  return results;
}

}  // namespace ridgeline
