#include "core/packet_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "core/rng.h"
#include "registry.h"
#include "traffic/node_set.h"

namespace ccsim {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File open_for_writing(const std::string& path) {
  File f(std::fopen(path.c_str(), "w"));
  if (!f) throw ConfigError("sim.trace_file", fmt::format("cannot write \"{}\"", path));
  return f;
}

std::string csv_path(const std::string& json_path) {
  const std::string ext = ".json";
  if (json_path.size() > ext.size() && json_path.compare(json_path.size() - ext.size(), ext.size(), ext) == 0)
    return json_path.substr(0, json_path.size() - ext.size()) + ".csv";
  return json_path + ".csv";
}

}  // namespace

std::unique_ptr<PacketTrace> PacketTrace::from_config(const Config& cfg, const Topology& topo,
                                                      const std::vector<std::string>& class_names, int router_latency) {
  if (cfg.get_string("sim.trace").empty()) {
    for (const ParamSpec& spec : core_params())
      if (spec.key.rfind("sim.trace_", 0) == 0 && cfg.raw(spec.key) != spec.default_value)
        throw ConfigError(spec.key, "has no effect while the trace is off: set sim.trace = \"packets\"");
    return nullptr;
  }
  PacketTraceFilter f;
  const std::string nodes = cfg.get_string("sim.trace_nodes");
  if (nodes == "rest")
    throw ConfigError("sim.trace_nodes",
                      "\"rest\" belongs to traffic classes; use all, random:N, "
                      "range:A-B, router_index:A[-B] or list:A,B,...");
  f.node.assign(topo.num_nodes(), false);
  f.seed = cfg.get_int("sim.seed");
  for (int n : select_nodes("sim.trace_nodes", nodes, topo, Rng::derive(f.seed, 0x7472, 0))) f.node[n] = true;
  if (const std::string& name = cfg.get_string("sim.trace_class"); !name.empty()) {
    const auto it = std::find(class_names.begin(), class_names.end(), name);
    if (it == class_names.end()) {
      std::string allowed;
      for (auto& c : class_names) allowed += (allowed.empty() ? "" : ", ") + c;
      throw ConfigError("sim.trace_class", fmt::format("no traffic class \"{}\"; the classes: {}", name, allowed));
    }
    f.traffic_class = static_cast<int>(it - class_names.begin());
  }
  f.start = cfg.get_int("sim.trace_start");
  f.stop = cfg.get_int("sim.trace_stop");
  if (f.stop > 0 && f.stop <= f.start)
    throw ConfigError("sim.trace_stop",
                      fmt::format("must be after sim.trace_start ({}) or 0, got {}", f.start, f.stop));
  f.sample = cfg.get_float("sim.trace_sample");
  open_for_writing(cfg.get_string("sim.trace_file"));  // a path that cannot be written fails now, not after the run
  return std::make_unique<PacketTrace>(std::move(f), cfg.get_string("sim.trace_file"),
                                       cfg.get_int("sim.trace_max_events"), router_latency,
                                       cfg.get_float("sim.clock_ghz"));
}

PacketTrace::PacketTrace(PacketTraceFilter filter, std::string file, int64_t max_events, int router_latency,
                         double clock_ghz)
    : filter_(std::move(filter)),
      file_(std::move(file)),
      max_events_(max_events),
      router_latency_(router_latency),
      clock_ghz_(clock_ghz) {}

void PacketTrace::created(Packet& p, Cycle now) {
  const PacketTraceFilter& f = filter_;
  if (!f.node[p.src] && !f.node[p.dst]) return;
  if (f.traffic_class >= 0 && p.traffic_class != f.traffic_class) return;
  if (p.created < f.start || (f.stop > 0 && p.created >= f.stop)) return;
  // A packet's draw depends on its id alone: the same packets for any other setting.
  const double u = static_cast<double>(Rng::derive(f.seed, 0x7472616365, p.id) >> 11) * 0x1.0p-53;
  if (u >= f.sample) return;
  start(p, 0, now);
}

void PacketTrace::control_created(Packet& p, const Packet& ref, Cycle now) {
  if (ref.traced) start(p, ref.id, now);
}

void PacketTrace::start(Packet& p, uint64_t ref, Cycle now) {
  if (full(now)) return;
  p.traced = true;
  packets_[p.id] = Info{p.src, p.dst, p.size, p.traffic_class, p.kind, ref, p.created, -1};
  add(Event::Created, p, p.created, p.src);
}

bool PacketTrace::full(Cycle now) {
  if (static_cast<int64_t>(records_.size()) < max_events_) return false;
  if (!truncated_) truncated_ = true, truncated_at_ = now;
  return true;
}

void PacketTrace::add(Event e, const Packet& p, Cycle now, int where, int port, int vc, PortKind kind) {
  if (full(now)) return;
  Info& info = packets_.at(p.id);
  int32_t wait = -1;
  if (e == Event::Arrived) info.arrived = now;
  if (e == Event::Departed) wait = static_cast<int32_t>(now - info.arrived - router_latency_);
  records_.push_back(Record{now, p.id, where, static_cast<int16_t>(port), static_cast<int16_t>(vc), wait, e, kind});
}

std::vector<const PacketTrace::Record*> PacketTrace::by_packet() const {
  std::vector<const Record*> out;
  out.reserve(records_.size());
  for (auto& r : records_) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(), [](const Record* a, const Record* b) { return a->packet < b->packet; });
  return out;
}

nlohmann::json PacketTrace::write() const {
  const std::string csv = csv_path(file_);
  write_json(file_);
  write_csv(csv);
  nlohmann::json j = {{"file", file_},
                      {"csv", csv},
                      {"packets", packets_.size()},
                      {"events", records_.size()},
                      {"truncated", truncated_}};
  if (truncated_) j["truncated_at"] = truncated_at_;
  return j;
}

namespace {

const char* event_name(int e) {
  static const char* names[] = {"created", "injected", "arrived", "departed", "dropped", "resent", "delivered"};
  return names[e];
}

}  // namespace

void PacketTrace::write_csv(const std::string& path) const {
  File f = open_for_writing(path);
  std::fputs("packet,kind,src,dst,class,size,answers,event,cycle,router,node,port,vc,port_kind,wait_cycles\n", f.get());
  for (const Record* r : by_packet()) {
    const Info& i = packets_.at(r->packet);
    const bool at_router = r->event == Event::Arrived || r->event == Event::Departed || r->event == Event::Dropped;
    const bool at_node = r->event == Event::Created || r->event == Event::Delivered;
    const std::string opt = i.kind == kDataPacket ? "" : std::to_string(i.ref);
    fmt::print(f.get(), "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", r->packet, packet_kind_name(i.kind), i.src,
               i.dst, i.traffic_class, i.size, opt, event_name(static_cast<int>(r->event)), r->at,
               at_router ? std::to_string(r->where) : "", at_node ? std::to_string(r->where) : "",
               r->port >= 0 ? std::to_string(r->port) : "", r->vc >= 0 ? std::to_string(r->vc) : "",
               r->event == Event::Departed ? to_string(r->kind) : "",
               r->event == Event::Departed ? std::to_string(r->wait) : "");
  }
}

// One process per source node, one thread per packet; its life as slices:
// the source queue, each router (arrival to departure of the head), each
// channel (departure to the next arrival or the delivery), and instants for
// drops, resends and the delivery.
void PacketTrace::write_json(const std::string& path) const {
  File f = open_for_writing(path);
  std::FILE* out = f.get();
  std::fputs(
      "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ccsim\",\"time_unit\":\"us\"},\"traceEvents\":[\n",
      out);
  bool first = true;
  auto event = [&](const std::string& name, const char* ph, Cycle at, Cycle until, int pid, uint64_t tid,
                   const std::string& args) {
    fmt::print(out, "{}{{\"name\":\"{}\",\"cat\":\"packet\",\"ph\":\"{}\",\"ts\":{},", first ? "" : ",\n", name, ph,
               us(at));
    if (ph[0] == 'X') fmt::print(out, "\"dur\":{},", us(until - at));
    if (ph[0] == 'i') std::fputs("\"s\":\"t\",", out);
    fmt::print(out, "\"pid\":{},\"tid\":{},\"args\":{{{}}}}}", pid, tid, args);
    first = false;
  };
  std::vector<bool> named_node;
  const std::vector<const Record*> records = by_packet();
  for (size_t i = 0; i < records.size();) {
    const uint64_t id = records[i]->packet;
    const Info& info = packets_.at(id);
    const int pid = info.src;
    if (named_node.size() <= static_cast<size_t>(pid)) named_node.resize(pid + 1, false);
    if (!named_node[pid]) {
      event("process_name", "M", 0, 0, pid, 0, fmt::format("\"name\":\"node {}\"", pid));
      named_node[pid] = true;
    }
    const std::string what = info.kind == kDataPacket
                                 ? fmt::format("packet {} to node {}", id, info.dst)
                                 : fmt::format("{} for packet {}", packet_kind_name(info.kind), info.ref);
    event("thread_name", "M", 0, 0, pid, id, fmt::format("\"name\":\"{}\"", what));
    // The open slice: what the packet is doing since `since`.
    std::string doing;
    Cycle since = 0;
    std::string args;
    auto close = [&](Cycle at) {
      if (!doing.empty()) event(doing, "X", since, at, pid, id, args);
      doing.clear();
      args.clear();
    };
    for (; i < records.size() && records[i]->packet == id; ++i) {
      const Record& r = *records[i];
      switch (r.event) {
        case Event::Created:
        case Event::Resent:
          close(r.at);
          if (r.event == Event::Resent) event("resent", "i", r.at, r.at, pid, id, "");
          doing = "source queue", since = r.at;
          break;
        case Event::Injected:
          close(r.at);
          doing = "injection channel", since = r.at;
          break;
        case Event::Arrived:
          close(r.at);
          doing = fmt::format("router {}", r.where), since = r.at;
          args = fmt::format("\"router\":{},\"in_port\":{},\"in_vc\":{}", r.where, r.port, r.vc);
          break;
        case Event::Departed:
          args += fmt::format(",\"out_port\":{},\"out_vc\":{},\"wait_cycles\":{}", r.port, r.vc, r.wait);
          close(r.at);
          doing = fmt::format("{} channel", to_string(r.kind)), since = r.at;
          break;
        case Event::Dropped:
          close(r.at);
          event(fmt::format("dropped at router {}", r.where), "i", r.at, r.at, pid, id,
                fmt::format("\"router\":{}", r.where));
          break;
        case Event::Delivered:
          close(r.at);
          event("delivered", "i", r.at, r.at, pid, id,
                fmt::format("\"node\":{},\"latency_cycles\":{}", r.where, r.at - info.created));
          break;
      }
    }
    close(records[i - 1]->at);
  }
  std::fputs("\n]}\n", out);
}

}  // namespace ccsim
