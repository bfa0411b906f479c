// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the ccsim authors.
//
// Contention counters for contention-based adaptive routing (Base / Hybrid) plus the ECtN
// (Explicit Contention Notification) partial and combined arrays.
//
// Paper: ../shared/papers/002_2c774bb3d32a0357.txt, Sec. III-B (Base), III-C (Hybrid),
// III-D and IV-A (ECtN), VI-B (hardware cost, 4-bit broadcast values).
// Spec:  ../shared/specs/qcn-switch-contention-counters-selftuned.md B.3, B.5, B.8.
// C++ reference (bit-accurate): tlm/blocks/contention_counters.h
//
// Contention counters (one per output port): "When the header of a packet reaches its input
// buffer head, the routing mechanism determines its minimal output path and increases the
// corresponding contention counter ... counters are decremented only when a packet tail is
// removed from the input buffer." Several increments and decrements arrive per cycle (lanes
// inc_*/dec_*); every counter moves by (#inc lanes naming it) - (#dec lanes naming it), clamped
// to [0, 2^CounterWidth-1]. contended[o] = count[o] >= Threshold (the paper's own analysis needs
// >=, spec B.3.3).
//
// ECtN: partial counters, one per global link of the group, incremented/decremented by the
// packets that enter the group towards a remote group (lanes pinc_*/pdec_*, same clamping).
// Every BroadcastPeriod cycles (cycle 0, Period, 2*Period, ... after reset) bcast_valid_o is
// high and bcast_partial_o carries the partial array saturated to SentWidth bits (the paper
// sends 4-bit values). Arrays received from the other NumGroupRouters-1 routers (rx_* lanes;
// rx_router_i in 0..NumGroupRouters-2 numbers the *other* routers) overwrite the stored copy.
// The combined array = own exact partial + sum of the stored received arrays; it is kept as
// the own partial plus a running sum of the received arrays (updated by new - old on every
// reception), so no adder tree over all routers is needed. combined_contended[l] =
// combined[l] >= CombinedThreshold.
//
// Precondition: within one cycle, the rx lanes carry distinct rx_router_i values.
// All outputs are functions of registered state (updates of cycle t are visible in cycle t+1).
//
// Paper values: Threshold = 6 (Base, ECtN; 7 for Hybrid), CombinedThreshold = 10,
// BroadcastPeriod = 100, SentWidth = 4, 16,512-node dragonfly: NumPorts = 31,
// NumGlobalLinks = 128, NumGroupRouters = 16. Ours: the lane counts, CounterWidth,
// PartialWidth (exact own partial counters, 6 bits hold the paper's 40 active heads).
// Assertions: proven by scripts/formal.py (Yosys reads with FORMAL) and checked in every
// verilated run (Verilator --assert: a failure ends the run naming the block and the cycle).
`ifdef FORMAL
`define CCSIM_CHECKS
`elsif VERILATOR
`define CCSIM_CHECKS
`endif

module ccsim_contention_counters #(
  parameter int unsigned NumPorts          = 31,   // output ports (one contention counter each)
  parameter int unsigned NumIncPorts       = 4,    // increment lanes per cycle        [ours]
  parameter int unsigned NumDecPorts       = 4,    // decrement lanes per cycle        [ours]
  parameter int unsigned CounterWidth      = 7,    // exact up to 127 >= 85 input VCs  [ours]
  parameter int unsigned Threshold         = 6,    // th: contended when count >= th  [paper]
  parameter int unsigned NumGlobalLinks    = 128,  // ECtN counters per array (a*h)    [paper]
  parameter int unsigned NumGroupRouters   = 16,   // a: routers per group             [paper]
  parameter int unsigned PartialWidth      = 6,    // own partial counter width        [ours]
  parameter int unsigned SentWidth         = 4,    // broadcast value width (saturate) [paper]
  parameter int unsigned BroadcastPeriod   = 100,  // cycles between broadcasts        [paper]
  parameter int unsigned CombinedThreshold = 10,   // combined counter misroute threshold [paper]
  parameter int unsigned NumRxPorts        = 1,    // received arrays per cycle        [ours]
  // Derived widths (do not override).
  localparam int unsigned PortWidth     = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  localparam int unsigned LinkWidth     = (NumGlobalLinks > 1) ? $clog2(NumGlobalLinks) : 1,
  localparam int unsigned RouterWidth   = (NumGroupRouters > 2) ? $clog2(NumGroupRouters - 1) : 1,
  localparam int unsigned RxSumWidth    = $clog2((NumGroupRouters - 1) * ((1 << SentWidth) - 1) + 1),
  localparam int unsigned CombinedWidth = $clog2((1 << PartialWidth) - 1 +
                                                 (NumGroupRouters - 1) * ((1 << SentWidth) - 1) + 1)
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  // Contention counters: head reached an input-VC front (inc) / tail left the input buffer (dec),
  // naming the packet's minimal output port.
  input  logic [NumIncPorts-1:0]                    inc_valid_i,
  input  logic [NumIncPorts*PortWidth-1:0]          inc_port_i,
  input  logic [NumDecPorts-1:0]                    dec_valid_i,
  input  logic [NumDecPorts*PortWidth-1:0]          dec_port_i,
  // ECtN partial counters, indexed by the group's global link towards the destination group.
  input  logic [NumIncPorts-1:0]                    pinc_valid_i,
  input  logic [NumIncPorts*LinkWidth-1:0]          pinc_link_i,
  input  logic [NumDecPorts-1:0]                    pdec_valid_i,
  input  logic [NumDecPorts*LinkWidth-1:0]          pdec_link_i,
  // ECtN partial arrays received from the other routers of the group.
  input  logic [NumRxPorts-1:0]                     rx_valid_i,
  input  logic [NumRxPorts*RouterWidth-1:0]         rx_router_i,
  input  logic [NumRxPorts*NumGlobalLinks*SentWidth-1:0] rx_partial_i,
  // Outputs.
  output logic [NumPorts*CounterWidth-1:0]          count_o,
  output logic [NumPorts-1:0]                       contended_o,
  output logic [NumGlobalLinks*PartialWidth-1:0]    partial_o,
  output logic [NumGlobalLinks*CombinedWidth-1:0]   combined_o,
  output logic [NumGlobalLinks-1:0]                 combined_contended_o,
  output logic                                      bcast_valid_o,
  output logic [NumGlobalLinks*SentWidth-1:0]       bcast_partial_o
);

  localparam int unsigned IncCntWidth = $clog2(NumIncPorts + 1);
  localparam int unsigned DecCntWidth = $clog2(NumDecPorts + 1);
  localparam int unsigned TimerWidth  = (BroadcastPeriod > 1) ? $clog2(BroadcastPeriod) : 1;
  localparam int unsigned SatWidth = ((PartialWidth > SentWidth) ? PartialWidth : SentWidth) + 1;
  localparam int unsigned ArrayWidth = NumGlobalLinks * SentWidth;
  localparam logic [TimerWidth-1:0] TimerLast = TimerWidth'(BroadcastPeriod - 1);

  // ---------------------------------------------------------------- state
  logic [NumPorts*CounterWidth-1:0]       count_q, count_d;
  logic [NumGlobalLinks*PartialWidth-1:0] partial_q, partial_d;
  logic [NumGlobalLinks*RxSumWidth-1:0]   rx_sum_q, rx_sum_d;
  logic [ArrayWidth-1:0]                  rx_mem_q [0:NumGroupRouters-2];  // last array per router
  logic [NumGroupRouters-2:0]             rx_seen_q, rx_seen_d;  // router r has sent an array
  logic [TimerWidth-1:0]                  timer_q, timer_d;

  // ---------------------------------------------------------------- contention counters
  always_comb begin
    for (int unsigned o = 0; o < NumPorts; o++) begin
      logic [IncCntWidth-1:0]            n_inc;
      logic [DecCntWidth-1:0]            n_dec;
      logic [CounterWidth+IncCntWidth:0] t;
      n_inc = '0;
      n_dec = '0;
      for (int unsigned l = 0; l < NumIncPorts; l++) begin
        if (inc_valid_i[l] && inc_port_i[l*PortWidth +: PortWidth] == PortWidth'(o)) begin
          n_inc = n_inc + 1'b1;
        end
      end
      for (int unsigned l = 0; l < NumDecPorts; l++) begin
        if (dec_valid_i[l] && dec_port_i[l*PortWidth +: PortWidth] == PortWidth'(o)) begin
          n_dec = n_dec + 1'b1;
        end
      end
      // clamp(count + n_inc - n_dec, 0, 2^CounterWidth - 1)
      t = (CounterWidth+IncCntWidth+1)'(count_q[o*CounterWidth +: CounterWidth]) +
          (CounterWidth+IncCntWidth+1)'(n_inc);
      t = (t >= (CounterWidth+IncCntWidth+1)'(n_dec)) ? t - (CounterWidth+IncCntWidth+1)'(n_dec) : '0;
      count_d[o*CounterWidth +: CounterWidth] =
          (t > (CounterWidth+IncCntWidth+1)'({CounterWidth{1'b1}})) ? {CounterWidth{1'b1}} :
                                                                      t[CounterWidth-1:0];
      contended_o[o] = (count_q[o*CounterWidth +: CounterWidth] >= CounterWidth'(Threshold));
`ifdef CCSIM_CHECKS
  // verilator lint_off CMPCONST
  // verilator lint_off UNSIGNED
  // verilator lint_off WIDTH
      // A counter never wraps: it moves the way of its net change (scripts/formal.py).
      if (rst_ni && n_inc >= n_dec) assert (count_d[o*CounterWidth +: CounterWidth] >=
          count_q[o*CounterWidth +: CounterWidth]);
      if (rst_ni && n_dec >= n_inc) assert (count_d[o*CounterWidth +: CounterWidth] <=
          count_q[o*CounterWidth +: CounterWidth]);
  // verilator lint_on WIDTH
  // verilator lint_on UNSIGNED
  // verilator lint_on CMPCONST
`endif
    end
  end

  // ---------------------------------------------------------------- ECtN partial array
  always_comb begin
    for (int unsigned g = 0; g < NumGlobalLinks; g++) begin
      logic [IncCntWidth-1:0]            n_inc;
      logic [DecCntWidth-1:0]            n_dec;
      logic [PartialWidth+IncCntWidth:0] t;
      n_inc = '0;
      n_dec = '0;
      for (int unsigned l = 0; l < NumIncPorts; l++) begin
        if (pinc_valid_i[l] && pinc_link_i[l*LinkWidth +: LinkWidth] == LinkWidth'(g)) begin
          n_inc = n_inc + 1'b1;
        end
      end
      for (int unsigned l = 0; l < NumDecPorts; l++) begin
        if (pdec_valid_i[l] && pdec_link_i[l*LinkWidth +: LinkWidth] == LinkWidth'(g)) begin
          n_dec = n_dec + 1'b1;
        end
      end
      t = (PartialWidth+IncCntWidth+1)'(partial_q[g*PartialWidth +: PartialWidth]) +
          (PartialWidth+IncCntWidth+1)'(n_inc);
      t = (t >= (PartialWidth+IncCntWidth+1)'(n_dec)) ? t - (PartialWidth+IncCntWidth+1)'(n_dec) : '0;
      partial_d[g*PartialWidth +: PartialWidth] =
          (t > (PartialWidth+IncCntWidth+1)'({PartialWidth{1'b1}})) ? {PartialWidth{1'b1}} :
                                                                      t[PartialWidth-1:0];
    end
  end

  // ---------------------------------------------------------------- ECtN received arrays
  // rx_sum[l] = sum over the other routers r of rx_mem[r][l]; kept by adding new - old.
  always_comb begin
    rx_sum_d  = rx_sum_q;
    rx_seen_d = rx_seen_q;
    for (int unsigned p = 0; p < NumRxPorts; p++) begin
      logic [ArrayWidth-1:0] old_array;
      old_array = '0;
      if (rx_valid_i[p]) begin
        old_array = rx_seen_q[rx_router_i[p*RouterWidth +: RouterWidth]] ?
                    rx_mem_q[rx_router_i[p*RouterWidth +: RouterWidth]] : '0;
        for (int unsigned g = 0; g < NumGlobalLinks; g++) begin
          rx_sum_d[g*RxSumWidth +: RxSumWidth] = rx_sum_d[g*RxSumWidth +: RxSumWidth]
              + RxSumWidth'(rx_partial_i[p*ArrayWidth + g*SentWidth +: SentWidth])
              - RxSumWidth'(old_array[g*SentWidth +: SentWidth]);
        end
        rx_seen_d[rx_router_i[p*RouterWidth +: RouterWidth]] = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------- outputs
  always_comb begin
    for (int unsigned g = 0; g < NumGlobalLinks; g++) begin
      logic [CombinedWidth-1:0] c;
      logic [PartialWidth-1:0]  own;
      logic [SatWidth-1:0]      own_wide;  // own partial value, widened for saturation to SentWidth
      own = partial_q[g*PartialWidth +: PartialWidth];
      c = CombinedWidth'(own) + CombinedWidth'(rx_sum_q[g*RxSumWidth +: RxSumWidth]);
      combined_o[g*CombinedWidth +: CombinedWidth] = c;
      combined_contended_o[g] = (c >= CombinedWidth'(CombinedThreshold));
      own_wide = SatWidth'(own);
      bcast_partial_o[g*SentWidth +: SentWidth] = (own_wide > SatWidth'({SentWidth{1'b1}})) ?
          {SentWidth{1'b1}} :
                                                                          own_wide[SentWidth-1:0];
    end
  end

  assign timer_d       = (timer_q == TimerLast) ? '0 : timer_q + 1'b1;
  assign bcast_valid_o = (timer_q == '0);
  assign count_o       = count_q;
  assign partial_o     = partial_q;

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q   <= '0;
      partial_q <= '0;
      rx_sum_q  <= '0;
      rx_seen_q <= '0;
      timer_q   <= '0;
    end else begin
      count_q   <= count_d;
      partial_q <= partial_d;
      rx_sum_q  <= rx_sum_d;
      rx_seen_q <= rx_seen_d;
      timer_q   <= timer_d;
    end
  end

  // Received arrays: no reset (SRAM-like); rx_seen_q masks words never written.
  always_ff @(posedge clk_i) begin
    for (int unsigned p = 0; p < NumRxPorts; p++) begin
      if (rx_valid_i[p]) begin
        rx_mem_q[rx_router_i[p*RouterWidth +: RouterWidth]] <=
            rx_partial_i[p*ArrayWidth +: ArrayWidth];
      end
    end
  end

endmodule
