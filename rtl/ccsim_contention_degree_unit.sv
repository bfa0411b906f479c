// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the ccsim authors.
//
// Contention-degree moving-average unit (CBCM congestion detection at a router).
//
// Paper: ../shared/papers/000_4abd1b2c8ca2b731.txt, Sec. IV-B1 (randomized contention
// degree D_cr, moving averages, metric) and Sec. V-D (storage: FIFO of samples + running sum).
// Spec:  ../shared/specs/cbcm-srp-smsrp-lhrp-ecn.md A.5.2, A.5.3, A.8.2.
// C++ reference (bit-accurate): tlm/blocks/contention_degree_unit.h
//
// One instance per router covers all Radix output ports. Every clock cycle it takes the
// randomized contention degree D_cr[o] of every output o (number of inputs whose randomly
// selected VC request targets o) and keeps, per output:
//   * SD   = sum of the last NumSamples D_cr samples            (MA(D_cr)  = SD / N)
//   * the max and min of D_cr over each BoundSampleInterval-cycle interval, and
//     SMax / SMin = sums of the last NumBoundSamples interval maxima / minima
//                                                                (MA(max) = SMax / M, ...)
//   * congested[o] = metric > MetricThreshold with
//       metric = MA(D_cr) - (MA(max D_cr) - MA(min D_cr)) / 2
//     evaluated exactly in integers (no rounding):
//       2*M*SD > N*(SMax - SMin) + 2*M*N*MetricThreshold
//     (SMax >= SMin always, because each pushed max is >= the min pushed with it).
//
// Storage: the sample FIFO of all outputs is one memory of NumSamples words of Radix*W bits
// (one read + one write of the same address per cycle, shared pointer), the interval maxima and
// minima one memory of NumBoundSamples words of 2*Radix*W bits. Memories are not reset; a
// "window full" flag per FIFO makes the popped value read as 0 until the FIFO has wrapped once,
// which is exactly a zero-initialised FIFO.
//
// Timing: the sample taken in cycle t is in the sums (and so in congested_o) from cycle t+1 on
// (one register stage, spec A.5.3).
//
// Parameters in the paper: NumSamples = 100, BoundSampleInterval = 10, NumBoundSamples = 10,
// MetricThreshold = 1 ("If the metric is greater than one"). Ours: NumInputs (defaults to Radix).
// Assertions: proven by scripts/formal.py (Yosys reads with FORMAL) and checked in every
// verilated run (Verilator --assert: a failure ends the run naming the block and the cycle).
`ifdef FORMAL
`define CCSIM_CHECKS
`elsif VERILATOR
`define CCSIM_CHECKS
`endif

module ccsim_contention_degree_unit #(
  parameter int unsigned Radix               = 64,   // output ports covered by this instance
  parameter int unsigned NumInputs           = Radix, // input ports: D_cr[o] <= NumInputs
  parameter int unsigned NumSamples          = 100,  // N, samples in MA(D_cr)           [paper]
  parameter int unsigned BoundSampleInterval = 10,   // B, cycles per max/min interval   [paper]
  parameter int unsigned NumBoundSamples     = 10,   // M, samples in MA(max), MA(min)   [paper]
  parameter int unsigned MetricThreshold     = 1,    // congested when metric > this     [paper]
  // Derived widths (do not override).
  localparam int unsigned DegreeWidth   = $clog2(NumInputs + 1),
  localparam int unsigned SumWidth      = $clog2(NumSamples * NumInputs + 1),
  localparam int unsigned BoundSumWidth = $clog2(NumBoundSamples * NumInputs + 1)
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // D_cr of every output for this cycle; output o at bits [o*DegreeWidth +: DegreeWidth].
  input  logic [Radix*DegreeWidth-1:0]    dcr_i,
  // congested[o]: metric > MetricThreshold over the samples up to the previous cycle.
  output logic [Radix-1:0]                congested_o
`ifdef CCSIM_STATE_PORTS
  // State view for verification (testbench comparisons, lock-step runs), off the block's
  // functional interface: Verilator builds define CCSIM_STATE_PORTS, synthesis does not.
  // Here the running sums (registered).
  ,
  output logic [Radix*SumWidth-1:0]       sum_dcr_o,
  output logic [Radix*BoundSumWidth-1:0]  sum_max_o,
  output logic [Radix*BoundSumWidth-1:0]  sum_min_o
`endif
);

  localparam int unsigned SamplePtrWidth = (NumSamples > 1) ? $clog2(NumSamples) : 1;
  localparam int unsigned BoundPtrWidth  = (NumBoundSamples > 1) ? $clog2(NumBoundSamples) : 1;
  localparam int unsigned PhaseWidth     = (BoundSampleInterval > 1) ?
                                           $clog2(BoundSampleInterval) : 1;
  localparam int unsigned BoundWidth = 2 * DegreeWidth;  // one output's {max, min} in the bound memory
  // Widths of the exact integer comparison 2*M*SD > N*(SMax-SMin) + 2*M*N*Thr.
  localparam int unsigned LhsMax    = 2 * NumBoundSamples * NumSamples * NumInputs;
  localparam int unsigned RhsMax    = NumSamples * NumBoundSamples * NumInputs +
                                      2 * NumBoundSamples * NumSamples * MetricThreshold;
  localparam int unsigned CmpWidth  = $clog2(((LhsMax > RhsMax) ? LhsMax : RhsMax) + 1);
  localparam int unsigned LhsFactor = 2 * NumBoundSamples;
  localparam int unsigned RhsOffset = 2 * NumBoundSamples * NumSamples * MetricThreshold;

  localparam logic [SamplePtrWidth-1:0] SamplePtrLast = SamplePtrWidth'(NumSamples - 1);
  localparam logic [BoundPtrWidth-1:0]  BoundPtrLast  = BoundPtrWidth'(NumBoundSamples - 1);
  localparam logic [PhaseWidth-1:0]     PhaseLast     = PhaseWidth'(BoundSampleInterval - 1);

  // ---------------------------------------------------------------- state
  logic [Radix*DegreeWidth-1:0] sample_mem_q [0:NumSamples-1];
  logic [Radix*BoundWidth-1:0]  bound_mem_q  [0:NumBoundSamples-1];
  logic [SamplePtrWidth-1:0]    sample_ptr_q, sample_ptr_d;
  logic [BoundPtrWidth-1:0]     bound_ptr_q,  bound_ptr_d;
  logic [PhaseWidth-1:0]        phase_q,      phase_d;
  logic                           sample_full_q, sample_full_d;  // sample FIFO has wrapped once
  logic                           bound_full_q,  bound_full_d;   // bound FIFO has wrapped once
  logic [Radix*DegreeWidth-1:0]   cur_max_q, cur_max_d;          // max/min of this interval so far
  logic [Radix*DegreeWidth-1:0]   cur_min_q, cur_min_d;
  logic [Radix*SumWidth-1:0]      sum_dcr_q, sum_dcr_d;
  logic [Radix*BoundSumWidth-1:0] sum_max_q, sum_max_d;
  logic [Radix*BoundSumWidth-1:0] sum_min_q, sum_min_d;

  // ---------------------------------------------------------------- datapath
  logic [Radix*DegreeWidth-1:0] oldest_sample;  // sample popped this cycle (0 until the FIFO is full)
  logic [Radix*BoundWidth-1:0]  oldest_bound;   // {max, min} popped at the end of an interval
  logic [Radix*BoundWidth-1:0]  new_bound;      // {max, min} of the interval ending this cycle
  logic                interval_end;

  assign interval_end  = (phase_q == PhaseLast);
  assign oldest_sample = sample_full_q ? sample_mem_q[sample_ptr_q] : '0;
  assign oldest_bound  = bound_full_q  ? bound_mem_q[bound_ptr_q]   : '0;

  always_comb begin
    for (int unsigned o = 0; o < Radix; o++) begin
      logic [DegreeWidth-1:0] d, mx, mn;
      d  = dcr_i[o*DegreeWidth +: DegreeWidth];
      mx = (phase_q == '0 || d > cur_max_q[o*DegreeWidth +: DegreeWidth]) ? d :
          cur_max_q[o*DegreeWidth +: DegreeWidth];
      mn = (phase_q == '0 || d < cur_min_q[o*DegreeWidth +: DegreeWidth]) ? d :
          cur_min_q[o*DegreeWidth +: DegreeWidth];
      cur_max_d[o*DegreeWidth +: DegreeWidth] = mx;
      cur_min_d[o*DegreeWidth +: DegreeWidth] = mn;
      new_bound[o*BoundWidth +: BoundWidth] = {mx, mn};
      sum_dcr_d[o*SumWidth +: SumWidth] = sum_dcr_q[o*SumWidth +: SumWidth]
                                          + SumWidth'(d)
                                          - SumWidth'(oldest_sample[o*DegreeWidth +: DegreeWidth]);
      if (interval_end) begin
        sum_max_d[o*BoundSumWidth +: BoundSumWidth] =
            sum_max_q[o*BoundSumWidth +: BoundSumWidth] + BoundSumWidth'(mx)
            - BoundSumWidth'(oldest_bound[o*BoundWidth + DegreeWidth +: DegreeWidth]);
        sum_min_d[o*BoundSumWidth +: BoundSumWidth] =
            sum_min_q[o*BoundSumWidth +: BoundSumWidth] + BoundSumWidth'(mn)
            - BoundSumWidth'(oldest_bound[o*BoundWidth +: DegreeWidth]);
      end else begin
        sum_max_d[o*BoundSumWidth +: BoundSumWidth] = sum_max_q[o*BoundSumWidth +: BoundSumWidth];
        sum_min_d[o*BoundSumWidth +: BoundSumWidth] = sum_min_q[o*BoundSumWidth +: BoundSumWidth];
      end
    end
  end

  always_comb begin
    sample_ptr_d  = (sample_ptr_q == SamplePtrLast) ? '0 : sample_ptr_q + 1'b1;
    sample_full_d = sample_full_q | (sample_ptr_q == SamplePtrLast);
    phase_d       = interval_end ? '0 : phase_q + 1'b1;
    bound_ptr_d   = bound_ptr_q;
    bound_full_d  = bound_full_q;
    if (interval_end) begin
      bound_ptr_d  = (bound_ptr_q == BoundPtrLast) ? '0 : bound_ptr_q + 1'b1;
      bound_full_d = bound_full_q | (bound_ptr_q == BoundPtrLast);
    end
  end

  // ---------------------------------------------------------------- metric (exact integers)
  always_comb begin
    for (int unsigned o = 0; o < Radix; o++) begin
      logic [BoundSumWidth-1:0] amplitude;  // SMax - SMin (never negative)
      logic [CmpWidth-1:0]      lhs, rhs;
      amplitude = sum_max_q[o*BoundSumWidth +: BoundSumWidth]
                  - sum_min_q[o*BoundSumWidth +: BoundSumWidth];
      lhs = CmpWidth'(LhsFactor) * CmpWidth'(sum_dcr_q[o*SumWidth +: SumWidth]);
      rhs = CmpWidth'(NumSamples) * CmpWidth'(amplitude) + CmpWidth'(RhsOffset);
      congested_o[o] = (lhs > rhs);
    end
  end

`ifdef CCSIM_STATE_PORTS
  assign sum_dcr_o = sum_dcr_q;
  assign sum_max_o = sum_max_q;
  assign sum_min_o = sum_min_q;
`endif

  // ---------------------------------------------------------------- registers
`ifdef CCSIM_CHECKS
  // verilator lint_off CMPCONST
  // verilator lint_off UNSIGNED
  // verilator lint_off WIDTH
  // Proven by scripts/formal.py (Yosys sat).
  always_comb begin
    for (int unsigned o = 0; o < Radix; o++) begin
      // Input legality: at most NumInputs inputs request an output.
      assume (dcr_i[o*DegreeWidth +: DegreeWidth] <= DegreeWidth'(NumInputs));
      if (rst_ni) begin
        // The moving sums stay within their windows' bounds; the maxima's sum is never below the minima's.
        assert (sum_dcr_q[o*SumWidth +: SumWidth] <= SumWidth'(NumSamples * NumInputs));
        assert (sum_max_q[o*BoundSumWidth +: BoundSumWidth] <= BoundSumWidth'(NumBoundSamples * NumInputs));
        assert (sum_max_q[o*BoundSumWidth +: BoundSumWidth] >= sum_min_q[o*BoundSumWidth +: BoundSumWidth]);
      end
    end
  end
  // verilator lint_on WIDTH
  // verilator lint_on UNSIGNED
  // verilator lint_on CMPCONST
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sample_ptr_q  <= '0;
      bound_ptr_q   <= '0;
      phase_q       <= '0;
      sample_full_q <= 1'b0;
      bound_full_q  <= 1'b0;
      cur_max_q     <= '0;
      cur_min_q     <= '0;
      sum_dcr_q     <= '0;
      sum_max_q     <= '0;
      sum_min_q     <= '0;
    end else begin
      sample_ptr_q  <= sample_ptr_d;
      bound_ptr_q   <= bound_ptr_d;
      phase_q       <= phase_d;
      sample_full_q <= sample_full_d;
      bound_full_q  <= bound_full_d;
      cur_max_q     <= cur_max_d;
      cur_min_q     <= cur_min_d;
      sum_dcr_q     <= sum_dcr_d;
      sum_max_q     <= sum_max_d;
      sum_min_q     <= sum_min_d;
    end
  end

  // Sample memories: no reset (SRAM-like); the *_full_q flags mask unwritten words.
  always_ff @(posedge clk_i) begin
    sample_mem_q[sample_ptr_q] <= dcr_i;
  end

  always_ff @(posedge clk_i) begin
    if (interval_end) begin
      bound_mem_q[bound_ptr_q] <= new_bound;
    end
  end

endmodule
