#include "sim/sweep/sweep_progress.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ridgeline {

namespace {

std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

SweepProgress::SweepProgress(std::ostream& out, bool terminal, std::uint64_t total,
                             bool per_point_lines)
    : out_(out),
      terminal_(terminal),
      per_point_lines_(per_point_lines),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

std::string SweepProgress::counts() const {
  return fmt::format("{}/{} points: {} ok, {} failed, {} skipped", resumed_ + here_, total_, ok_,
                     failed_, skipped_);
}

std::string SweepProgress::time_left() const {
  if (here_ == 0) return "?";
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t left = total_ - resumed_ - here_;
  return clock_text(elapsed / static_cast<double>(here_) * static_cast<double>(left));
}

namespace {

void count_status(std::string_view status, std::uint64_t& ok, std::uint64_t& failed,
                  std::uint64_t& skipped) {
  if (status == "ok") ++ok;
  if (status == "failed") ++failed;
  if (status == "skipped") ++skipped;
}

}  // namespace

void SweepProgress::recovered(std::string_view status) {
  ++resumed_;
  count_status(status, ok_, failed_, skipped_);
}

void SweepProgress::finished(std::uint64_t point, std::string_view status, std::string_view reason,
                             std::size_t running) {
  ++here_;
  count_status(status, ok_, failed_, skipped_);
  if (!terminal_ && per_point_lines_) {
    out_ << fmt::format("sweep: point {} {}{}{} ({}, {} left)\n", point, status,
                        reason.empty() ? "" : ": ", reason, counts(), time_left());
    out_.flush();
    return;
  }
  draw(false, running);
}

void SweepProgress::draw(bool force, std::size_t running) {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_draw_).count();
  if (!force && since < (terminal_ ? 0.1 : 5.0)) return;
  last_draw_ = now;
  if (!terminal_) {
    out_ << fmt::format("sweep: {} ({} left)\n", counts(), time_left());
    out_.flush();
    return;
  }
  constexpr std::size_t kBar = 30;
  const std::size_t filled =
      total_ == 0 ? kBar : static_cast<std::size_t>(kBar * (resumed_ + here_) / total_);
  std::string line = fmt::format("\r[{}{}] {}, {} running, {} left", std::string(filled, '#'),
                                 std::string(kBar - filled, '.'), counts(), running, time_left());
  const std::size_t width = line.size();
  line += std::string(width_ > width ? width_ - width : 0, ' ');
  width_ = width;
  out_ << line;
  out_.flush();
}

void SweepProgress::done() {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (terminal_) {
    draw(true, 0);
    out_ << '\n';
  }
  out_ << fmt::format("sweep: done: {} in {:.2f} s ({} resumed from an earlier run)\n", counts(),
                      elapsed, resumed_);
  out_.flush();
}

}  // namespace ridgeline
