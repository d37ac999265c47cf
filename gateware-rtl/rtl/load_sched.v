// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Decision supply, least-load schedulers (docs/load-sched.md): the per-server connection
 * counters of IPVS (activeconns, inactconns, the overload flag and its thresholds) kept in
 * block RAM, and the pick of the lc, wlc, sed, nq, fo and ovf schedulers computed from them
 * with IPVS's exact integer comparisons. Reference model: firmware/logic/src/sched.rs
 * (ServerSet's counters and Scheduler::pick) and its compiler (Scheduler::hw_load).
 *
 * One operation at a time (s_op_*, LoadOp):
 *   PICK      a new connection of the pool: the winner of the pool's mode (LoadMode), or NONE,
 *             or PUNT when the pool is OFF; with s_op_flag the winner is also bound (CONNECT)
 *             before the answer, so the next pick sees it.
 *   CONNECT   inactive + 1 (saturating); overloaded when upper != 0 and total >= upper.
 *   ESTABLISH inactive - 1, active + 1.          LEAVE active - 1, inactive + 1.
 *   CLOSE     active - 1 (s_op_flag) or inactive - 1; then the overload flag clears when
 *             total < lower, or (lower 0) total * 4 < upper * 3, or (both 0) always.
 *             ESTABLISH, LEAVE and CLOSE of a count at 0 change nothing and pulse ev_underflow.
 *   CONFIG    live, weight, rank, upper, lower of a server; s_op_flag clears its overload flag
 *             (the firmware sets it when the upper threshold is removed or raised).
 *   COUNTS    active, inactive and the overload flag of a server (restore, takeover).
 *   READ      answers DATA with the server's record.
 * PICK and READ are answered on m_rsp_*, in order; the other operations are not answered.
 *
 * Servers are slots 0..63 of a pool; `rank` is the server's position in the pool's order (the
 * IPVS destination list): where IPVS keeps the earlier of two equal servers, the lower rank
 * wins, so the slots can be scanned in any order. A slot is a candidate when live, weight > 0
 * and not overloaded (ovf also: active <= weight); of two candidates b beats a when
 * a.K * b.V > b.K * a.V, or equal and b.rank < a.rank, with
 *   lc K = active * 256 + inactive, V = 1;   wlc K = the same, V = weight;
 *   sed, nq K = active + 1, V = weight;      fo, ovf K = 1, V = weight;
 * and for nq a candidate with active == 0 beats any other (the lower rank among those). With
 * weights > 0 this is a total order, so any reduction order gives IPVS's sequential result.
 *
 * Counts are CW bits (LOAD_COUNT_BITS), exact while a server holds fewer connections than
 * 2^CW - 1 (the flow table holds fewer); thresholds are CW + 2 bits, the firmware clamps
 * larger ones to LOAD_THRESHOLD_MAX, which no total reaches in either comparison.
 *
 * Memory: one word per pool and slot pair (2 lanes, 4 * CW + 28 bits each), POOLS * 32 words
 * (5 DP16KD at CW 15), read address registered and output registered. A pick reads the
 * pool's first `beats` words one per cycle (the descriptor's beats: ceil(slots / 2)), lane 0
 * against lane 1 in a pipelined comparator, the winners of the beats into a second
 * comparator whose output is fed back (4 partial winners circulate, one per pipeline stage),
 * then the 4 are merged by feeding each stage's output to the next (14 cycles). A pick is
 * answered LOAD_PICK_CYCLES + max(beats, 4) cycles after its acceptance, LOAD_OP_CYCLES
 * later when it binds; every other operation occupies LOAD_OP_CYCLES cycles.
 */
module load_sched #
(
    parameter POOLS = `SNIC_POOLS,
    parameter CW = `SNIC_LOAD_COUNT_BITS,
    parameter TAG_WIDTH = 16,
    parameter PW = $clog2(POOLS),
    parameter TW = CW + 2
)
(
    input  wire                            clk,
    input  wire                            rst,

    input  wire                            s_op_valid,
    output wire                            s_op_ready,
    input  wire [`SNIC_LOAD_OP_W-1:0]      s_op_code,
    input  wire [PW-1:0]                   s_op_pool,
    input  wire [5:0]                      s_op_slot,
    input  wire                            s_op_flag,
    input  wire [TAG_WIDTH-1:0]            s_op_tag,
    // CONFIG
    input  wire                            s_op_live,
    input  wire [15:0]                     s_op_weight,
    input  wire [5:0]                      s_op_rank,
    input  wire [TW-1:0]                   s_op_upper,
    input  wire [TW-1:0]                   s_op_lower,
    // COUNTS
    input  wire [CW-1:0]                   s_op_active,
    input  wire [CW-1:0]                   s_op_inactive,
    input  wire                            s_op_overloaded,

    output wire                            m_rsp_valid,
    input  wire                            m_rsp_ready,
    output wire [TAG_WIDTH-1:0]            m_rsp_tag,
    output wire [`SNIC_LOAD_STATUS_W-1:0]  m_rsp_status,
    // PICK: the winner; DATA: the slot read
    output wire [5:0]                      m_rsp_server,
    // DATA: the record
    output wire [CW-1:0]                   m_rsp_active,
    output wire [CW-1:0]                   m_rsp_inactive,
    output wire                            m_rsp_overloaded,
    output wire                            m_rsp_live,
    output wire [15:0]                     m_rsp_weight,
    output wire [5:0]                      m_rsp_rank,
    output wire [TW-1:0]                   m_rsp_upper,
    output wire [TW-1:0]                   m_rsp_lower,

    // Descriptor: the mode and the words a pick reads (beats - 1, 0..31)
    input  wire                            pool_wr_en,
    input  wire [PW-1:0]                   pool_wr_pool,
    input  wire [`SNIC_LOAD_MODE_W-1:0]    pool_wr_mode,
    input  wire [4:0]                      pool_wr_beats_m1,

    // One-cycle pulses for the statistics
    output reg                             ev_pick = 1'b0,
    output reg                             ev_none = 1'b0,
    output reg                             ev_punt = 1'b0,
    output reg                             ev_underflow = 1'b0
);

localparam MW = `SNIC_LOAD_MODE_W;
localparam OW = `SNIC_LOAD_OP_W;
localparam SW = `SNIC_LOAD_STATUS_W;
localparam [MW-1:0] M_OFF = `SNIC_LOAD_MODE_OFF, M_LC = `SNIC_LOAD_MODE_LC,
    M_WLC = `SNIC_LOAD_MODE_WLC, M_SED = `SNIC_LOAD_MODE_SED, M_NQ = `SNIC_LOAD_MODE_NQ,
    M_FO = `SNIC_LOAD_MODE_FO, M_OVF = `SNIC_LOAD_MODE_OVF;
localparam [OW-1:0] O_PICK = `SNIC_LOAD_OP_PICK, O_CONNECT = `SNIC_LOAD_OP_CONNECT,
    O_ESTABLISH = `SNIC_LOAD_OP_ESTABLISH, O_LEAVE = `SNIC_LOAD_OP_LEAVE,
    O_CLOSE = `SNIC_LOAD_OP_CLOSE, O_CONFIG = `SNIC_LOAD_OP_CONFIG,
    O_COUNTS = `SNIC_LOAD_OP_COUNTS, O_READ = `SNIC_LOAD_OP_READ;
localparam [SW-1:0] S_PICK = `SNIC_LOAD_STATUS_PICK, S_NONE = `SNIC_LOAD_STATUS_NONE,
    S_PUNT = `SNIC_LOAD_STATUS_PUNT, S_DATA = `SNIC_LOAD_STATUS_DATA;

// ---- the server record (one lane of a word) --------------------------------------------
localparam R_A = 0;             // active
localparam R_I = CW;            // inactive
localparam R_OVL = 2 * CW;
localparam R_LIVE = 2 * CW + 1;
localparam R_W = 2 * CW + 2;    // 16 bits
localparam R_RANK = 2 * CW + 18; // 6 bits
localparam R_U = 2 * CW + 24;   // TW bits
localparam R_L = R_U + TW;      // TW bits
localparam RW = R_L + TW;
localparam WORDS = POOLS * 32;
localparam AW = PW + 5;

// ---- the candidate of the comparators --------------------------------------------------
localparam KW = CW + 9;         // active * 256 + inactive < 2^(CW + 9)
// {valid, zero (nq), K (KW), V (16), rank (6), slot (6)}; load_sched_cmp has the same offsets
localparam C_SLOT = 0;
localparam C_VALID = 29 + KW;
localparam CRW = 30 + KW;

localparam [CW-1:0] CMAX = {CW{1'b1}};

initial begin
    if (POOLS < 2 || (1 << PW) < POOLS) begin
        $error("Error: POOLS must be >= 2 and fit PW bits (instance %m)");
        $finish;
    end
    if (CW < 8 || CW > 16 || TW != CW + 2) begin
        $error("Error: CW must be 8..16 and TW = CW + 2 (instance %m)");
        $finish;
    end
end

// ---- descriptors -----------------------------------------------------------------------
reg [MW-1:0] d_mode  [0:POOLS-1];
reg [4:0]    d_beats [0:POOLS-1];
integer di;
initial begin
    for (di = 0; di < POOLS; di = di + 1) begin
        d_mode[di] = M_OFF;
        d_beats[di] = 5'd0;
    end
end
always @(posedge clk) begin
    if (pool_wr_en) begin
        d_mode[pool_wr_pool] <= pool_wr_mode;
        d_beats[pool_wr_pool] <= pool_wr_beats_m1;
    end
    if (rst)
        for (di = 0; di < POOLS; di = di + 1) d_mode[di] <= M_OFF;
end

// ---- memory ----------------------------------------------------------------------------
reg [2*RW-1:0] mem [0:WORDS-1];
integer mi;
initial begin
    for (mi = 0; mi < WORDS; mi = mi + 1) mem[mi] = {2*RW{1'b0}};
end

reg [AW-1:0]   rd_addr_q = {AW{1'b0}};
reg [2*RW-1:0] mem_q = {2*RW{1'b0}};
reg [2*RW-1:0] mem_q2 = {2*RW{1'b0}};
reg            wr_en_q = 1'b0;
reg [AW-1:0]   wr_addr_q = {AW{1'b0}};
reg [2*RW-1:0] wr_data_q = {2*RW{1'b0}};

always @(posedge clk) begin
    if (wr_en_q) mem[wr_addr_q] <= wr_data_q;
    mem_q <= mem[rd_addr_q];
    mem_q2 <= mem_q;
end

// ---- control ---------------------------------------------------------------------------
localparam [1:0] ST_IDLE = 2'd0, ST_RMW = 2'd1, ST_SCAN = 2'd2;
reg [1:0]           state = ST_IDLE;
reg [OW-1:0]        op_q = {OW{1'b0}};
reg [PW-1:0]        pool_q = {PW{1'b0}};
reg [5:0]           slot_q = 6'd0;
reg                 flag_q = 1'b0;
reg                 bound_q = 1'b0;   // an RMW that binds a pick: answer PICK after it
reg [TAG_WIDTH-1:0] tag_q = {TAG_WIDTH{1'b0}};
reg                 live_q = 1'b0;
reg [15:0]          weight_q = 16'd0;
reg [5:0]           rank_q = 6'd0;
reg [TW-1:0]        upper_q = {TW{1'b0}};
reg [TW-1:0]        lower_q = {TW{1'b0}};
reg [CW-1:0]        act_q = {CW{1'b0}};
reg [CW-1:0]        inact_q = {CW{1'b0}};
reg                 ovl_q = 1'b0;
reg [MW-1:0]        mode_q = {MW{1'b0}};
reg [2:0]           cnt = 3'd0;       // RMW step

reg                 rsp_valid_q = 1'b0;
reg [TAG_WIDTH-1:0] rsp_tag_q = {TAG_WIDTH{1'b0}};
reg [SW-1:0]        rsp_status_q = {SW{1'b0}};
reg [5:0]           rsp_server_q = 6'd0;
reg [RW-1:0]        rsp_rec_q = {RW{1'b0}};

assign s_op_ready = state == ST_IDLE && !rsp_valid_q;
wire accept = s_op_valid && s_op_ready;

assign m_rsp_valid = rsp_valid_q;
assign m_rsp_tag = rsp_tag_q;
assign m_rsp_status = rsp_status_q;
assign m_rsp_server = rsp_server_q;
assign m_rsp_active = rsp_rec_q[R_A +: CW];
assign m_rsp_inactive = rsp_rec_q[R_I +: CW];
assign m_rsp_overloaded = rsp_rec_q[R_OVL];
assign m_rsp_live = rsp_rec_q[R_LIVE];
assign m_rsp_weight = rsp_rec_q[R_W +: 16];
assign m_rsp_rank = rsp_rec_q[R_RANK +: 6];
assign m_rsp_upper = rsp_rec_q[R_U +: TW];
assign m_rsp_lower = rsp_rec_q[R_L +: TW];

// ---- the read-modify-write of one server -----------------------------------------------
// Step 2 registers the server's record (sel) and its neighbour's, step 3 the new counts,
// step 4 the totals' comparisons and the word to write.
reg [RW-1:0]  sel_q = {RW{1'b0}};
reg [RW-1:0]  oth_q = {RW{1'b0}};
wire [CW-1:0] o_a = sel_q[R_A +: CW];
wire [CW-1:0] o_i = sel_q[R_I +: CW];
wire [TW-1:0] o_u = sel_q[R_U +: TW];
wire [TW-1:0] o_l = sel_q[R_L +: TW];

reg [CW-1:0] n_a, n_i;
reg          n_ovl, n_under;
always @* begin
    n_a = o_a;
    n_i = o_i;
    n_ovl = sel_q[R_OVL];
    n_under = 1'b0;
    case (op_q)
        O_PICK, O_CONNECT: n_i = o_i == CMAX ? o_i : o_i + 1'b1;
        O_ESTABLISH:
            if (o_i == {CW{1'b0}}) n_under = 1'b1;
            else begin
                n_i = o_i - 1'b1;
                n_a = o_a == CMAX ? o_a : o_a + 1'b1;
            end
        O_LEAVE:
            if (o_a == {CW{1'b0}}) n_under = 1'b1;
            else begin
                n_a = o_a - 1'b1;
                n_i = o_i == CMAX ? o_i : o_i + 1'b1;
            end
        O_CLOSE:
            if (flag_q) begin
                if (o_a == {CW{1'b0}}) n_under = 1'b1;
                else n_a = o_a - 1'b1;
            end else begin
                if (o_i == {CW{1'b0}}) n_under = 1'b1;
                else n_i = o_i - 1'b1;
            end
        O_COUNTS: begin
            n_a = act_q;
            n_i = inact_q;
            n_ovl = ovl_q;
        end
        O_CONFIG: if (flag_q) n_ovl = 1'b0;
        default: ;
    endcase
end

reg [CW-1:0]  na_q = {CW{1'b0}}, ni_q = {CW{1'b0}};
reg           novl_q = 1'b0, under_q = 1'b0;
reg [CW+3:0]  u3_q = {CW+4{1'b0}};   // upper * 3
reg           u0_q = 1'b0, l0_q = 1'b0;

wire [CW:0]   t_sum = {1'b0, na_q} + {1'b0, ni_q};
wire [TW-1:0] t_ext = {{TW-CW-1{1'b0}}, t_sum};
wire [CW+3:0] t_4 = {1'b0, t_sum, 2'b00};
reg           f_ovl;
reg [RW-1:0]  n_rec;
always @* begin
    f_ovl = novl_q;
    // IPVS binds: overloaded when the upper threshold is reached
    if ((op_q == O_PICK || op_q == O_CONNECT) && !u0_q && t_ext >= sel_q[R_U +: TW])
        f_ovl = 1'b1;
    // IPVS unbinds: the flag clears below the lower threshold, or 3/4 of the upper one
    if (op_q == O_CLOSE && !under_q) begin
        if (!l0_q) begin
            if (t_ext < sel_q[R_L +: TW]) f_ovl = 1'b0;
        end else if (!u0_q) begin
            if (t_4 < u3_q) f_ovl = 1'b0;
        end else
            f_ovl = 1'b0;
    end
    n_rec = sel_q;
    n_rec[R_A +: CW] = na_q;
    n_rec[R_I +: CW] = ni_q;
    n_rec[R_OVL] = f_ovl;
    if (op_q == O_CONFIG) begin
        n_rec[R_LIVE] = live_q;
        n_rec[R_W +: 16] = weight_q;
        n_rec[R_RANK +: 6] = rank_q;
        n_rec[R_U +: TW] = upper_q;
        n_rec[R_L +: TW] = lower_q;
    end
end

always @(posedge clk) begin
    sel_q <= slot_q[0] ? mem_q2[RW +: RW] : mem_q2[0 +: RW];
    oth_q <= slot_q[0] ? mem_q2[0 +: RW] : mem_q2[RW +: RW];
    na_q <= n_a;
    ni_q <= n_i;
    novl_q <= n_ovl;
    under_q <= n_under;
    u3_q <= {2'b00, o_u} + {1'b0, o_u, 1'b0};
    u0_q <= o_u == {TW{1'b0}};
    l0_q <= o_l == {TW{1'b0}};
end

// ---- the scan: candidates of a word ----------------------------------------------------
reg        rd_v = 1'b0, rd_first = 1'b0;
reg [4:0]  rd_beat = 5'd0;
reg        m1_v = 1'b0, m1_first = 1'b0;
reg [4:0]  m1_beat = 5'd0;
reg        m2_v = 1'b0, m2_first = 1'b0;
reg [4:0]  m2_beat = 5'd0;
reg [5:0]  beat_cnt = 6'd0;
reg [4:0]  beats_q = 5'd0;

always @(posedge clk) begin
    m1_v <= rd_v;
    m1_first <= rd_first;
    m1_beat <= rd_beat;
    m2_v <= m1_v;
    m2_first <= m1_first;
    m2_beat <= m1_beat;
    if (rst) begin
        m1_v <= 1'b0;
        m2_v <= 1'b0;
    end
end

function [CRW-1:0] candidate(input [RW-1:0] r, input v, input [MW-1:0] m, input [5:0] slot);
    reg [CW-1:0] a, i;
    reg [15:0] w;
    reg ok;
    reg [KW-1:0] k;
    reg [15:0] vv;
    begin
        a = r[R_A +: CW];
        i = r[R_I +: CW];
        w = r[R_W +: 16];
        ok = v && r[R_LIVE] && !r[R_OVL] && w != 16'd0 &&
            (m != M_OVF || {{16-CW{1'b0}}, a} <= w);
        case (m)
            M_LC, M_WLC: k = {1'b0, a, 8'd0} + {{KW-CW{1'b0}}, i};
            M_SED, M_NQ: k = {{KW-CW{1'b0}}, a} + 1'b1;
            default: k = {{KW-1{1'b0}}, 1'b1};
        endcase
        vv = m == M_LC ? 16'd1 : w;
        candidate = {ok, ok && m == M_NQ && a == {CW{1'b0}}, k, vv, r[R_RANK +: 6], slot};
    end
endfunction

wire [CRW-1:0] cand0 = candidate(mem_q2[0 +: RW], m2_v, mode_q, {m2_beat, 1'b0});
wire [CRW-1:0] cand1 = candidate(mem_q2[RW +: RW], m2_v, mode_q, {m2_beat, 1'b1});

// ---- lane comparator, then the ring ----------------------------------------------------
wire [CRW-1:0] lane_w;
wire           lane_first;
wire [CRW-1:0] ring_w;
reg  [CRW-1:0] ring_d = {CRW{1'b0}};
reg            ring_on = 1'b0;
reg  [6:0]     rc = 7'd0;          // cycles since the first beat's lane winner
reg  [6:0]     x_end = 7'd0;       // max(beats, 4) + 1: the fold starts here
reg  [6:0]     rc_done = 7'd0;     // max(beats, 4) + 15: the winner is on ring_w

load_sched_cmp #(.KW(KW), .CRW(CRW), .SIDE(1)) lane_cmp (
    .clk(clk),
    .a(cand0),
    .b(cand1),
    .side_in(m2_first && m2_v),
    .w(lane_w),
    .side_out(lane_first)
);

wire           fold = ring_on && rc >= x_end;
wire [CRW-1:0] ring_x = fold ? ring_d : lane_w;
wire [CRW-1:0] ring_y = (!ring_on || rc < 7'd4) ? {CRW{1'b0}} : ring_w;

// verilator lint_off PINCONNECTEMPTY
load_sched_cmp #(.KW(KW), .CRW(CRW), .SIDE(1)) ring_cmp (
    .clk(clk),
    .a(ring_y),
    .b(ring_x),
    .side_in(1'b0),
    .w(ring_w),
    .side_out()
);
// verilator lint_on PINCONNECTEMPTY

always @(posedge clk) ring_d <= ring_w;

// ---- the state machine -----------------------------------------------------------------
wire [4:0] acc_beats = d_beats[s_op_pool];
wire [MW-1:0] acc_mode = d_mode[s_op_pool];
wire [6:0] beats_ext = {2'b00, beats_q} + 7'd1;
wire [6:0] beats_min4 = beats_ext < 7'd4 ? 7'd4 : beats_ext;

always @(posedge clk) begin
    wr_en_q <= 1'b0;
    rd_v <= 1'b0;
    rd_first <= 1'b0;
    ev_pick <= 1'b0;
    ev_none <= 1'b0;
    ev_punt <= 1'b0;
    ev_underflow <= 1'b0;
    if (rsp_valid_q && m_rsp_ready) rsp_valid_q <= 1'b0;
    if (ring_on) rc <= rc + 1'b1;

    case (state)
        ST_IDLE: if (accept) begin
            op_q <= s_op_code;
            pool_q <= s_op_pool;
            slot_q <= s_op_slot;
            flag_q <= s_op_flag;
            bound_q <= 1'b0;
            tag_q <= s_op_tag;
            live_q <= s_op_live;
            weight_q <= s_op_weight;
            rank_q <= s_op_rank;
            upper_q <= s_op_upper;
            lower_q <= s_op_lower;
            act_q <= s_op_active;
            inact_q <= s_op_inactive;
            ovl_q <= s_op_overloaded;
            mode_q <= acc_mode;
            beats_q <= acc_beats;
            cnt <= 3'd0;
            if (s_op_code == O_PICK) begin
                if (acc_mode == M_LC || acc_mode == M_WLC || acc_mode == M_SED ||
                    acc_mode == M_NQ || acc_mode == M_FO || acc_mode == M_OVF) begin
                    rd_addr_q <= {s_op_pool, 5'd0};
                    rd_v <= 1'b1;
                    rd_first <= 1'b1;
                    rd_beat <= 5'd0;
                    beat_cnt <= 6'd1;
                    state <= ST_SCAN;
                end else begin
                    rsp_valid_q <= 1'b1;
                    rsp_tag_q <= s_op_tag;
                    rsp_status_q <= S_PUNT;
                    rsp_server_q <= 6'd0;
                    ev_punt <= 1'b1;
                end
            end else begin
                rd_addr_q <= {s_op_pool, s_op_slot[5:1]};
                state <= ST_RMW;
            end
        end
        ST_SCAN: begin
            x_end <= beats_min4 + 7'd1;
            rc_done <= beats_min4 + 7'd15;
            if (beat_cnt <= {1'b0, beats_q}) begin
                rd_addr_q <= {pool_q, beat_cnt[4:0]};
                rd_v <= 1'b1;
                rd_beat <= beat_cnt[4:0];
                beat_cnt <= beat_cnt + 1'b1;
            end
            if (lane_first) begin
                ring_on <= 1'b1;
                rc <= 7'd1;
            end
            if (ring_on && rc == rc_done) begin
                ring_on <= 1'b0;
                if (ring_w[C_VALID]) begin
                    slot_q <= ring_w[C_SLOT +: 6];
                    if (flag_q) begin
                        // bind: CONNECT the winner, then answer
                        rd_addr_q <= {pool_q, ring_w[C_SLOT + 1 +: 5]};
                        bound_q <= 1'b1;
                        cnt <= 3'd0;
                        state <= ST_RMW;
                    end else begin
                        rsp_valid_q <= 1'b1;
                        rsp_tag_q <= tag_q;
                        rsp_status_q <= S_PICK;
                        rsp_server_q <= ring_w[C_SLOT +: 6];
                        ev_pick <= 1'b1;
                        state <= ST_IDLE;
                    end
                end else begin
                    rsp_valid_q <= 1'b1;
                    rsp_tag_q <= tag_q;
                    rsp_status_q <= S_NONE;
                    rsp_server_q <= 6'd0;
                    ev_none <= 1'b1;
                    state <= ST_IDLE;
                end
            end
        end
        ST_RMW: begin
            cnt <= cnt + 1'b1;
            if (cnt == 3'd4) begin
                wr_addr_q <= rd_addr_q;
                wr_data_q <= slot_q[0] ? {n_rec, oth_q} : {oth_q, n_rec};
                wr_en_q <= op_q != O_READ;
                ev_underflow <= under_q;
                if (op_q == O_READ || bound_q) begin
                    rsp_valid_q <= 1'b1;
                    rsp_tag_q <= tag_q;
                    rsp_status_q <= bound_q ? S_PICK : S_DATA;
                    rsp_server_q <= slot_q;
                    rsp_rec_q <= op_q == O_READ ? sel_q : n_rec;
                    ev_pick <= bound_q;
                end
                state <= ST_IDLE;
            end
        end
        default: state <= ST_IDLE;
    endcase

    if (rst) begin
        state <= ST_IDLE;
        rsp_valid_q <= 1'b0;
        wr_en_q <= 1'b0;
        rd_v <= 1'b0;
        ring_on <= 1'b0;
    end
end

endmodule

`resetall
