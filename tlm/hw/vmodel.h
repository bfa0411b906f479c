// A verilated --cc block with clk_i / rst_ni, clocked in lock step with its C++ reference: by
// its owner in the network (router or NIC, RTL in the loop) or by a testbench (tb/). Cycle
// protocol: inputs are set with clk_i low, eval() settles the combinational outputs (compare
// them now), rise(cycle) makes the clock edge of cycle `cycle`. An optional VCD covers a cycle
// window; VCD time is 10 units per cycle: settled inputs at 10*cycle, registered values at
// 10*cycle + 5.
#pragma once
#include <cassert>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "rtl_assertion.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

namespace ccsim::hw {
void write_gtkw_for(const std::string& vcd, const char* rtl_module);  // gtkw.cpp
void write_coverage(VerilatedContext& ctx);                           // coverage_dump.cpp
}  // namespace ccsim::hw

namespace ccsim::hw {

template <class Model>
class VModel {
 public:
  // vcd_path empty: no trace. Otherwise cycles [start, start + cycles) are written and, if
  // `module` names the RTL module, a GTKWave save file beside the VCD when done. The model
  // leaves the constructor reset (not traced).
  explicit VModel(const std::string& vcd_path = "", int64_t start = 0,
                  int64_t cycles = std::numeric_limits<int64_t>::max() / 2, const char* module = nullptr)
      : ctx_(std::make_unique<VerilatedContext>()),
        vcd_path_(vcd_path),
        module_(module),
        start_(start),
        end_(start + cycles) {
    if (!vcd_path.empty()) ctx_->traceEverOn(true);
    model_ = std::make_unique<Model>(ctx_.get(), "TOP");
    if (!vcd_path.empty()) {
      vcd_ = std::make_unique<VerilatedVcdC>();
      model_->trace(vcd_.get(), 99);
      vcd_->open(vcd_path.c_str());
    }
    model_->clk_i = 0;
    model_->rst_ni = 1;
    model_->eval();
    model_->rst_ni = 0;
    model_->eval();
    model_->clk_i = 1;
    model_->eval();
    model_->clk_i = 0;
    model_->rst_ni = 1;
    model_->eval();
  }
  ~VModel() {
    model_->final();
#ifdef CCSIM_RTL_COVERAGE
    write_coverage(*ctx_);
#endif
    if (vcd_) {
      vcd_->close();
      if (module_) write_gtkw_for(vcd_path_, module_);
    }
    // The model's scopes (its assertions' %m) unregister from the thread's current context:
    // make it this model's, which outlives the model, not another model's already destroyed.
    Verilated::threadContextp(ctx_.get());
    vcd_.reset();
    model_.reset();
  }
  VModel(const VModel&) = delete;
  VModel& operator=(const VModel&) = delete;

  Model& m() { return *model_; }
  const Model& m() const { return *model_; }
  void eval() {
    checked_eval(next_cycle_);
    settled_ = true;
  }
  // Needs an eval() since the last edge: it is what brings clk_i low for Verilator (below).
  void rise(int64_t cycle) {
    assert(settled_ && "rise() without eval(): Verilator would see no rising edge");
    settled_ = false;
    next_cycle_ = cycle + 1;
    const bool dump = vcd_ && cycle >= start_ && cycle < end_;
    if (dump) vcd_->dump(static_cast<uint64_t>(cycle) * 10);
    model_->clk_i = 1;
    checked_eval(cycle);
    if (dump) vcd_->dump(static_cast<uint64_t>(cycle) * 10 + 5);
    // The falling edge needs no eval() of its own: no block has negedge logic, and the next
    // eval() (after the next cycle's inputs are driven) settles it. Every eval() re-runs the
    // input-combinational logic, the larger part of a model's cost.
    model_->clk_i = 0;
  }
  // The edge of the cycle after the last one (a testbench counting cycles from 0).
  void rise() { rise(next_cycle_); }
  // The asynchronous reset asserted between clock edges: the registers take their reset values
  // at once, with no edge (a testbench compares the outputs now), until release_reset().
  void hold_reset() {
    model_->rst_ni = 0;
    eval();
  }
  void release_reset() {
    model_->rst_ni = 1;
    eval();
  }
  // Asynchronous active-low reset pulse spanning one clock edge (traced like any edge).
  void reset() {
    model_->rst_ni = 0;
    eval();
    rise();
    model_->rst_ni = 1;
    eval();
  }

 private:
  // A failed RTL assertion (rtl_assertion.h) becomes one line naming the model and the cycle.
  void checked_eval(int64_t cycle) {
    model_->eval();
    const std::string failed = take_rtl_assertion_failure();
    if (!failed.empty())
      throw RtlAssertionFailure(std::string("RTL assertion failed in ") + model_->modelName() + " at cycle " +
                                std::to_string(cycle) + " (" + failed +
                                "; the %Error line before names the assertion and the instance)");
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  std::string vcd_path_;
  const char* module_;
  int64_t start_, end_;
  int64_t next_cycle_ = 0;
  bool settled_ = true;  // the constructor ends with an eval()
};

}  // namespace ccsim::hw
