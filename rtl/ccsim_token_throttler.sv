// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the ccsim authors.
//
// Token throttler of a CBCM source NIC (injection throttling, Algorithm 1, and the
// unthrottle decision from the packet generation rate).
//
// Paper: ../shared/papers/000_4abd1b2c8ca2b731.txt, Sec. IV-B3 (Algorithm 1), IV-B4
// (unthrottling), V-D (source interface hardware).
// Spec:  ../shared/specs/cbcm-srp-smsrp-lhrp-ecn.md A.5.6, A.5.7, A.8.4.
// C++ reference (bit-accurate): tlm/blocks/token_throttler.h
//
// A table of NumEntries throttled destinations. Entry i: destination id, throttling degree
// D_t, scaled token counter c = D_t * t (t = the paper's fractional tokens), generated flits in
// the current source epoch, cycles in the epoch, and a "queue was full" flag.
//
// Algorithm 1 in exact integers (one clock cycle = one iteration of the algorithm):
//   * throttle(dest, D_t) (line 6-7): the entry of dest (or the lowest free entry) gets D_t,
//     c = 0; the epoch restarts (generated = 0, epoch = 0, full = 0). Events of this cycle
//     for dest (generation, queue full, injection) are ignored: the reset comes first and
//     c = 0 < S*D_t blocks injection. If the table is full the throttle is dropped
//     (overflow_o pulses) and dest stays unthrottled (our default, spec A.8.4).
//     With KeepEpochOnUpdate = 1, a THROTTLE of an already throttled dest (a new D_t) sets
//     D_t and c = 0 but keeps the running epoch, which counts this cycle's events (ours:
//     restarting it on every update lets no source unthrottle while its D_t keeps changing).
//   * eligibility (line 10-16): a packet of S flits to dest may go iff dest is not throttled or
//     c >= S*D_t. Injecting it charges c -= S*D_t (inject port).
//   * increment (line 19-20): every valid entry: c += 1 per cycle (t += 1/D_t), saturating at
//     2^TokenWidth-1 (our cap; the paper has none). A new throttle leaves c = 1 after its cycle,
//     so the first S-flit packet may go exactly S*D_t cycles after the throttle receipt.
//   * unthrottle (Sec. IV-B4): every entry measures generated flits over SrcEpoch cycles.
//     In the cycle after an epoch completes, if the queue was never full and
//     generated * D_t < SrcEpoch (rate < 1/D_t flits/cycle), unthrottle_o[i] pulses with
//     entry_dest_o[i] and the entry is freed at the end of the cycle; otherwise a new epoch
//     starts that includes this cycle's events.
//
// Inputs of one cycle are sampled at the rising edge; query_*/inject_ok_o/unthrottle_o/
// overflow_o are combinational from the registered table and this cycle's inputs.
//
// Paper values: none of the sizes (the paper gives no table size, epoch or widths).
// Ours (spec [X]): NumEntries = 16, SrcEpoch = 10,000 cycles, TokenWidth = 32 (saturating),
// DestWidth/DtWidth = 11 (1056 nodes), SizeWidth = 6, port counts.
// Assertions: proven by scripts/formal.py (Yosys reads with FORMAL) and checked in every
// verilated run (Verilator --assert: a failure ends the run naming the block and the cycle).
`ifdef FORMAL
`define CCSIM_CHECKS
`elsif VERILATOR
`define CCSIM_CHECKS
`endif

module ccsim_token_throttler #(
  parameter int unsigned NumEntries    = 16,     // T throttled destinations         [ours]
  parameter int unsigned DestWidth     = 11,     // destination id width             [ours]
  parameter int unsigned DtWidth       = 11,     // throttling degree D_t width      [ours]
  parameter int unsigned SizeWidth     = 6,      // packet size in flits width       [ours]
  parameter int unsigned TokenWidth    = 32,     // scaled token counter, saturating [ours]
  parameter int unsigned SrcEpoch      = 10000,  // source epoch in cycles           [ours]
  parameter int unsigned NumQueryPorts = 1,      // eligibility queries per cycle    [ours]
  parameter int unsigned NumGenPorts   = 1,      // packet generations per cycle     [ours]
  parameter int unsigned NumFullPorts  = 1,      // per-destination queue-full reports [ours]
  parameter int unsigned KeepEpochOnUpdate = 0,  // 1: a THROTTLE of a throttled dest  [ours]
                                                 // keeps its epoch (new D_t, c = 0)
  // Derived widths (do not override).
  localparam int unsigned EpochWidth = $clog2(SrcEpoch + 1),
  localparam int unsigned GenWidth   = $clog2(SrcEpoch + 1)   // saturates at >= SrcEpoch
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,
  // Throttle control packet received (line 6).
  input  logic                               throttle_valid_i,
  input  logic [DestWidth-1:0]               throttle_dest_i,
  input  logic [DtWidth-1:0]                 throttle_dt_i,
  // Eligibility queries of the NIC's injection arbiter (no side effect).
  input  logic [NumQueryPorts*DestWidth-1:0] query_dest_i,
  input  logic [NumQueryPorts*SizeWidth-1:0] query_size_i,
  output logic [NumQueryPorts-1:0]           query_eligible_o,
  output logic [NumQueryPorts-1:0]           query_throttled_o,
  // Packet injected this cycle (charged only if eligible; inject_ok_o says so).
  input  logic                               inject_valid_i,
  input  logic [DestWidth-1:0]               inject_dest_i,
  input  logic [SizeWidth-1:0]               inject_size_i,
  output logic                               inject_ok_o,
  // Packets generated (queued at the source) this cycle, for the generation rate.
  input  logic [NumGenPorts-1:0]             gen_valid_i,
  input  logic [NumGenPorts*DestWidth-1:0]   gen_dest_i,
  input  logic [NumGenPorts*SizeWidth-1:0]   gen_size_i,
  // Source queue towards a destination was full this cycle / the whole NIC queue was full.
  input  logic [NumFullPorts-1:0]            full_valid_i,
  input  logic [NumFullPorts*DestWidth-1:0]  full_dest_i,
  input  logic                               nic_full_i,
  // The throttled destinations with their degrees, and events.
  output logic [NumEntries-1:0]              entry_valid_o,
  output logic [NumEntries*DestWidth-1:0]    entry_dest_o,
  output logic [NumEntries*DtWidth-1:0]      entry_dt_o,
  output logic [NumEntries-1:0]              unthrottle_o,
  output logic                               overflow_o
`ifdef CCSIM_STATE_PORTS
  // State view for verification (testbench comparisons, lock-step runs), off the block's
  // functional interface: Verilator builds define CCSIM_STATE_PORTS, synthesis does not.
  ,
  output logic [NumEntries*TokenWidth-1:0]   entry_tokens_o,
  output logic [NumEntries*GenWidth-1:0]     entry_gen_o,
  output logic [NumEntries*EpochWidth-1:0]   entry_epoch_o,
  output logic [NumEntries-1:0]              entry_full_o
`endif
);

  localparam int unsigned CostWidth = SizeWidth + DtWidth;            // S * D_t
  localparam int unsigned CmpWidth  = ((CostWidth > TokenWidth) ? CostWidth : TokenWidth) + 1;
  localparam int unsigned RateWidth = GenWidth + DtWidth;             // generated * D_t
  localparam int unsigned GenSumWidth = GenWidth + SizeWidth + $clog2(NumGenPorts + 1);
  localparam logic [TokenWidth-1:0]         TokenMax = {TokenWidth{1'b1}};
  localparam logic [GenWidth-1:0]   GenMax   = {GenWidth{1'b1}};
  localparam logic [EpochWidth-1:0] EpochEnd = EpochWidth'(SrcEpoch);

  // ---------------------------------------------------------------- state
  logic [NumEntries-1:0]            valid_q, valid_d;
  logic [NumEntries*DestWidth-1:0]  dest_q, dest_d;
  logic [NumEntries*DtWidth-1:0]    dt_q, dt_d;
  logic [NumEntries*TokenWidth-1:0] tokens_q, tokens_d;
  logic [NumEntries*GenWidth-1:0]   gen_q, gen_d;
  logic [NumEntries*EpochWidth-1:0] epoch_q, epoch_d;
  logic [NumEntries-1:0]            full_q, full_d;

  // ---------------------------------------------------------------- throttle allocation
  logic [NumEntries-1:0] throttle_hit;   // entry already holds throttle_dest_i
  logic [NumEntries-1:0] throttle_take;  // entry written by this cycle's throttle
  logic                  throttle_any_hit, throttle_any_free, throttle_ok;

  always_comb begin
    logic found;
    throttle_any_hit  = 1'b0;
    throttle_any_free = 1'b0;
    for (int unsigned i = 0; i < NumEntries; i++) begin
      throttle_hit[i] = valid_q[i] && (dest_q[i*DestWidth +: DestWidth] == throttle_dest_i);
      throttle_any_hit  = throttle_any_hit | throttle_hit[i];
      throttle_any_free = throttle_any_free | ~valid_q[i];
    end
    // The hit entry, else the lowest free entry.
    found = 1'b0;
    for (int unsigned i = 0; i < NumEntries; i++) begin
      throttle_take[i] = 1'b0;
      if (throttle_valid_i) begin
        if (throttle_any_hit) begin
          throttle_take[i] = throttle_hit[i];
        end else if (!valid_q[i] && !found) begin
          throttle_take[i] = 1'b1;
          found = 1'b1;
        end
      end
    end
    throttle_ok = throttle_valid_i && (throttle_any_hit || throttle_any_free);
    overflow_o  = throttle_valid_i && !throttle_any_hit && !throttle_any_free;
  end

  // ---------------------------------------------------------------- eligibility
  // eligible(dest, S): not throttled, or c >= S*D_t; a throttle of dest this cycle means c = 0.
  // A port selects the D_t and tokens of dest's entry first and then prices the packet, so the
  // table's entries share one multiplier per port (a destination has one entry at most); the
  // inject port's price is also what the table update charges.
  logic [CmpWidth-1:0] inject_cost;
  always_comb begin
    inject_cost = '0;
    for (int unsigned q = 0; q < NumQueryPorts + 1; q++) begin
      logic [DestWidth-1:0] dest;
      logic [SizeWidth-1:0] size;
      logic                 eligible, throttled;
      logic [DtWidth-1:0]   dt;
      logic [CmpWidth-1:0]  cost, tokens;
      if (q < NumQueryPorts) begin
        dest = query_dest_i[q*DestWidth +: DestWidth];
        size = query_size_i[q*SizeWidth +: SizeWidth];
      end else begin
        dest = inject_dest_i;
        size = inject_size_i;
      end
      throttled = 1'b0;
      dt        = '0;
      tokens    = '0;
      if (throttle_ok && throttle_dest_i == dest) begin
        throttled = 1'b1;
        dt        = throttle_dt_i;
      end else begin
        for (int unsigned i = 0; i < NumEntries; i++) begin
          if (valid_q[i] && dest_q[i*DestWidth +: DestWidth] == dest) begin
            throttled = 1'b1;
            dt        = dt_q[i*DtWidth +: DtWidth];
            tokens    = CmpWidth'(tokens_q[i*TokenWidth +: TokenWidth]);
          end
        end
      end
      cost     = CmpWidth'(size) * CmpWidth'(dt);
      eligible = !throttled || (tokens >= cost);
      if (q < NumQueryPorts) begin
        query_eligible_o[q]  = eligible;
        query_throttled_o[q] = throttled;
      end else begin
        inject_ok_o = eligible;
        inject_cost = cost;
      end
    end
  end

  // ---------------------------------------------------------------- table update
  always_comb begin
    for (int unsigned i = 0; i < NumEntries; i++) begin
      logic [DestWidth-1:0]   dest;
      logic [DtWidth-1:0]     dt;
      logic [GenSumWidth-1:0] generated;   // flits generated for this entry this cycle
      logic [GenSumWidth-1:0] gen_sum;
      logic                   full_now;
      logic [TokenWidth:0]  tok;
      logic [RateWidth-1:0] rate;
      logic                   epoch_done;
      gen_sum = '0;

      dest = dest_q[i*DestWidth +: DestWidth];
      dt   = dt_q[i*DtWidth +: DtWidth];

      generated = '0;
      for (int unsigned g = 0; g < NumGenPorts; g++) begin
        if (gen_valid_i[g] && gen_dest_i[g*DestWidth +: DestWidth] == dest) begin
          generated = generated + GenSumWidth'(gen_size_i[g*SizeWidth +: SizeWidth]);
        end
      end
      full_now = nic_full_i;
      for (int unsigned f = 0; f < NumFullPorts; f++) begin
        if (full_valid_i[f] && full_dest_i[f*DestWidth +: DestWidth] == dest) begin
          full_now = 1'b1;
        end
      end

      // Unthrottle rule, from registered state only: rate = generated * D_t < SrcEpoch.
      rate       = RateWidth'(gen_q[i*GenWidth +: GenWidth]) * RateWidth'(dt);
      epoch_done = valid_q[i] && (epoch_q[i*EpochWidth +: EpochWidth] == EpochEnd);
      unthrottle_o[i] = epoch_done && !throttle_take[i] && !full_q[i] &&
                        (rate < RateWidth'(SrcEpoch));

      // Tokens: charge an eligible injection, then add one (saturating). inject_cost is this
      // entry's S*D_t (dest's only entry), unless dest is throttled anew this cycle, which
      // resets the tokens below anyway.
      tok = (TokenWidth+1)'(tokens_q[i*TokenWidth +: TokenWidth]);
      if (inject_valid_i && inject_ok_o && valid_q[i] && dest == inject_dest_i) begin
        tok = tok - (TokenWidth+1)'(inject_cost);
      end
      tok = tok + 1'b1;

      valid_d[i]                           = valid_q[i];
      dest_d[i*DestWidth +: DestWidth]     = dest;
      dt_d[i*DtWidth +: DtWidth]           = dt;
      tokens_d[i*TokenWidth +: TokenWidth] = tokens_q[i*TokenWidth +: TokenWidth];
      gen_d[i*GenWidth +: GenWidth]        = gen_q[i*GenWidth +: GenWidth];
      epoch_d[i*EpochWidth +: EpochWidth]  = epoch_q[i*EpochWidth +: EpochWidth];
      full_d[i]                            = full_q[i];

      if (throttle_take[i] && !(KeepEpochOnUpdate != 0 && valid_q[i])) begin
        valid_d[i]                           = 1'b1;
        dest_d[i*DestWidth +: DestWidth]     = throttle_dest_i;
        dt_d[i*DtWidth +: DtWidth]           = throttle_dt_i;
        tokens_d[i*TokenWidth +: TokenWidth] = TokenWidth'(1);
        gen_d[i*GenWidth +: GenWidth]        = '0;
        epoch_d[i*EpochWidth +: EpochWidth]  = '0;
        full_d[i]                            = 1'b0;
      end else if (valid_q[i]) begin
        tokens_d[i*TokenWidth +: TokenWidth] = (tok > (TokenWidth+1)'(TokenMax)) ? TokenMax :
            tok[TokenWidth-1:0];
        if (throttle_take[i]) begin  // KeepEpochOnUpdate: a new D_t, tokens reset (line 7)
          dt_d[i*DtWidth +: DtWidth]           = throttle_dt_i;
          tokens_d[i*TokenWidth +: TokenWidth] = TokenWidth'(1);
        end
        if (unthrottle_o[i]) begin
          valid_d[i] = 1'b0;
        end else if (epoch_done) begin
          // New epoch, including this cycle's events.
          gen_sum = generated;
          gen_d[i*GenWidth +: GenWidth]       = (gen_sum > GenSumWidth'(GenMax)) ? GenMax :
                                                                        gen_sum[GenWidth-1:0];
          epoch_d[i*EpochWidth +: EpochWidth] = EpochWidth'(1);
          full_d[i]                           = full_now;
        end else begin
          gen_sum = GenSumWidth'(gen_q[i*GenWidth +: GenWidth]) + generated;
          gen_d[i*GenWidth +: GenWidth]       = (gen_sum > GenSumWidth'(GenMax)) ? GenMax :
                                                                        gen_sum[GenWidth-1:0];
          epoch_d[i*EpochWidth +: EpochWidth] = epoch_q[i*EpochWidth +: EpochWidth] + 1'b1;
          full_d[i]                           = full_q[i] | full_now;
        end
      end
    end
  end

  assign entry_valid_o  = valid_q;
  assign entry_dest_o   = dest_q;
  assign entry_dt_o     = dt_q;
`ifdef CCSIM_STATE_PORTS
  assign entry_tokens_o = tokens_q;
  assign entry_gen_o    = gen_q;
  assign entry_epoch_o  = epoch_q;
  assign entry_full_o   = full_q;
`endif

`ifdef CCSIM_CHECKS
  // verilator lint_off CMPCONST
  // verilator lint_off UNSIGNED
  // verilator lint_off WIDTH
  // Proven by scripts/formal.py (Yosys sat, bounded and by induction).
  always_comb begin
    for (int unsigned i = 0; i < NumEntries; i++) begin
      if (rst_ni && valid_q[i]) begin
        // A destination has one entry at most (a throttle of a throttled destination hits its entry).
        for (int unsigned j = i + 1; j < NumEntries; j++)
          if (valid_q[j]) assert (dest_q[i*DestWidth +: DestWidth] != dest_q[j*DestWidth +: DestWidth]);
        // A throttled destination always holds a token: c >= 1 (charges take only what is there).
        assert (tokens_q[i*TokenWidth +: TokenWidth] != '0);
        // Tokens never wrap: they only grow (saturating) unless a packet is charged or the
        // entry is throttled anew.
        if (!throttle_take[i] && !(inject_valid_i && inject_ok_o &&
            dest_q[i*DestWidth +: DestWidth] == inject_dest_i))
          assert (tokens_d[i*TokenWidth +: TokenWidth] >= tokens_q[i*TokenWidth +: TokenWidth]);
      end
    end
  end
  // verilator lint_on WIDTH
  // verilator lint_on UNSIGNED
  // verilator lint_on CMPCONST
`endif

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q  <= '0;
      dest_q   <= '0;
      dt_q     <= '0;
      tokens_q <= '0;
      gen_q    <= '0;
      epoch_q  <= '0;
      full_q   <= '0;
    end else begin
      valid_q  <= valid_d;
      dest_q   <= dest_d;
      dt_q     <= dt_d;
      tokens_q <= tokens_d;
      gen_q    <= gen_d;
      epoch_q  <= epoch_d;
      full_q   <= full_d;
    end
  end

endmodule
