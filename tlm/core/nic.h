// Network interface: a TLM-2.0 target that accepts messages, keeps one send
// queue per destination (InfiniBand queue pairs) served round robin per packet
// (or per message, one message at a time: traffic.source_order),
// segments messages into packets, injects one flit per cycle with credit flow
// control, and reassembles arriving packets. The source queue holds at most
// traffic.source_queue data packets waiting to start (0: no bound); a message
// that does not fit is refused. Its delay counts in packet latency.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "core/deferred_effects.h"
#include "core/fifo.h"
#include "core/flat_map.h"
#include "core/link.h"
#include "core/packet.h"
#include "congestion/protocol_context.h"
#include "core/scheduler.h"

namespace ccsim {

class Network;

class Nic final : public sc_core::sc_module, public Component, public NicView {
 public:
  tlm_utils::simple_target_socket<Nic> socket;

  Nic(sc_core::sc_module_name name, int id, Network* net);

  void connect(Link* to_router, int router_depth, int num_vcs, int vcs_per_class, Link* from_router);
  void step(Cycle now) override;

  // Queues a 1-flit control packet; control packets go before data.
  void send_control(Packet* p, Cycle now) override;
  // Queues data packet `p` again (a dropped packet to retransmit) at cycle
  // `at`: until then it waits aside, without holding up its destination's
  // queue; then it goes ahead of the other packets to its destination.
  void requeue(Packet* p, Cycle at, Cycle now);

  int id() const override { return id_; }
  Component* router() const { return out_->downstream; }  // the switch it is attached to
  // Packets waiting in the source queues (not yet started).
  int64_t queued_packets() const { return queued_packets_; }
  size_t control_backlog() const { return control_.size(); }  // control packets waiting to be sent
  template <typename F>
  void for_each_packet(F&& f) const;
  int credits(int vc) const override { return credits_[vc]; }

  // step() in phases: take_arrivals (credits and flits off the links; no wake-ups),
  // deliver_arrivals (statistics, the ledger, the packets deliveries create), send, and
  // wake_if_busy. In a parallel batch (parallel_nics.h) the NIC's wake-ups and injected
  // flits go to `to` between defer_shared_effects and stop_deferring; take_arrivals and
  // send then run on any thread, deliver_arrivals in the batch's order on one thread, so
  // everything shared happens in the order one thread's step() gives it.
  void take_arrivals(Cycle now);
  void deliver_arrivals(Cycle now);
  void send(Cycle now);
  void wake_if_busy(Cycle now);  // next cycle, while it has something to send
  void defer_shared_effects(DeferredEffects* to) { deferred_ = to; }
  void stop_deferring() { deferred_ = nullptr; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void inject(Cycle now);
  Packet* next_packet(Cycle now, int& vc);
  int free_vc(const Packet& p);  // a VC of p's class with room for it, or -1
  int queue_for(int dst);
  void release_due(Cycle now);  // timed retransmissions whose time has come
  // Wakes the component of scheduler slot `target` at `at`, now or after the batch's phases (defer_shared_effects).
  void wake(int32_t target, Cycle at);

  struct DestQueue {
    Fifo<Packet*> packets;
    int dst = -1;
  };
  int id_;
  Network* net_;
  Link* out_ = nullptr;
  Link* in_ = nullptr;
  std::vector<int> credits_;
  int vcs_per_class_ = 1;
  int vc_rr_ = 0;
  // Queues of destinations with packets waiting; released when they empty.
  FlatIntMap dest_slot_;
  std::vector<DestQueue> dests_;
  std::vector<int> free_slots_;
  Fifo<int> active_;       // slots with packets, in round-robin order
  Fifo<Packet*> control_;  // control packets to send, in order
  struct Timed {
    Cycle at;
    Packet* p;
    bool operator>(const Timed& o) const { return at != o.at ? at > o.at : p->id > o.p->id; }
  };
  std::vector<Timed> timed_;  // min-heap of retransmissions by time
  int64_t queued_packets_ = 0;
  Packet* sending_ = nullptr;  // packet being injected
  int sent_flits_ = 0;
  int send_vc_ = 0;
  // The flits taken and not yet delivered (a packet each, and whether it was its tail).
  struct Ejected {
    Packet* p;
    bool tail;
  };
  std::vector<Ejected> ejected_;
  DeferredEffects* deferred_ = nullptr;  // defer_shared_effects()
};

template <typename F>
void Nic::for_each_packet(F&& f) const {
  for (auto& d : dests_)
    for (size_t i = 0; i < d.packets.size(); ++i) f(d.packets[i]);
  for (size_t i = 0; i < control_.size(); ++i) f(control_[i]);
  for (auto& t : timed_) f(t.p);
  if (sending_) f(sending_);
}

}  // namespace ccsim
