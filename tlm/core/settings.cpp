#include "core/settings.h"

namespace ccsim {

NetworkSettings NetworkSettings::from_config(const Config& c) {
  NetworkSettings s;
  s.cut_through = c.get_string("router.switching") == "vct";
  s.deadlock_recovery = c.get_string("routing.deadlock") == "recovery";
  s.vcs_per_class = static_cast<int>(c.get_int("router.vcs"));
  s.router_latency = static_cast<int>(c.get_int("router.latency"));
  s.output_buffer = static_cast<int>(c.get_int("router.output_buffer"));
  const int depth = static_cast<int>(c.get_int("router.buffer_depth"));
  auto or_default = [&](const char* key) { return c.get_int(key) ? static_cast<int>(c.get_int(key)) : depth; };
  s.buffer_depth[static_cast<int>(PortKind::Terminal)] = depth;
  s.buffer_depth[static_cast<int>(PortKind::Local)] = or_default("router.local_buffer_depth");
  s.buffer_depth[static_cast<int>(PortKind::Global)] = or_default("router.global_buffer_depth");
  s.link_latency[static_cast<int>(PortKind::Terminal)] = static_cast<int>(c.get_int("links.terminal_latency"));
  s.link_latency[static_cast<int>(PortKind::Local)] = static_cast<int>(c.get_int("links.local_latency"));
  s.link_latency[static_cast<int>(PortKind::Global)] = static_cast<int>(c.get_int("links.global_latency"));
  s.warmup = c.get_int("sim.warmup");
  s.measure = c.get_int("sim.measure");
  s.series_window = c.get_int("sim.series_window");
  s.hardware = hw::Selection::from_config(c);
  return s;
}

}  // namespace ccsim
