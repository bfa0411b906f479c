// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the ccsim authors.
//
// Last-hop reservation scheduler of an LHRP switch (per attached endpoint: queued-flit count,
// speculative drop decision, reservation register).
//
// Paper: ../shared/papers/003_4ae6273e4fa61935.txt, Sec. 3.2 (LHRP), 6.3 (queuing threshold),
// 6.4 (combined LHRP + SRP protocol: SRP reservations served by the last-hop scheduler).
// Spec:  ../shared/specs/cbcm-srp-smsrp-lhrp-ecn.md B.9, B.10.4, B.11.1, B.14 #10-#13, C.1.
// C++ reference (bit-accurate): tlm/blocks/last_hop_scheduler.h
//
// Per endpoint e attached to this switch:
//   * queued[e]: flits queued in the switch for e. + flits written (enq lanes), - flits ejected
//     (deq lanes), clamped to [0, 2^CountWidth-1], updated at the end of the cycle.
//   * drop decision: a speculative head (req_spec_i = 1) for e is dropped iff
//     queued[e] >= DropThreshold ("reaches the threshold", Sec. 6.3; ThresholdStrict = 1 gives
//     the "exceeds" (>) wording of Sec. 3.2), using queued[e] as registered at the start of
//     the cycle.
//   * reservation register next_free[e]: a dropped speculative packet, or a reservation
//     request (req_spec_i = 0: an SRP RES in the combined protocol, always granted), gets
//     grant time t = max(now, next_free[e]) and next_free[e] = t + size. Requests of one cycle
//     are served in fixed lane order, back to back: the first grant for e starts at
//     max(now, next_free[e]), each later one where the one before it ends.
// Time is TimeWidth-bit unsigned (now_i from the switch); max() is a plain unsigned compare and
// a cycle's later grants add to the first modulo 2^TimeWidth, so a run must stay below
// 2^TimeWidth cycles (2^32 cycles = 4.3 s at 1 GHz).
//
// Paper values: DropThreshold = 1,000 flits (Table 1), NumEndpoints = 4 (p of the 1056-node
// dragonfly). Ours (spec [X]): the scheduler formula max(now, next_free) / + size, the lane
// counts (NumReqPorts = 15 = switch radix), CountWidth = 16, TimeWidth = 32, SizeWidth = 16.
// Assertions: proven by scripts/formal.py (Yosys reads with FORMAL) and checked in every
// verilated run (Verilator --assert: a failure ends the run naming the block and the cycle).
`ifdef FORMAL
`define CCSIM_CHECKS
`elsif VERILATOR
`define CCSIM_CHECKS
`endif

module ccsim_last_hop_scheduler #(
  parameter int unsigned NumEndpoints    = 4,     // endpoints attached to this switch  [paper]
  parameter int unsigned NumReqPorts     = 15,    // drop/reservation requests per cycle [ours]
  parameter int unsigned NumEnqPorts     = 15,    // flit-write reports per cycle       [ours]
  parameter int unsigned NumDeqPorts     = 4,     // ejection reports per cycle          [ours]
  parameter int unsigned CountWidth      = 16,    // queued-flit counter, saturating    [ours]
  parameter int unsigned DropThreshold   = 1000,  // theta in flits                     [paper]
  parameter int unsigned ThresholdStrict = 0,     // 0: drop at >= theta, 1: at > theta [ours]
  parameter int unsigned TimeWidth       = 32,    // time / next_free width             [ours]
  parameter int unsigned SizeWidth       = 16,    // request size in flits              [ours]
  parameter int unsigned FlitsWidth      = 5,     // flits per enq/deq report           [ours]
  // Derived widths (do not override).
  localparam int unsigned EpWidth = (NumEndpoints > 1) ? $clog2(NumEndpoints) : 1
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  input  logic [TimeWidth-1:0]               now_i,
  // Speculative heads arriving at this switch (spec = 1) and reservation requests (spec = 0).
  input  logic [NumReqPorts-1:0]             req_valid_i,
  input  logic [NumReqPorts-1:0]             req_spec_i,
  input  logic [NumReqPorts*EpWidth-1:0]     req_ep_i,
  input  logic [NumReqPorts*SizeWidth-1:0]   req_size_i,
  output logic [NumReqPorts-1:0]             drop_o,
  output logic [NumReqPorts-1:0]             grant_valid_o,
  output logic [NumReqPorts*TimeWidth-1:0]   grant_time_o,
  // Flits written into the switch for an endpoint / ejected to it this cycle.
  input  logic [NumEnqPorts-1:0]             enq_valid_i,
  input  logic [NumEnqPorts*EpWidth-1:0]     enq_ep_i,
  input  logic [NumEnqPorts*FlitsWidth-1:0]  enq_flits_i,
  input  logic [NumDeqPorts-1:0]             deq_valid_i,
  input  logic [NumDeqPorts*EpWidth-1:0]     deq_ep_i,
  input  logic [NumDeqPorts*FlitsWidth-1:0]  deq_flits_i
`ifdef CCSIM_STATE_PORTS
  // State view for verification (testbench comparisons, lock-step runs), off the block's
  // functional interface: Verilator builds define CCSIM_STATE_PORTS, synthesis does not.
  ,
  output logic [NumEndpoints*CountWidth-1:0] queued_o,
  output logic [NumEndpoints*TimeWidth-1:0]  next_free_o
`endif
);

  // Sizes of all request lanes added up: no overflow.
  localparam int unsigned SumWidth    = SizeWidth + $clog2(NumReqPorts + 1);
  localparam int unsigned EnqSumWidth = FlitsWidth + $clog2(NumEnqPorts + 1);
  localparam int unsigned DeqSumWidth = FlitsWidth + $clog2(NumDeqPorts + 1);
  localparam int unsigned AccWidth    = ((CountWidth > DeqSumWidth) ? CountWidth : DeqSumWidth) +
      EnqSumWidth + 1;
  localparam logic [CountWidth-1:0] CountMax  = {CountWidth{1'b1}};

  logic [NumEndpoints*CountWidth-1:0] queued_q, queued_d;
  // over_q[e]: queued_q[e] is at the drop threshold. Registered beside the count (from queued_d),
  // so that the grant path starts at a flip-flop rather than behind a CountWidth-bit compare.
  logic [NumEndpoints-1:0]            over_q, over_d;

  function automatic logic at_threshold(logic [CountWidth-1:0] queued);
    at_threshold = (ThresholdStrict != 0) ? ((CountWidth+1)'(queued) >  (CountWidth+1)'(DropThreshold)) :
                                          ((CountWidth+1)'(queued) >= (CountWidth+1)'(DropThreshold));
  endfunction
  localparam logic OverAtReset = (ThresholdStrict == 0) && (DropThreshold == 0);
  logic [NumEndpoints*TimeWidth-1:0]  next_free_q, next_free_d;

  // ---------------------------------------------------------------- drops and grants
  // An endpoint's grants of one cycle follow each other from base = max(now, next_free_q): lane p
  // starts at base plus the sizes of the lanes before it granted for the same endpoint (modulo
  // 2^TimeWidth), and next_free ends at base plus all of them. Each is one sum of base and masked
  // sizes, which synthesis maps to a carry-save tree and one adder: the grant path grows with
  // log(NumReqPorts), where a max/add stage per lane chained through the lanes grows with
  // NumReqPorts.
  logic [NumEndpoints*TimeWidth-1:0] base;
  logic [NumReqPorts*SizeWidth-1:0]  granted_size;  // the lane's size if it is granted, else 0
  logic [NumReqPorts*SumWidth-1:0]  earlier;  // sizes granted before lane p for its endpoint
  logic [NumEndpoints*SumWidth-1:0] total;    // sizes granted for endpoint e
  always_comb begin
    for (int unsigned e = 0; e < NumEndpoints; e++) begin
      base[e*TimeWidth +: TimeWidth] = (now_i > next_free_q[e*TimeWidth +: TimeWidth]) ? now_i :
          next_free_q[e*TimeWidth +: TimeWidth];
    end
    for (int unsigned p = 0; p < NumReqPorts; p++) begin
      logic [EpWidth-1:0] ep;
      ep               = req_ep_i[p*EpWidth +: EpWidth];
      drop_o[p]        = req_valid_i[p] && req_spec_i[p] && over_q[ep];
      grant_valid_o[p] = drop_o[p] || (req_valid_i[p] && !req_spec_i[p]);
      granted_size[p*SizeWidth +: SizeWidth] = req_size_i[p*SizeWidth +: SizeWidth] &
          {SizeWidth{grant_valid_o[p]}};
    end
    for (int unsigned p = 0; p < NumReqPorts; p++) begin
      logic [SumWidth-1:0]  sum;
      logic [SizeWidth-1:0] term;
      sum = '0;
      for (int unsigned q = 0; q < p; q++) begin
        term = granted_size[q*SizeWidth +: SizeWidth] &
            {SizeWidth{req_ep_i[q*EpWidth +: EpWidth] == req_ep_i[p*EpWidth +: EpWidth]}};
        sum  = sum + SumWidth'(term);
      end
      earlier[p*SumWidth +: SumWidth] = sum;
    end
    for (int unsigned e = 0; e < NumEndpoints; e++) begin
      logic [SumWidth-1:0]  sum;
      logic [SizeWidth-1:0] term;
      sum = '0;
      for (int unsigned q = 0; q < NumReqPorts; q++) begin
        term = granted_size[q*SizeWidth +: SizeWidth] & {SizeWidth{req_ep_i[q*EpWidth +: EpWidth] == EpWidth'(e)}};
        sum  = sum + SumWidth'(term);
      end
      total[e*SumWidth +: SumWidth] = sum;
    end
    for (int unsigned p = 0; p < NumReqPorts; p++) begin
      grant_time_o[p*TimeWidth +: TimeWidth] = grant_valid_o[p] ?
          TimeWidth'(base[req_ep_i[p*EpWidth +: EpWidth]*TimeWidth +: TimeWidth] +
                     TimeWidth'(earlier[p*SumWidth +: SumWidth])) : '0;
    end
    for (int unsigned e = 0; e < NumEndpoints; e++) begin
      logic granted;
      granted = 1'b0;
      for (int unsigned q = 0; q < NumReqPorts; q++) begin
        granted = granted || (grant_valid_o[q] && req_ep_i[q*EpWidth +: EpWidth] == EpWidth'(e));
      end
      next_free_d[e*TimeWidth +: TimeWidth] = granted ?
          TimeWidth'(base[e*TimeWidth +: TimeWidth] + TimeWidth'(total[e*SumWidth +: SumWidth])) :
          next_free_q[e*TimeWidth +: TimeWidth];
    end
  end

  // ---------------------------------------------------------------- queued-flit counts
  always_comb begin
    for (int unsigned e = 0; e < NumEndpoints; e++) begin
      logic [EnqSumWidth-1:0] added;
      logic [DeqSumWidth-1:0] removed;
      logic [AccWidth-1:0]    acc;
      added   = '0;
      removed = '0;
      // Sums of masked terms, not conditional adds: a carry-save tree once synthesized.
      for (int unsigned l = 0; l < NumEnqPorts; l++) begin
        added = added + (EnqSumWidth'(enq_flits_i[l*FlitsWidth +: FlitsWidth]) &
            {EnqSumWidth{enq_valid_i[l] && enq_ep_i[l*EpWidth +: EpWidth] == EpWidth'(e)}});
      end
      for (int unsigned l = 0; l < NumDeqPorts; l++) begin
        removed = removed + (DeqSumWidth'(deq_flits_i[l*FlitsWidth +: FlitsWidth]) &
            {DeqSumWidth{deq_valid_i[l] && deq_ep_i[l*EpWidth +: EpWidth] == EpWidth'(e)}});
      end
      // clamp(queued + added - removed, 0, 2^CountWidth - 1): one sum, whose sign AccWidth's top
      // bit holds (queued + added and removed are both below 2^(AccWidth-1)), then the clamps.
      acc = AccWidth'(queued_q[e*CountWidth +: CountWidth]) + AccWidth'(added) - AccWidth'(removed);
      if (acc[AccWidth-1]) acc = '0;
      queued_d[e*CountWidth +: CountWidth] = (acc > AccWidth'(CountMax)) ? CountMax : acc[CountWidth-1:0];
      over_d[e] = at_threshold(queued_d[e*CountWidth +: CountWidth]);
`ifdef CCSIM_CHECKS
  // verilator lint_off CMPCONST
  // verilator lint_off UNSIGNED
  // verilator lint_off WIDTH
      // A queued-flit count never wraps: it moves the way of its net change (scripts/formal.py).
      if (rst_ni && added >= removed) assert (queued_d[e*CountWidth +: CountWidth] >=
          queued_q[e*CountWidth +: CountWidth]);
      if (rst_ni && removed >= added) assert (queued_d[e*CountWidth +: CountWidth] <=
          queued_q[e*CountWidth +: CountWidth]);
  // verilator lint_on WIDTH
  // verilator lint_on UNSIGNED
  // verilator lint_on CMPCONST
`endif
    end
  end

`ifdef CCSIM_CHECKS
`ifdef FORMAL
  // Input legality: time stays far below 2^TimeWidth (the header's precondition).
  always_comb assume (now_i < TimeWidth'(1) << (TimeWidth - 2));
`endif
  // verilator lint_off WIDTH
  // A grant is never in the past, nor before the endpoint's earlier grants end. In simulation
  // this is checked while the precondition holds: lhs_small's 12-bit time wraps on purpose, to
  // check the RTL against the reference past it.
  always_comb begin
    for (int unsigned p = 0; p < NumReqPorts; p++) begin
      if (rst_ni && grant_valid_o[p] && now_i < TimeWidth'(1) << (TimeWidth - 2) &&
          next_free_q[req_ep_i[p*EpWidth +: EpWidth]*TimeWidth +: TimeWidth] <
              TimeWidth'(1) << (TimeWidth - 2)) begin
        assert (grant_time_o[p*TimeWidth +: TimeWidth] >= now_i);
        assert (grant_time_o[p*TimeWidth +: TimeWidth] >=
            next_free_q[req_ep_i[p*EpWidth +: EpWidth]*TimeWidth +: TimeWidth]);
      end
    end
  end
  // verilator lint_on WIDTH
  // The registered threshold bit agrees with the registered count.
  always_comb begin
    for (int unsigned e = 0; e < NumEndpoints; e++) begin
      if (rst_ni) assert (over_q[e] == at_threshold(queued_q[e*CountWidth +: CountWidth]));
    end
  end
`endif

`ifdef CCSIM_STATE_PORTS
  assign queued_o    = queued_q;
  assign next_free_o = next_free_q;
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      queued_q    <= '0;
      over_q      <= {NumEndpoints{OverAtReset}};
      next_free_q <= '0;
    end else begin
      queued_q    <= queued_d;
      over_q      <= over_d;
      next_free_q <= next_free_d;
    end
  end

endmodule
