// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Decision supply, table schedulers (docs/sched-unit.md): picks the real server of a new
 * connection for the pools whose IPVS scheduler the firmware compiled into a table, one
 * request per cycle (an mh request holds the hash stage for `SNIC_SCHED_MH_INTERVAL
 * cycles: 8 half SipRounds, then the move on). Reference model: firmware/logic/src/sched.rs (Scheduler::pick) and its table
 * compiler (Scheduler::hw_program).
 *
 * Each of POOLS pools has a descriptor, set at once by a commit (pool_wr_*):
 *   mode (SchedMode): OFF   every request is answered PUNT (the firmware decides);
 *                     CYCLE rr/wrr: the firmware stored the pool's pick sequence at
 *                           base + 0 .. base + last; a request takes the entry at base + ptr,
 *                           then ptr = (ptr == last) ? loop : ptr + 1 (a prefix 0..loop-1,
 *                           then the period loop..last, repeated);
 *                     SH    entry base + (hash_32(client + port, 8)): IPVS sh;
 *                     DH    entry base + (dst * SCHED_DH_MULT mod 256): IPVS dh;
 *                     MH    entry base + (hsiphash(client + port) mod SCHED_MH_TABLE): IPVS mh
 *                           (SipHash-1-3 with the key SCHED_MH_KEY in both halves, 32-bit
 *                           result, as 64-bit kernels compute it);
 *                     port = s_req_client_port when hash_port is set (sh-port, mh-port), else 0;
 *   fallback: an entry whose server is not eligible is answered PUNT (the firmware walks the
 *             table, IPVS sh/mh-fallback) instead of NONE. The firmware sets it for CYCLE
 *             pools: a stale cycle entry goes to the firmware.
 *   ptr: written by a commit only when pool_wr_set_ptr is set (a commit to OFF without it
 *        freezes the cycle where it is, for the firmware to read back on ptr_rd_*).
 * Table entries (8 bits, tbl_wr_*): a server id 0..63 of the pool, or >= 64 for no server
 * (SCHED_ENTRY_NONE). Eligibility (elig_wr_*): bit i set when server i of the pool may take a
 * new connection (present, available, weight > 0, not overloaded).
 * Response (m_rsp_status, SchedStatus): PICK with m_rsp_server; NONE (no server: the entry is
 * none, or names an ineligible server without fallback); PUNT (mode OFF, or an ineligible
 * server with fallback).
 *
 * Consistency: a request sees the descriptor and pointer at the edge that moves it from the
 * input register to stage 2, and the table and the eligibility mask as they are
 * `SNIC_SCHED_LATENCY - 1 cycles after its acceptance at the latest; the firmware rewrites a
 * pool's table region only while the pool is OFF (or into a region no descriptor names) and
 * commits the new descriptor after it.
 *
 * Pipeline (one request per cycle; requests leave in order):
 *   1 input register                 2 descriptor, pointer, client + port, dh product
 *   3 sh partial products / mh rounds (8 cycles, stages 1-3 held meanwhile)
 *   4 sh sum / mh fold 1             5 mh fold 2 and mod 4093
 *   6 table address (base + index)   7 block-RAM read          8 registered RAM output
 *   9 eligibility and status into the response FIFO (dp_fifo, output registered).
 * Stages 4-9 never stall: stages 1-3 hold while the response FIFO could not take what is in
 * flight (a registered credit check). A request accepted at cycle t is on m_rsp at
 * t + SCHED_LATENCY (11) when nothing waits, t + SCHED_LATENCY + SCHED_MH_INTERVAL - 1 for mh.
 * No variable shifts; block-RAM and LUT-RAM read addresses are registers.
 */
module sched_unit #
(
    parameter POOLS = `SNIC_POOLS,
    // table entries = 2^TBL_AW (8 bits each: 8192 x 8 = 4 DP16KD)
    parameter TBL_AW = 13,
    parameter TAG_WIDTH = 16,
    parameter PW = $clog2(POOLS)
)
(
    input  wire                          clk,
    input  wire                          rst,

    // Request: a new connection of pool s_req_pool
    input  wire                          s_req_valid,
    output wire                          s_req_ready,
    input  wire [PW-1:0]                 s_req_pool,
    input  wire [31:0]                   s_req_client_ip,
    input  wire [15:0]                   s_req_client_port,
    // dh hashes the destination: only its low byte decides (SCHED_DH_MULT is odd)
    input  wire [7:0]                    s_req_dst_ip,
    input  wire [TAG_WIDTH-1:0]          s_req_tag,

    // Response, in request order
    output wire                          m_rsp_valid,
    input  wire                          m_rsp_ready,
    output wire [TAG_WIDTH-1:0]          m_rsp_tag,
    output wire [PW-1:0]                 m_rsp_pool,
    output wire [`SNIC_SCHED_STATUS_W-1:0] m_rsp_status,
    output wire [5:0]                    m_rsp_server,

    // Table write
    input  wire                          tbl_wr_en,
    input  wire [TBL_AW-1:0]             tbl_wr_addr,
    input  wire [7:0]                    tbl_wr_data,

    // Eligibility mask write
    input  wire                          elig_wr_en,
    input  wire [PW-1:0]                 elig_wr_pool,
    input  wire [63:0]                   elig_wr_mask,

    // Descriptor commit
    input  wire                          pool_wr_en,
    input  wire [PW-1:0]                 pool_wr_pool,
    input  wire [`SNIC_SCHED_MODE_W-1:0] pool_wr_mode,
    input  wire                          pool_wr_fallback,
    input  wire                          pool_wr_hash_port,
    input  wire [TBL_AW-1:0]             pool_wr_base,
    input  wire [TBL_AW-1:0]             pool_wr_last,
    input  wire [TBL_AW-1:0]             pool_wr_loop,
    input  wire                          pool_wr_set_ptr,
    input  wire [TBL_AW-1:0]             pool_wr_ptr,

    // Cycle pointer read-back (registered: the value one cycle after ptr_rd_pool)
    input  wire [PW-1:0]                 ptr_rd_pool,
    output wire [TBL_AW-1:0]             ptr_rd_value
);

localparam MW = `SNIC_SCHED_MODE_W;
localparam SW = `SNIC_SCHED_STATUS_W;
localparam [MW-1:0] M_OFF = `SNIC_SCHED_MODE_OFF, M_CYCLE = `SNIC_SCHED_MODE_CYCLE,
    M_SH = `SNIC_SCHED_MODE_SH, M_DH = `SNIC_SCHED_MODE_DH, M_MH = `SNIC_SCHED_MODE_MH;
localparam [SW-1:0] S_PICK = `SNIC_SCHED_STATUS_PICK, S_NONE = `SNIC_SCHED_STATUS_NONE,
    S_PUNT = `SNIC_SCHED_STATUS_PUNT;
localparam [31:0] SH_MULT = `SNIC_SCHED_SH_MULT;
localparam [31:0] DH_MULT = `SNIC_SCHED_DH_MULT;
localparam [63:0] MH_KEY = `SNIC_SCHED_MH_KEY;
localparam [12:0] MH_SIZE = `SNIC_SCHED_MH_TABLE;
// SipHash initialisation vector
localparam [63:0] IV0 = 64'h736f6d6570736575 ^ MH_KEY, IV1 = 64'h646f72616e646f6d ^ MH_KEY,
    IV2 = 64'h6c7967656e657261 ^ MH_KEY, IV3 = 64'h7465646279746573 ^ MH_KEY;
// the length byte of a 4-byte message
localparam [63:0] MLEN = 64'h0400000000000000;

initial begin
    if (POOLS < 2 || (1 << PW) < POOLS) begin
        $error("Error: POOLS must be >= 2 and fit PW bits (instance %m)");
        $finish;
    end
    if (TBL_AW < 13) begin
        $error("Error: TBL_AW must be >= 13: an mh table has 4093 entries (instance %m)");
        $finish;
    end
end

function [63:0] rotl(input [63:0] x, input integer n);
    rotl = (x << n) | (x >> (64 - n));
endfunction

// ---- descriptors -----------------------------------------------------------------------
reg [MW-1:0]     d_mode [0:POOLS-1];
reg              d_fb   [0:POOLS-1];
reg              d_hp   [0:POOLS-1];
reg [TBL_AW-1:0] d_base [0:POOLS-1];
reg [TBL_AW-1:0] d_last [0:POOLS-1];
reg [TBL_AW-1:0] d_loop [0:POOLS-1];
reg [TBL_AW-1:0] d_ptr  [0:POOLS-1];
reg [TBL_AW-1:0] ptr_rd_reg = {TBL_AW{1'b0}};
assign ptr_rd_value = ptr_rd_reg;

// ---- flow control ----------------------------------------------------------------------
// Stages 1-3 move when `adv`; an mh request holds stage 3 until its rounds are done.
reg        hold_reg = 1'b0;     // the response FIFO might not take what is in flight
reg        s3_v = 1'b0;
reg [MW-1:0] s3_mode = {MW{1'b0}};
reg [3:0]  mh_cnt = 4'd0;
wire       mh_busy = s3_v && s3_mode == M_MH && mh_cnt != 4'd8;
wire       adv = !hold_reg && !mh_busy;
assign s_req_ready = adv;

// ---- stage 1: input register -----------------------------------------------------------
reg                 s1_v = 1'b0;
reg [PW-1:0]        s1_pool = {PW{1'b0}};
reg [31:0]          s1_cip = 32'd0;
reg [15:0]          s1_port = 16'd0;
reg [7:0]           s1_dst = 8'd0;
reg [TAG_WIDTH-1:0] s1_tag = {TAG_WIDTH{1'b0}};

always @(posedge clk) begin
    if (adv) begin
        s1_v <= s_req_valid;
        s1_pool <= s_req_pool;
        s1_cip <= s_req_client_ip;
        s1_port <= s_req_client_port;
        s1_dst <= s_req_dst_ip;
        s1_tag <= s_req_tag;
    end
    if (rst) s1_v <= 1'b0;
end

// ---- stage 2: descriptor, pointer, hash input ------------------------------------------
wire [MW-1:0]     s1_mode = d_mode[s1_pool];
wire [TBL_AW-1:0] s1_ptr = d_ptr[s1_pool];

reg                 s2_v = 1'b0;
reg [PW-1:0]        s2_pool = {PW{1'b0}};
reg [MW-1:0]        s2_mode = {MW{1'b0}};
reg                 s2_fb = 1'b0;
reg [TBL_AW-1:0]    s2_base = {TBL_AW{1'b0}};
reg [TBL_AW-1:0]    s2_ptr = {TBL_AW{1'b0}};
reg [31:0]          s2_hv = 32'd0;
reg [7:0]           s2_dh = 8'd0;
reg [TAG_WIDTH-1:0] s2_tag = {TAG_WIDTH{1'b0}};

integer di, ri, ti, ei;
initial begin
    for (di = 0; di < POOLS; di = di + 1) begin
        d_mode[di] = M_OFF;
        d_fb[di] = 1'b0;
        d_hp[di] = 1'b0;
        d_base[di] = {TBL_AW{1'b0}};
        d_last[di] = {TBL_AW{1'b0}};
        d_loop[di] = {TBL_AW{1'b0}};
        d_ptr[di] = {TBL_AW{1'b0}};
    end
end

always @(posedge clk) begin
    if (adv) begin
        s2_v <= s1_v;
        s2_pool <= s1_pool;
        s2_mode <= s1_mode;
        s2_fb <= d_fb[s1_pool];
        s2_base <= d_base[s1_pool];
        s2_ptr <= s1_ptr;
        s2_hv <= s1_cip + (d_hp[s1_pool] ? {16'd0, s1_port} : 32'd0);
        s2_dh <= s1_dst * DH_MULT[7:0];
        s2_tag <= s1_tag;
    end
    // a request of a CYCLE pool moves its pointer; a commit wins over it
    if (adv && s1_v && s1_mode == M_CYCLE)
        d_ptr[s1_pool] <= s1_ptr == d_last[s1_pool] ? d_loop[s1_pool] : s1_ptr + 1'b1;
    if (pool_wr_en) begin
        d_mode[pool_wr_pool] <= pool_wr_mode;
        d_fb[pool_wr_pool] <= pool_wr_fallback;
        d_hp[pool_wr_pool] <= pool_wr_hash_port;
        d_base[pool_wr_pool] <= pool_wr_base;
        d_last[pool_wr_pool] <= pool_wr_last;
        d_loop[pool_wr_pool] <= pool_wr_loop;
        if (pool_wr_set_ptr) d_ptr[pool_wr_pool] <= pool_wr_ptr;
    end
    ptr_rd_reg <= d_ptr[ptr_rd_pool];
    if (rst) begin
        s2_v <= 1'b0;
        for (ri = 0; ri < POOLS; ri = ri + 1) d_mode[ri] <= M_OFF;
    end
end

// ---- stage 3: sh partial products, mh rounds -------------------------------------------
reg [PW-1:0]        s3_pool = {PW{1'b0}};
reg                 s3_fb = 1'b0;
reg [TBL_AW-1:0]    s3_base = {TBL_AW{1'b0}};
reg [TBL_AW-1:0]    s3_ptr = {TBL_AW{1'b0}};
reg [7:0]           s3_dh = 8'd0;
reg [TAG_WIDTH-1:0] s3_tag = {TAG_WIDTH{1'b0}};
reg [15:0]          s3_p0 = 16'd0;   // bits 31:16 of the low product
reg [15:0]          s3_p1 = 16'd0, s3_p2 = 16'd0;
reg [31:0]          s3_m = 32'd0;
reg [63:0]          v0 = 64'd0, v1 = 64'd0, v2 = 64'd0, v3 = 64'd0;

// one half SipRound per cycle: even counts the first half, odd the second
// only the high halves of these sums are used
// verilator lint_off UNUSEDSIGNAL
wire [31:0] sh_p0 = s2_hv[15:0] * SH_MULT[15:0];
wire [63:0] ha0 = v0 + v1;
wire [63:0] ha2 = v2 + v3;
wire [63:0] hb0 = v0 + v3;
wire [63:0] hb2 = v2 + v1;
wire [31:0] mh_hash = v0[31:0] ^ v1[31:0] ^ v2[31:0] ^ v3[31:0];

always @(posedge clk) begin
    if (adv) begin
        s3_v <= s2_v;
        s3_pool <= s2_pool;
        s3_mode <= s2_mode;
        s3_fb <= s2_fb;
        s3_base <= s2_base;
        s3_ptr <= s2_ptr;
        s3_dh <= s2_dh;
        s3_tag <= s2_tag;
        s3_p0 <= sh_p0[31:16];
        s3_p1 <= s2_hv[15:0] * SH_MULT[31:16];
        s3_p2 <= s2_hv[31:16] * SH_MULT[15:0];
        s3_m <= s2_hv;
        mh_cnt <= 4'd0;
        v0 <= IV0;
        v1 <= IV1;
        v2 <= IV2;
        v3 <= IV3 ^ MLEN ^ {32'd0, s2_hv};
    end else if (mh_busy) begin
        mh_cnt <= mh_cnt + 1'b1;
        if (!mh_cnt[0]) begin
            v0 <= rotl(ha0, 32);
            v1 <= rotl(v1, 13) ^ ha0;
            v2 <= ha2;
            v3 <= rotl(v3, 16) ^ ha2;
        end else begin
            // after the compression round: v0 ^= m, v2 ^= 0xff
            v0 <= hb0 ^ (mh_cnt == 4'd1 ? MLEN ^ {32'd0, s3_m} : 64'd0);
            v1 <= rotl(v1, 17) ^ hb2;
            v2 <= rotl(hb2, 32) ^ (mh_cnt == 4'd1 ? 64'hff : 64'd0);
            v3 <= rotl(v3, 21) ^ hb0;
        end
    end
    if (rst) begin
        s3_v <= 1'b0;
        mh_cnt <= 4'd0;
    end
end

// ---- stage 4: sh sum, mh fold 1 (2^12 = 3 mod 4093) ------------------------------------
reg                 s4_v = 1'b0;
reg [PW-1:0]        s4_pool = {PW{1'b0}};
reg [MW-1:0]        s4_mode = {MW{1'b0}};
reg                 s4_fb = 1'b0;
reg [TBL_AW-1:0]    s4_base = {TBL_AW{1'b0}};
reg [TBL_AW-1:0]    s4_idx = {TBL_AW{1'b0}};
reg [21:0]          s4_a = 22'd0;
reg [TAG_WIDTH-1:0] s4_tag = {TAG_WIDTH{1'b0}};

wire [15:0] sh_sum = s3_p0 + s3_p1 + s3_p2;
// verilator lint_on UNUSEDSIGNAL
wire [TBL_AW-1:0] s3_idx = s3_mode == M_CYCLE ? s3_ptr :
    {{TBL_AW-8{1'b0}}, s3_mode == M_SH ? sh_sum[15:8] : s3_dh};

always @(posedge clk) begin
    s4_v <= s3_v && adv;
    s4_pool <= s3_pool;
    s4_mode <= s3_mode;
    s4_fb <= s3_fb;
    s4_base <= s3_base;
    s4_idx <= s3_idx;
    s4_a <= {1'b0, mh_hash[31:12], 1'b0} + {2'b00, mh_hash[31:12]} + {10'd0, mh_hash[11:0]};
    s4_tag <= s3_tag;
    if (rst) s4_v <= 1'b0;
end

// ---- stage 5: mh fold 2 and the final subtraction --------------------------------------
reg                 s5_v = 1'b0;
reg [PW-1:0]        s5_pool = {PW{1'b0}};
reg [MW-1:0]        s5_mode = {MW{1'b0}};
reg                 s5_fb = 1'b0;
reg [TBL_AW-1:0]    s5_base = {TBL_AW{1'b0}};
reg [TBL_AW-1:0]    s5_idx = {TBL_AW{1'b0}};
reg [TAG_WIDTH-1:0] s5_tag = {TAG_WIDTH{1'b0}};

// b <= 3 * 1023 + 4095 = 7164 < 2 * 4093
wire [12:0] mh_b = {2'd0, s4_a[21:12], 1'b0} + {3'd0, s4_a[21:12]} + {1'b0, s4_a[11:0]};
wire [12:0] mh_c = mh_b >= MH_SIZE ? mh_b - MH_SIZE : mh_b;

always @(posedge clk) begin
    s5_v <= s4_v;
    s5_pool <= s4_pool;
    s5_mode <= s4_mode;
    s5_fb <= s4_fb;
    s5_base <= s4_base;
    s5_idx <= s4_mode == M_MH ? {{TBL_AW-13{1'b0}}, mh_c} : s4_idx;
    s5_tag <= s4_tag;
    if (rst) s5_v <= 1'b0;
end

// ---- stage 6: table address ------------------------------------------------------------
reg                 s6_v = 1'b0;
reg [PW-1:0]        s6_pool = {PW{1'b0}};
reg                 s6_off = 1'b0;
reg                 s6_fb = 1'b0;
reg [TBL_AW-1:0]    s6_addr = {TBL_AW{1'b0}};
reg [TAG_WIDTH-1:0] s6_tag = {TAG_WIDTH{1'b0}};

always @(posedge clk) begin
    s6_v <= s5_v;
    s6_pool <= s5_pool;
    s6_off <= s5_mode != M_CYCLE && s5_mode != M_SH && s5_mode != M_DH && s5_mode != M_MH;
    s6_fb <= s5_fb;
    s6_addr <= s5_base + s5_idx;
    s6_tag <= s5_tag;
    if (rst) s6_v <= 1'b0;
end

// ---- stages 7-8: table read, registered output -----------------------------------------
reg [7:0] tbl [0:(1 << TBL_AW)-1];
initial begin
    for (ti = 0; ti < (1 << TBL_AW); ti = ti + 1) tbl[ti] = `SNIC_SCHED_ENTRY_NONE;
end
always @(posedge clk) begin
    if (tbl_wr_en) tbl[tbl_wr_addr] <= tbl_wr_data;
end

reg                 s7_v = 1'b0;
reg [PW-1:0]        s7_pool = {PW{1'b0}};
reg                 s7_off = 1'b0;
reg                 s7_fb = 1'b0;
reg [7:0]           s7_q = 8'd0;
reg [TAG_WIDTH-1:0] s7_tag = {TAG_WIDTH{1'b0}};
reg                 s8_v = 1'b0;
reg [PW-1:0]        s8_pool = {PW{1'b0}};
reg                 s8_off = 1'b0;
reg                 s8_fb = 1'b0;
reg [7:0]           s8_e = 8'd0;
reg [TAG_WIDTH-1:0] s8_tag = {TAG_WIDTH{1'b0}};

always @(posedge clk) begin
    s7_q <= tbl[s6_addr];
    s7_v <= s6_v;
    s7_pool <= s6_pool;
    s7_off <= s6_off;
    s7_fb <= s6_fb;
    s7_tag <= s6_tag;
    s8_e <= s7_q;
    s8_v <= s7_v;
    s8_pool <= s7_pool;
    s8_off <= s7_off;
    s8_fb <= s7_fb;
    s8_tag <= s7_tag;
    if (rst) begin
        s7_v <= 1'b0;
        s8_v <= 1'b0;
    end
end

// ---- stage 9: eligibility, status, response FIFO ---------------------------------------
reg [63:0] elig [0:POOLS-1];
initial begin
    for (ei = 0; ei < POOLS; ei = ei + 1) elig[ei] = 64'd0;
end
always @(posedge clk) begin
    if (elig_wr_en) elig[elig_wr_pool] <= elig_wr_mask;
end

wire [63:0] s8_mask = elig[s8_pool];
wire        s8_none = s8_e[7:6] != 2'b00;
wire        s8_elig = s8_mask[s8_e[5:0]];
wire [SW-1:0] s8_status = s8_off ? S_PUNT : s8_none ? S_NONE : s8_elig ? S_PICK :
    s8_fb ? S_PUNT : S_NONE;

localparam FW = TAG_WIDTH + PW + SW + 6;
localparam FIFO_DEPTH = 16;
wire [$clog2(FIFO_DEPTH)+1:0] fifo_count;
wire [FW-1:0] rsp_data;

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(FW),
    .DEPTH(FIFO_DEPTH)
) rsp_fifo (
    .clk(clk),
    .rst(rst),
    .s_data({s8_tag, s8_pool, s8_status, s8_e[5:0]}),
    .s_valid(s8_v),
    .s_ready(),
    .m_data(rsp_data),
    .m_valid(m_rsp_valid),
    .m_ready(m_rsp_ready),
    .count(fifo_count)
);
// verilator lint_on PINCONNECTEMPTY

assign {m_rsp_tag, m_rsp_pool, m_rsp_status, m_rsp_server} = rsp_data;

// Credits: stages 4-8 hold at most 5 requests and stage 3 may send one more at the edge
// the hold is set; the FIFO holds FIFO_DEPTH + 2. Hold while count + 7 could pass that.
always @(posedge clk) begin
    hold_reg <= fifo_count >= FIFO_DEPTH + 2 - 8;
    if (rst) hold_reg <= 1'b1;
end

endmodule

`resetall
