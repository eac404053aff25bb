#include "sim/waveforms/busy_profile.hpp"

#include <algorithm>
#include <stdexcept>

namespace ridgeline {

BusyProfile busy_profile(const BusyTimeline& busy, Time run_time, bool has_l2) {
  BusyProfile p;
  p.run_s = run_time.seconds();
  const std::uint64_t width_ps = busy.bucket_width().ps();
  p.bucket_s = static_cast<double>(width_ps) * 1e-12;
  const std::uint32_t cores = busy.requesters();
  const std::size_t buckets = std::max<std::size_t>(1, busy.buckets_until(run_time));
  for (std::size_t b = 0; b < buckets; ++b) {
    // The time the bucket spans within the run (the last one ends with it).
    const std::uint64_t start_ps = b * width_ps;
    const std::uint64_t end_ps = std::min(run_time.ps(), start_ps + width_ps);
    const auto span_ps = static_cast<double>(end_ps > start_ps ? end_ps - start_ps : 1);
    double rows[BusyTimeline::kRows] = {0, 0, 0};
    for (std::uint32_t core = 0; core < cores; ++core) {
      for (std::size_t row = 0; row < BusyTimeline::kRows; ++row) {
        rows[row] +=
            static_cast<double>(busy.busy(core, static_cast<BusyTimeline::Row>(row), b).ps());
      }
    }
    const auto fraction = [&](double busy_ps, double units) { return busy_ps / (span_ps * units); };
    const auto ps = [](Time t) { return static_cast<double>(t.ps()); };
    p.loads.push_back(fraction(rows[BusyTimeline::loads], cores));
    p.compute.push_back(fraction(rows[BusyTimeline::compute], cores));
    p.stores.push_back(fraction(rows[BusyTimeline::stores], cores));
    if (has_l2) p.l2_port.push_back(fraction(ps(busy.level_port_busy(b)), 1));
    p.hbm.push_back(fraction(ps(busy.hbm_busy(b)), busy.hbm_units()));
  }
  return p;
}

BusyProfile coarsened(const BusyProfile& profile, std::size_t most_buckets) {
  const std::size_t fine = profile.hbm.size();
  const std::size_t group = (fine + most_buckets - 1) / std::max<std::size_t>(1, most_buckets);
  if (group <= 1) return profile;
  BusyProfile out;
  out.run_s = profile.run_s;
  out.bucket_s = profile.bucket_s * static_cast<double>(group);
  // Bucket b spans bucket_s, the last one what is left of the run.
  const auto span = [&](std::size_t b) {
    return std::max(
        0.0, std::min(profile.bucket_s, profile.run_s - static_cast<double>(b) * profile.bucket_s));
  };
  const auto merge = [&](const std::vector<double>& in, std::vector<double>& to) {
    for (std::size_t first = 0; first < in.size(); first += group) {
      double busy = 0, time = 0;
      for (std::size_t b = first; b < std::min(in.size(), first + group); ++b) {
        busy += in[b] * span(b);
        time += span(b);
      }
      to.push_back(time > 0 ? busy / time : 0);
    }
  };
  merge(profile.loads, out.loads);
  merge(profile.compute, out.compute);
  merge(profile.stores, out.stores);
  merge(profile.l2_port, out.l2_port);
  merge(profile.hbm, out.hbm);
  return out;
}

Json busy_profile_json(const BusyProfile& p) {
  Json series = {{"loads", p.loads}, {"compute", p.compute}, {"stores", p.stores}};
  if (!p.l2_port.empty()) series["l2_port"] = p.l2_port;
  series["hbm"] = p.hbm;
  return Json{{"bucket_s", p.bucket_s}, {"run_s", p.run_s}, {"busy_fraction", series}};
}

BusyProfile read_busy_profile(const Json& json) {
  BusyProfile p;
  p.bucket_s = json.at("bucket_s").get<double>();
  p.run_s = json.at("run_s").get<double>();
  const Json& series = json.at("busy_fraction");
  p.loads = series.at("loads").get<std::vector<double>>();
  p.compute = series.at("compute").get<std::vector<double>>();
  p.stores = series.at("stores").get<std::vector<double>>();
  if (series.contains("l2_port")) p.l2_port = series.at("l2_port").get<std::vector<double>>();
  p.hbm = series.at("hbm").get<std::vector<double>>();
  // Every series a bucket each; the L2 port's only on a machine with an L2.
  const auto as_long = [&](const std::vector<double>& values) {
    return values.size() == p.hbm.size();
  };
  if (!as_long(p.loads) || !as_long(p.compute) || !as_long(p.stores) ||
      (!p.l2_port.empty() && !as_long(p.l2_port))) {
    throw std::runtime_error("a busy profile's series differ in length");
  }
  return p;
}

}  // namespace ridgeline
