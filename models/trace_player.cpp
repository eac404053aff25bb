#include "models/trace_player.hpp"

#include <cassert>


namespace ridgeline {

void TracePlayerStats::add(const TracePlayerStats& o) {
  reads += o.reads;
  writes += o.writes;
  read_bytes += o.read_bytes;
  write_bytes += o.write_bytes;
  wakeups += o.wakeups;
  in_flight_limit += o.in_flight_limit;
  finish = max(finish, o.finish);
  latency.merge(o.latency);
}

void TracePlayerStats::visit(const StatVisitor& v) const {
  v("reads", as_stat(reads), "requests", "loads issued");
  v("writes", as_stat(writes), "requests", "stores issued");
  v("read_bytes", as_stat(read_bytes), "bytes", "bytes loaded");
  v("write_bytes", as_stat(write_bytes), "bytes", "bytes stored");
  v("wakeups", as_stat(wakeups), "events", "times a player's process ran");
  v("in_flight_limit_s", as_stat(in_flight_limit), "s",
    "summed over players: the next access waited for room under the in-flight limits");
  v("finish_s", as_stat(finish), "s", "when the last access completed");
  v("latency_mean_s", as_stat(latency.mean()), "s", "mean latency, issue to last byte");
  v("latency_min_s", as_stat(latency.min()), "s", "shortest latency");
  v("latency_p50_s", as_stat(latency.percentile(0.50)), "s", "median latency (within 0.8 %)");
  v("latency_p90_s", as_stat(latency.percentile(0.90)), "s", "90th percentile (within 0.8 %)");
  v("latency_p99_s", as_stat(latency.percentile(0.99)), "s", "99th percentile (within 0.8 %)");
  v("latency_max_s", as_stat(latency.max()), "s", "longest latency");
}

}  // namespace ridgeline
