// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Stateless SYN responder (docs/synresp.md): answers a client's SYN with a SYN-ACK whose ISN
 * is a keyed cookie (syn_cookie), built in the pipeline, so a SYN keeps no state on the card.
 * The client's ACK comes back as a segment without a flow; the firmware checks its cookie
 * (firmware/logic/src/cookie.rs is the reference model of both).
 *
 * In: one SYN per s_syn handshake: the client's MAC, addresses, ports, ISN and the option
 * window the parser captures (option byte k in bits 8k+7:8k, bytes at and past opt_len
 * ignored). Out: the SYN-ACK frame, AXI-Stream, byte 0 in tdata[7:0], in SYN order.
 *
 * The SYN-ACK (every field at a fixed offset; three layouts):
 *   Ethernet dst = client MAC, src = cfg_mac, type IPv4; IPv4 IHL 5, id 0, DF, TTL 64,
 *   src = VIP, dst = client; TCP VIP port -> client port, seq = cookie, ack = ISN + 1,
 *   SYN|ACK, window L7_BUFFER_BYTES, options:
 *     client TS and cfg_offer_ts: MSS(cfg_mss), SACK_PERM or NOP NOP, TS(tsval, the client's
 *       TSval), and NOP WS(w) when the client offered window scaling and cfg_offer_ws
 *       (w = the client's shift, at most 14: the card announces the client's own shift);
 *       tsval = cfg_now with its low COOKIE_TS_BITS bits replaced by {sack_ok, w or 15},
 *       one step of 2^COOKIE_TS_BITS back when that would be ahead of cfg_now (ts_encode);
 *       frame 70 or 74 bytes;
 *     otherwise MSS(cfg_mss) only (window scale and SACK cannot be kept without a TSval);
 *       58 bytes padded to 60.
 *   Cookie: syn_cookie MAKE over {client IP, VIP, client port, VIP port, ISN} with the MSS
 *   class of the client's MSS (536 without an MSS option or with MSS 0).
 *
 * Pipeline:
 *   tcp_opt_decoder (TCP_OPT_LATENCY) beside a context FIFO -> J: job register (MSS class,
 *   TS/WS/SACK) -> UNITS syn_cookie units, round robin (one request in flight each,
 *   COOKIE_INTERVAL cycles per request) with an in-order job FIFO -> C: collect (round
 *   robin, the order of issue) and sample cfg_now -> B2: TSval, ack -> B3: checksum partial
 *   sums (adder tree, 4 words a node) -> B4: sums -> B5: end-around carry, complement ->
 *   serializer: the frame image, one beat of it on the port (a beat-index mux), loaded when
 *   the serializer is idle.
 * Rate: one SYN per ceil(COOKIE_INTERVAL / UNITS) cycles from the cookie units, one frame
 * per (frame bytes / KEEP_WIDTH, rounded up) + 1 cycles from the serializer (9, 10 or 11
 * at 64 bits); B2..B5 take one frame a cycle. Latency from the SYN's accept to the
 * SYN-ACK's first beat when nothing waits: TCP_OPT_LATENCY + 1 (J) + COOKIE_LATENCY + the
 * stages C..B5 and the serializer's load (records.toml; test-synresp's throughput test
 * asserts the sum).
 * Flow control: s_syn_ready is the option decoder's registered ready (16 SYNs in it); every
 * stage after it holds when the next one is full; m_axis back-pressure reaches the input.
 *
 * Keys: key_wr_* write a key slot of every unit; cfg_cur_epoch / cfg_prev_valid as in
 * syn_cookie (sampled when a unit accepts a request). Keys cannot be read back.
 */
module syn_responder #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    // cookie units working in parallel
    parameter UNITS = 2
)
(
    input  wire                  clk,
    input  wire                  rst,

    // SYN in
    input  wire                  s_syn_valid,
    output wire                  s_syn_ready,
    input  wire [47:0]           s_syn_eth_src,
    input  wire [31:0]           s_syn_ip_src,
    input  wire [31:0]           s_syn_ip_dst,
    input  wire [15:0]           s_syn_sport,
    input  wire [15:0]           s_syn_dport,
    input  wire [31:0]           s_syn_seq,
    input  wire [5:0]            s_syn_opt_len,
    input  wire [`SNIC_TCP_OPT_BYTES*8-1:0] s_syn_opt,

    // SYN-ACK out
    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    // configuration
    input  wire [47:0]           cfg_mac,
    input  wire [15:0]           cfg_mss,
    input  wire                  cfg_offer_ws,
    input  wire                  cfg_offer_sack,
    input  wire                  cfg_offer_ts,
    input  wire [31:0]           cfg_now,
    input  wire                  key_wr_en,
    input  wire                  key_wr_slot,
    input  wire [`SNIC_COOKIE_KEY_BITS-1:0] key_wr_data,
    input  wire                  cfg_cur_epoch,
    input  wire                  cfg_prev_valid,

    // SYN-ACKs sent (last beat taken)
    output wire [31:0]           stat_answered
);

localparam DW = DATA_WIDTH;
localparam KW = KEEP_WIDTH;
localparam UB = UNITS > 1 ? $clog2(UNITS) : 1;
localparam MSS_W = `SNIC_COOKIE_MSS_CLASS_BITS;
localparam TSB = `SNIC_COOKIE_TS_BITS;
localparam OPTS_W = `SNIC_TCP_OPTS_W;
// the longest frame (74 bytes) in whole beats
localparam IMG_BEATS = (74 + KW - 1) / KW;
localparam IMG_W = IMG_BEATS * DW;
localparam BC_W = $clog2(IMG_BEATS + 1);
localparam [15:0] WINDOW = `SNIC_L7_BUFFER_BYTES;
// context of a SYN beside the option decoder: MAC, IPs, ports, ISN
localparam CTX_W = 48 + 32 + 32 + 16 + 16 + 32;
// a job: context, MSS class, TS (with the client's TSval), SACK, WS and its shift
localparam JOB_W = CTX_W + MSS_W + 1 + 32 + 1 + 1 + 4;
// the layouts: options 4 (MSS), 16 (+ TS), 20 (+ TS + WS)
localparam [1:0] LY_MSS = 2'd0, LY_TS = 2'd1, LY_TSWS = 2'd2;

initial begin
    if (KW * 8 != DW || DW < 64 || UNITS < 1 || UNITS > 16) begin
        $error("Error: syn_responder needs DATA_WIDTH >= 64, KEEP_WIDTH DATA_WIDTH/8, 1..16 UNITS (instance %m)");
        $finish;
    end
    if (TSB != 5 || MSS_W != 2 || `SNIC_L7_BUFFER_BYTES > 65535) begin
        $error("Error: COOKIE_TS_BITS / COOKIE_MSS_CLASS_BITS / L7_BUFFER_BYTES are not this unit's (instance %m)");
        $finish;
    end
end

// ---------------------------------------------------------------------------------------
// Option decoder and the SYN's context beside it

wire              od_in_ready;
wire              od_valid;
wire              od_ready;
// verilator lint_off UNUSED
wire [OPTS_W-1:0] od_opts;   // the SYN-ACK needs MSS, WS, SACK_PERM and TS
// verilator lint_on UNUSED
wire              cq_valid;
wire [CTX_W-1:0]  cq_data;

// verilator lint_off PINCONNECTEMPTY
tcp_opt_decoder #(
    .TAG_WIDTH(1)
)
opt_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(s_syn_valid),
    .s_ready(od_in_ready),
    .s_opt_len(s_syn_opt_len),
    .s_opt(s_syn_opt),
    .s_tag(1'b0),
    .m_valid(od_valid),
    .m_ready(od_ready),
    .m_opts(od_opts),
    .m_tag()
);

// 16 SYNs in the decoder at most (its s_ready): the FIFO (18 records) never refuses one.
dp_fifo #(
    .WIDTH(CTX_W),
    .DEPTH(16)
)
ctx_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data({s_syn_eth_src, s_syn_ip_src, s_syn_ip_dst, s_syn_sport, s_syn_dport, s_syn_seq}),
    .s_valid(s_syn_valid && od_in_ready),
    .s_ready(),
    .m_data(cq_data),
    .m_valid(cq_valid),
    .m_ready(od_valid && od_ready),
    .count()
);
// verilator lint_on PINCONNECTEMPTY

assign s_syn_ready = od_in_ready;

// ---------------------------------------------------------------------------------------
// J: the job (MSS class and the options the SYN-ACK keeps)

// A job goes into the in-order job FIFO when it leaves the option decoder; J keeps what
// the cookie request needs ({client IP, VIP, ports, ISN, MSS class}) for two jobs, so that
// its ready (to the decoder) is a register: high when J holds at most one job after the
// edge, so the job taken at the next edge always fits. jq_room_reg, also a register, keeps
// the job FIFO from filling: J's ready path and its take path (to the cookie units) see
// registers only.
localparam RQ_W = 32 + 32 + 16 + 16 + 32 + MSS_W;
reg  [1:0]       jn_reg = 2'd0;
reg              j_room_reg = 1'b0;
reg              jq_room_reg = 1'b0;
reg  [RQ_W-1:0]  j_job_reg = {RQ_W{1'b0}};
reg  [RQ_W-1:0]  j_tail_reg = {RQ_W{1'b0}};
wire             j_valid = jn_reg != 2'd0;
wire             j_take;

wire [15:0] od_mss = `SNIC_TCP_OPTS_MSS_VALUE(od_opts);
wire        od_has_mss = `SNIC_TCP_OPTS_MSS(od_opts) && od_mss != 16'd0;
wire [MSS_W-1:0] od_class = !od_has_mss ? 2'd0 :
                            od_mss >= `SNIC_COOKIE_MSS_3 ? 2'd3 :
                            od_mss >= `SNIC_COOKIE_MSS_2 ? 2'd2 :
                            od_mss >= `SNIC_COOKIE_MSS_1 ? 2'd1 : 2'd0;
wire [7:0]  od_shift = `SNIC_TCP_OPTS_WS_SHIFT(od_opts);
wire [3:0]  od_w = od_shift > 8'd14 ? 4'd14 : od_shift[3:0];
wire [JOB_W-1:0] od_job = {cq_data, od_class, `SNIC_TCP_OPTS_TS(od_opts),
                           `SNIC_TCP_OPTS_TSVAL(od_opts), `SNIC_TCP_OPTS_SACK_PERM(od_opts),
                           `SNIC_TCP_OPTS_WS(od_opts), od_w};

wire [RQ_W-1:0] od_req = od_job[JOB_W-49 -: RQ_W];

assign od_ready = cq_valid && j_room_reg && jq_room_reg;
wire   j_push = od_valid && od_ready;
wire [1:0] jn_next = jn_reg + {1'b0, j_push} - {1'b0, j_take};

always @(posedge clk) begin
    if (j_take) begin
        j_job_reg <= j_push && jn_reg == 2'd1 ? od_req : j_tail_reg;
        if (j_push && jn_reg == 2'd2) begin
            j_tail_reg <= od_req;
        end
    end else if (j_push) begin
        if (jn_reg == 2'd0) begin
            j_job_reg <= od_req;
        end else begin
            j_tail_reg <= od_req;
        end
    end
    jn_reg <= jn_next;
    j_room_reg <= jn_next != 2'd2;
    if (rst) begin
        jn_reg <= 2'd0;
        j_room_reg <= 1'b0;
    end
end

// request fields
wire [31:0] j_cip = j_job_reg[RQ_W-1 -: 32];
wire [31:0] j_vip = j_job_reg[RQ_W-33 -: 32];
wire [15:0] j_cport = j_job_reg[RQ_W-65 -: 16];
wire [15:0] j_vport = j_job_reg[RQ_W-81 -: 16];
wire [31:0] j_isn = j_job_reg[RQ_W-97 -: 32];
wire [MSS_W-1:0] j_class = j_job_reg[MSS_W-1:0];

// ---------------------------------------------------------------------------------------
// Cookie units (round robin) and the in-order job FIFO

localparam integer LAST_I = UNITS - 1;
localparam [UB-1:0] LAST_U = LAST_I[UB-1:0];
reg  [UB-1:0]     in_ptr_reg = {UB{1'b0}};
reg  [UB-1:0]     out_ptr_reg = {UB{1'b0}};
wire [UNITS-1:0]  u_req_ready;
wire [UNITS-1:0]  u_rsp_valid;
wire [UNITS*32-1:0] u_rsp_isn;
wire [UNITS-1:0]  u_rsp_ready;
wire              jq_valid;
wire [JOB_W-1:0]  jq_data;
wire              c_take;

assign j_take = j_valid && u_req_ready[in_ptr_reg];

genvar gu;
generate
for (gu = 0; gu < UNITS; gu = gu + 1) begin : g_unit
    localparam [UB-1:0] U_IDX = gu;
    // verilator lint_off PINCONNECTEMPTY
    syn_cookie #(
        .TAG_WIDTH(1)
    )
    cookie_inst (
        .clk(clk),
        .rst(rst),
        .s_req_valid(j_valid && in_ptr_reg == U_IDX),
        .s_req_ready(u_req_ready[gu]),
        .s_req_op(`SNIC_COOKIE_OP_MAKE),
        .s_req_client_ip(j_cip),
        .s_req_vip(j_vip),
        .s_req_client_port(j_cport),
        .s_req_vip_port(j_vport),
        .s_req_client_isn(j_isn),
        .s_req_cookie(32'd0),
        .s_req_mss(j_class),
        .s_req_tag(1'b0),
        .m_rsp_valid(u_rsp_valid[gu]),
        .m_rsp_ready(u_rsp_ready[gu]),
        .m_rsp_op(),
        .m_rsp_isn(u_rsp_isn[gu*32 +: 32]),
        .m_rsp_status(),
        .m_rsp_mss(),
        .m_rsp_tag(),
        .key_wr_en(key_wr_en),
        .key_wr_slot(key_wr_slot),
        .key_wr_data(key_wr_data),
        .cfg_cur_epoch(cfg_cur_epoch),
        .cfg_prev_valid(cfg_prev_valid)
    );
    // verilator lint_on PINCONNECTEMPTY
    assign u_rsp_ready[gu] = c_take && out_ptr_reg == U_IDX;
end
endgenerate

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(JOB_W),
    .DEPTH(16)
)
job_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data(od_job),
    .s_valid(j_push),
    .s_ready(),
    .m_data(jq_data),
    .m_valid(jq_valid),
    .m_ready(c_take),
    .count()
);
// verilator lint_on PINCONNECTEMPTY

// The job FIFO's occupancy after the edge, kept here from the push and take strobes rather
// than read from the FIFO's pointers, so that jq_room_reg is a register fed by a 5-bit adder:
// high when at most 15 jobs are held, so the job pushed in the next cycle always fits.
reg  [4:0] jq_n_reg = 5'd0;
wire [4:0] jq_n_next = jq_n_reg + {4'd0, j_push} - {4'd0, c_take};
always @(posedge clk) begin
    jq_n_reg <= jq_n_next;
    jq_room_reg <= jq_n_next < 5'd16;
    if (rst) begin
        jq_n_reg <= 5'd0;
        jq_room_reg <= 1'b0;
    end
end

always @(posedge clk) begin
    if (j_take) begin
        in_ptr_reg <= in_ptr_reg == LAST_U ? {UB{1'b0}} : in_ptr_reg + 1'b1;
    end
    if (c_take) begin
        out_ptr_reg <= out_ptr_reg == LAST_U ? {UB{1'b0}} : out_ptr_reg + 1'b1;
    end
    if (rst) begin
        in_ptr_reg <= {UB{1'b0}};
        out_ptr_reg <= {UB{1'b0}};
    end
end

// ---------------------------------------------------------------------------------------
// C .. B5: the frame's fields and checksums (a stage moves when the next one is free)

wire adv;   // B2..B5 and C move
reg              c_valid_reg = 1'b0;
// verilator lint_off UNUSED
reg [JOB_W-1:0]  c_job_reg = {JOB_W{1'b0}};   // the MSS class went to the cookie unit
// verilator lint_on UNUSED
reg [31:0]       c_isn_reg = 32'd0;
reg [31:0]       c_now_reg = 32'd0;

assign c_take = u_rsp_valid[out_ptr_reg] && jq_valid && (!c_valid_reg || adv);

always @(posedge clk) begin
    if (adv) begin
        c_valid_reg <= 1'b0;
    end
    if (c_take) begin
        c_valid_reg <= 1'b1;
        c_job_reg <= jq_data;
        c_isn_reg <= u_rsp_isn[out_ptr_reg*32 +: 32];
        c_now_reg <= cfg_now;
    end
    if (rst) begin
        c_valid_reg <= 1'b0;
    end
end

wire [47:0] c_mac = c_job_reg[JOB_W-1 -: 48];
wire [31:0] c_cip = c_job_reg[JOB_W-49 -: 32];
wire [31:0] c_vip = c_job_reg[JOB_W-81 -: 32];
wire [15:0] c_cport = c_job_reg[JOB_W-113 -: 16];
wire [15:0] c_vport = c_job_reg[JOB_W-129 -: 16];
wire [31:0] c_seq = c_job_reg[JOB_W-145 -: 32];
wire        c_ts = c_job_reg[38] && cfg_offer_ts;
wire [31:0] c_tsecr = c_job_reg[37:6];
wire        c_sack = c_job_reg[5] && cfg_offer_sack;
wire        c_ws = c_job_reg[4] && cfg_offer_ws;
wire [3:0]  c_w = c_job_reg[3:0];
// ts_encode: cfg_now with its low bits replaced, one step back when ahead of it
wire [TSB-1:0] c_tsbits = {c_sack, c_ws ? c_w : 4'd15};
wire [31:0] c_ts_raw = {c_now_reg[31:TSB], c_tsbits};
wire        c_ts_ahead = c_tsbits > c_now_reg[TSB-1:0];

// B2: every field of the frame
// record: mac 48, cip 32, vip 32, cport 16, vport 16, seq(cookie) 32, ack 32, mss 16,
// layout 2, sack 1, tsval 32, tsecr 32, w 4
localparam R_W = 48 + 32 + 32 + 16 + 16 + 32 + 32 + 16 + 2 + 1 + 32 + 32 + 4;
reg             b2_valid_reg = 1'b0;
reg [R_W-1:0]   b2_reg = {R_W{1'b0}};
reg             b3_valid_reg = 1'b0;
reg [R_W-1:0]   b3_reg = {R_W{1'b0}};
reg             b4_valid_reg = 1'b0;
reg [R_W-1:0]   b4_reg = {R_W{1'b0}};
reg             b5_valid_reg = 1'b0;
reg [R_W-1:0]   b5_reg = {R_W{1'b0}};

function [R_W-1:0] rec(input [47:0] mac, input [31:0] cip, input [31:0] vip,
                       input [15:0] cport, input [15:0] vport, input [31:0] seq,
                       input [31:0] ack, input [15:0] mss, input [1:0] layout, input sack,
                       input [31:0] tsval, input [31:0] tsecr, input [3:0] w);
    rec = {mac, cip, vip, cport, vport, seq, ack, mss, layout, sack, tsval, tsecr, w};
endfunction

// record fields
// verilator lint_off UNUSED
function [47:0] r_mac(input [R_W-1:0] r);   r_mac = r[R_W-1 -: 48];    endfunction
function [31:0] r_cip(input [R_W-1:0] r);   r_cip = r[R_W-49 -: 32];   endfunction
function [31:0] r_vip(input [R_W-1:0] r);   r_vip = r[R_W-81 -: 32];   endfunction
function [15:0] r_cport(input [R_W-1:0] r); r_cport = r[R_W-113 -: 16]; endfunction
function [15:0] r_vport(input [R_W-1:0] r); r_vport = r[R_W-129 -: 16]; endfunction
function [31:0] r_seq(input [R_W-1:0] r);   r_seq = r[R_W-145 -: 32];  endfunction
function [31:0] r_ack(input [R_W-1:0] r);   r_ack = r[R_W-177 -: 32];  endfunction
function [15:0] r_mss(input [R_W-1:0] r);   r_mss = r[R_W-209 -: 16];  endfunction
function [1:0]  r_layout(input [R_W-1:0] r); r_layout = r[R_W-225 -: 2]; endfunction
function        r_sack(input [R_W-1:0] r);  r_sack = r[R_W-227];       endfunction
function [31:0] r_tsval(input [R_W-1:0] r); r_tsval = r[R_W-228 -: 32]; endfunction
function [31:0] r_tsecr(input [R_W-1:0] r); r_tsecr = r[R_W-260 -: 32]; endfunction
function [3:0]  r_w(input [R_W-1:0] r);     r_w = r[3:0];              endfunction
// verilator lint_on UNUSED

// IPv4 total length and TCP length of a layout
function [15:0] ip_len(input [1:0] layout);
    ip_len = layout == LY_MSS ? 16'd44 : layout == LY_TS ? 16'd56 : 16'd60;
endfunction

// Checksum words (16 bits each; constants folded in): 4 words a node, then the nodes.
// IP: 0x4500 + len + 0 + 0x4000 + 0x4006 + 0 + VIP + client
// TCP: pseudo header (VIP, client, 6, tcp length), header (ports, seq, ack,
//   doff|0x012, window, 0, 0), options
localparam [17:0] IP_CONST = 18'h04500 + 18'h04000 + 18'h04006;
localparam [15:0] TCP_FLAGS = 16'h0012;

reg [17:0] b3_ip_p_reg [0:1];
reg [18:0] b3_tcp_p_reg [0:4];
reg [18:0] b4_ip_s_reg = 19'd0;
reg [20:0] b4_tcp_s_reg = 21'd0;
reg [15:0] b5_ip_csum_reg = 16'd0;
reg [15:0] b5_tcp_csum_reg = 16'd0;
integer pi;
initial begin
    for (pi = 0; pi < 2; pi = pi + 1) begin
        b3_ip_p_reg[pi] = 18'd0;
    end
    for (pi = 0; pi < 5; pi = pi + 1) begin
        b3_tcp_p_reg[pi] = 19'd0;
    end
end

wire [1:0]  b2_ly = r_layout(b2_reg);
wire [31:0] b2_vip = r_vip(b2_reg);
wire [31:0] b2_cip = r_cip(b2_reg);
wire [31:0] b2_seq = r_seq(b2_reg);
wire [31:0] b2_ack = r_ack(b2_reg);
wire [15:0] b2_tcp_len = ip_len(b2_ly) - 16'd20;
wire [15:0] b2_doff_flags = {b2_tcp_len[5:2], 12'd0} | TCP_FLAGS;
wire [15:0] b2_sack_w = b2_ly == LY_MSS ? 16'd0 : (r_sack(b2_reg) ? 16'h0402 : 16'h0101);
wire [15:0] b2_ts_w = b2_ly == LY_MSS ? 16'd0 : 16'h080a;
wire [31:0] b2_tsval = b2_ly == LY_MSS ? 32'd0 : r_tsval(b2_reg);
wire [31:0] b2_tsecr = b2_ly == LY_MSS ? 32'd0 : r_tsecr(b2_reg);
wire [15:0] b2_ws0 = b2_ly == LY_TSWS ? 16'h0103 : 16'd0;
wire [15:0] b2_ws1 = b2_ly == LY_TSWS ? {8'h03, 4'd0, r_w(b2_reg)} : 16'd0;

// 4-input 16-bit node
function [17:0] add4(input [15:0] a, input [15:0] b, input [15:0] c, input [15:0] d);
    add4 = {2'b0, a} + {2'b0, b} + {2'b0, c} + {2'b0, d};
endfunction

reg [IMG_W-1:0] img_reg = {IMG_W{1'b0}};
reg [BC_W-1:0]  beats_reg = {BC_W{1'b0}};   // beats left, 0 idle
reg [BC_W-1:0]  beat_reg = {BC_W{1'b0}};    // beat on the port
reg [KW-1:0]    last_keep_reg = {KW{1'b0}};
reg [31:0]      answered_reg = 32'd0;
wire            m_take = beats_reg != {BC_W{1'b0}} && m_axis_tready;
wire            ser_last = beats_reg == {{BC_W-1{1'b0}}, 1'b1};
// a frame is loaded when the serializer is idle (its beats_reg, a register, is 0): one cycle
// between frames, and m_axis_tready reaches only the beat counters
wire            ser_load = b5_valid_reg && beats_reg == {BC_W{1'b0}};

assign adv = !b5_valid_reg || ser_load;

always @(posedge clk) begin
    if (adv) begin
        b2_valid_reg <= c_valid_reg;
        b3_valid_reg <= b2_valid_reg;
        b4_valid_reg <= b3_valid_reg;
        b5_valid_reg <= b4_valid_reg;
        b3_reg <= b2_reg;
        b4_reg <= b3_reg;
        b5_reg <= b4_reg;
        if (c_valid_reg) begin
            b2_reg <= rec(c_mac, c_cip, c_vip, c_cport, c_vport, c_isn_reg, c_seq + 32'd1,
                          cfg_mss, c_ts ? (c_ws ? LY_TSWS : LY_TS) : LY_MSS, c_sack,
                          c_ts_ahead ? c_ts_raw - (32'd1 << TSB) : c_ts_raw, c_tsecr, c_w);
        end
        // B3: partial sums
        b3_ip_p_reg[0] <= add4(ip_len(b2_ly), b2_vip[31:16], b2_vip[15:0], b2_cip[31:16]);
        b3_ip_p_reg[1] <= {2'b0, b2_cip[15:0]} + IP_CONST;
        b3_tcp_p_reg[0] <= {1'b0, add4(b2_vip[31:16], b2_vip[15:0], b2_cip[31:16],
                                       b2_cip[15:0])};
        b3_tcp_p_reg[1] <= {1'b0, add4(16'd6 + b2_tcp_len, r_vport(b2_reg), r_cport(b2_reg),
                                       b2_seq[31:16])};
        b3_tcp_p_reg[2] <= {1'b0, add4(b2_seq[15:0], b2_ack[31:16], b2_ack[15:0],
                                       b2_doff_flags)};
        b3_tcp_p_reg[3] <= {1'b0, add4(WINDOW + 16'h0204, r_mss(b2_reg), b2_sack_w, b2_ts_w)};
        b3_tcp_p_reg[4] <= {1'b0, add4(b2_tsval[31:16], b2_tsval[15:0], b2_tsecr[31:16],
                                       b2_tsecr[15:0])} + {3'b0, b2_ws0} + {3'b0, b2_ws1};
        // B4: sums
        b4_ip_s_reg <= {1'b0, b3_ip_p_reg[0]} + {1'b0, b3_ip_p_reg[1]};
        b4_tcp_s_reg <= {2'b0, b3_tcp_p_reg[0]} + {2'b0, b3_tcp_p_reg[1]}
                        + {2'b0, b3_tcp_p_reg[2]} + {2'b0, b3_tcp_p_reg[3]}
                        + {2'b0, b3_tcp_p_reg[4]};
        // B5: end-around carry (twice covers every sum of these widths), complement
        b5_ip_csum_reg <= ~fold19(b4_ip_s_reg);
        b5_tcp_csum_reg <= ~fold21(b4_tcp_s_reg);
    end
    if (rst) begin
        b2_valid_reg <= 1'b0;
        b3_valid_reg <= 1'b0;
        b4_valid_reg <= 1'b0;
        b5_valid_reg <= 1'b0;
    end
end

function [15:0] fold19(input [18:0] s);
    reg [16:0] t;
    begin
        t = {1'b0, s[15:0]} + {14'd0, s[18:16]};
        fold19 = t[15:0] + {15'd0, t[16]};
    end
endfunction

function [15:0] fold21(input [20:0] s);
    reg [16:0] t;
    begin
        t = {1'b0, s[15:0]} + {12'd0, s[20:16]};
        fold21 = t[15:0] + {15'd0, t[16]};
    end
endfunction

// ---------------------------------------------------------------------------------------
// Serializer


// beats and last-beat tkeep of each layout (elaboration-time constants)
function integer beats_of(input integer len);
    beats_of = (len + KW - 1) / KW;
endfunction

function [KW-1:0] keep_of(input integer len);
    integer k;
    begin
        for (k = 0; k < KW; k = k + 1) begin
            keep_of[k] = k < len - (beats_of(len) - 1) * KW;
        end
    end
endfunction

localparam integer BEATS_MSS = beats_of(60), BEATS_TS = beats_of(70), BEATS_TSWS = beats_of(74);
localparam [KW-1:0] KEEP_MSS = keep_of(60), KEEP_TS = keep_of(70), KEEP_TSWS = keep_of(74);
localparam [BC_W-1:0] BC_MSS = BEATS_MSS[BC_W-1:0], BC_TS = BEATS_TS[BC_W-1:0],
    BC_TSWS = BEATS_TSWS[BC_W-1:0];

function [BC_W-1:0] frame_beats(input [1:0] layout);
    frame_beats = layout == LY_MSS ? BC_MSS : layout == LY_TS ? BC_TS : BC_TSWS;
endfunction

function [KW-1:0] frame_keep(input [1:0] layout);
    frame_keep = layout == LY_MSS ? KEEP_MSS : layout == LY_TS ? KEEP_TS : KEEP_TSWS;
endfunction

// the frame image (byte k in bits 8k+7:8k; the fixed layout, zero past the frame)
function [IMG_W-1:0] image(input [R_W-1:0] r, input [47:0] smac, input [15:0] ipc,
                           input [15:0] tcpc);
    reg [74*8-1:0] b;
    reg [1:0] ly;
    reg [15:0] len;
    reg [47:0] cmac;
    integer m;
    begin
        ly = r_layout(r);
        cmac = r_mac(r);
        len = ip_len(ly);
        b = {74*8{1'b0}};
        for (m = 0; m < 6; m = m + 1) begin
            b[8*m +: 8] = cmac[40 - 8*m +: 8];
            b[8*(6+m) +: 8] = smac[40 - 8*m +: 8];
        end
        b[12*8 +: 16] = 16'h0008;
        b[14*8 +: 16] = 16'h0045;
        b[16*8 +: 16] = {len[7:0], len[15:8]};
        b[20*8 +: 16] = 16'h0040;
        b[22*8 +: 16] = 16'h0640;
        b[24*8 +: 16] = {ipc[7:0], ipc[15:8]};
        b[26*8 +: 32] = be32(r_vip(r));
        b[30*8 +: 32] = be32(r_cip(r));
        b[34*8 +: 16] = be16(r_vport(r));
        b[36*8 +: 16] = be16(r_cport(r));
        b[38*8 +: 32] = be32(r_seq(r));
        b[42*8 +: 32] = be32(r_ack(r));
        b[46*8 +: 8] = {len[5:2] - 4'd5, 4'd0};
        b[47*8 +: 8] = 8'h12;
        b[48*8 +: 16] = be16(WINDOW);
        b[50*8 +: 16] = be16(tcpc);
        b[54*8 +: 16] = 16'h0402;
        b[56*8 +: 16] = be16(r_mss(r));
        if (ly != LY_MSS) begin
            b[58*8 +: 16] = r_sack(r) ? 16'h0204 : 16'h0101;
            b[60*8 +: 16] = 16'h0a08;
            b[62*8 +: 32] = be32(r_tsval(r));
            b[66*8 +: 32] = be32(r_tsecr(r));
        end
        if (ly == LY_TSWS) begin
            b[70*8 +: 32] = {4'd0, r_w(r), 24'h030301};
        end
        image = {{IMG_W-74*8{1'b0}}, b};
    end
endfunction

function [31:0] be32(input [31:0] x); be32 = {x[7:0], x[15:8], x[23:16], x[31:24]}; endfunction
function [15:0] be16(input [15:0] x); be16 = {x[7:0], x[15:8]}; endfunction

always @(posedge clk) begin
    if (m_take) begin
        beats_reg <= beats_reg - 1'b1;
        beat_reg <= beat_reg + 1'b1;
        if (ser_last) begin
            answered_reg <= answered_reg + 1'b1;
        end
    end
    if (ser_load) begin
        beats_reg <= frame_beats(r_layout(b5_reg));
        beat_reg <= {BC_W{1'b0}};
        last_keep_reg <= frame_keep(r_layout(b5_reg));
        img_reg <= image(b5_reg, cfg_mac, b5_ip_csum_reg, b5_tcp_csum_reg);
    end
    if (rst) begin
        beats_reg <= {BC_W{1'b0}};
        answered_reg <= 32'd0;
    end
end

assign m_axis_tdata = img_reg[beat_reg*DW +: DW];
assign m_axis_tkeep = ser_last ? last_keep_reg : {KW{1'b1}};
assign m_axis_tvalid = beats_reg != {BC_W{1'b0}};
assign m_axis_tlast = ser_last;
assign m_axis_tuser = 1'b0;
assign stat_answered = answered_reg;

endmodule

`resetall
