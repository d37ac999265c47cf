// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * SYN-cookie unit: makes the cookie ISN of a SYN-ACK and checks the cookie a client's ACK
 * acknowledges (docs/cookie.md; reference model firmware/logic/src/cookie.rs).
 *
 * Cookie: h = HalfSipHash-2-4 (32-bit output) of the four little-endian words
 *   {client IPv4, VIP IPv4, client port << 16 | VIP port, client ISN}
 * under key slot s; ISN = {h[31:3], mss_class ^ h[2:1], s}.
 *   MAKE  (s_req_op = CookieOp MAKE): s = cfg_cur_epoch, mss_class = s_req_mss;
 *         m_rsp_isn = the cookie, m_rsp_status = OK, m_rsp_mss = s_req_mss.
 *   CHECK (CHECK): s_req_client_isn = the ACK's seq - 1, s_req_cookie = its ack - 1;
 *         s = s_req_cookie[0]. m_rsp_status (CookieStatus) = STALE_EPOCH when s is not the
 *         current slot and cfg_prev_valid is low, else BAD_HASH when h[31:3] differs from
 *         the cookie's bits 31:3, else OK; m_rsp_mss = s_req_cookie[2:1] ^ h[2:1] when OK,
 *         0 on a refusal; m_rsp_isn = s_req_cookie.
 *   s_req_cookie is ignored by MAKE, s_req_mss by CHECK.
 *
 * Iterative: one SipRound per cycle on registered state (14 rounds for a 16-byte message:
 * 4 blocks x 2, the length block x 2, 4 final rounds). The edge that accepts a request
 * loads the state, the next 14 edges run the rounds, the 15th writes the response
 * register: a request accepted at cycle t has its response valid at cycle
 * t + `SNIC_COOKIE_LATENCY (16). The next request is accepted at the edge that writes the
 * response, so back-to-back requests take `SNIC_COOKIE_INTERVAL (15) cycles each; when the
 * previous response is still held at that point (m_rsp_ready low), the next request is
 * accepted one cycle after the response register is freed.
 * Every output is a register (s_req_ready too: it is low during and just after rst).
 * No variable shifts: rotations are fixed wiring.
 *
 * Keys: key_wr_en writes key_wr_data (k1 in bits 63:32, k0 in bits 31:0) into slot
 * key_wr_slot; keys cannot be read back. The key of the request's slot, cfg_cur_epoch and
 * cfg_prev_valid are sampled at the edge that accepts a request; a key write at that same
 * edge or later (while the request is in flight) is seen by the next request only.
 * Rotation (firmware): write the slot that is not current, then flip cfg_cur_epoch and set
 * cfg_prev_valid. s_req_tag is returned with the response.
 */
module syn_cookie #
(
    parameter TAG_WIDTH = 8
)
(
    input  wire                          clk,
    input  wire                          rst,

    // Request
    input  wire                          s_req_valid,
    output wire                          s_req_ready,
    input  wire [`SNIC_COOKIE_OP_W-1:0]  s_req_op,
    input  wire [31:0]                   s_req_client_ip,
    input  wire [31:0]                   s_req_vip,
    input  wire [15:0]                   s_req_client_port,
    input  wire [15:0]                   s_req_vip_port,
    input  wire [31:0]                   s_req_client_isn,
    input  wire [31:0]                   s_req_cookie,
    input  wire [`SNIC_COOKIE_MSS_CLASS_BITS-1:0] s_req_mss,
    input  wire [TAG_WIDTH-1:0]          s_req_tag,

    // Response
    output wire                          m_rsp_valid,
    input  wire                          m_rsp_ready,
    output wire [`SNIC_COOKIE_OP_W-1:0]  m_rsp_op,
    output wire [31:0]                   m_rsp_isn,
    output wire [`SNIC_COOKIE_STATUS_W-1:0] m_rsp_status,
    output wire [`SNIC_COOKIE_MSS_CLASS_BITS-1:0] m_rsp_mss,
    output wire [TAG_WIDTH-1:0]          m_rsp_tag,

    // Keys and epoch
    input  wire                          key_wr_en,
    input  wire                          key_wr_slot,
    input  wire [`SNIC_COOKIE_KEY_BITS-1:0] key_wr_data,
    input  wire                          cfg_cur_epoch,
    input  wire                          cfg_prev_valid
);

localparam MSS_W = `SNIC_COOKIE_MSS_CLASS_BITS;
localparam ST_W = `SNIC_COOKIE_STATUS_W;
localparam OP_W = `SNIC_COOKIE_OP_W;
localparam HL = `SNIC_COOKIE_HASH_LSB;
localparam [OP_W-1:0] OP_CHECK = `SNIC_COOKIE_OP_CHECK;
localparam [ST_W-1:0] S_OK = `SNIC_COOKIE_STATUS_OK, S_BAD = `SNIC_COOKIE_STATUS_BAD_HASH,
    S_STALE = `SNIC_COOKIE_STATUS_STALE_EPOCH;
// Rounds: 2 per message word (4 words), 2 for the length block, 4 final.
localparam [3:0] LAST_ROUND = 4'd13;
// The length block: message length in bytes (16) in bits 31:24.
localparam [31:0] LEN_BLOCK = {8'd16, 24'd0};

initial begin
    if (`SNIC_COOKIE_KEY_SLOTS != 2 || `SNIC_COOKIE_KEY_BITS != 64 || HL != MSS_W + 1) begin
        $error("Error: syn_cookie is built for 2 slots of 64-bit keys and ISN {h, mss, slot}");
        $finish;
    end
    if (`SNIC_COOKIE_LATENCY != 16 || `SNIC_COOKIE_INTERVAL != 15) begin
        $error("Error: COOKIE_LATENCY / COOKIE_INTERVAL (records.toml) are not this unit's (16 / 15)");
        $finish;
    end
end

function [31:0] rotl5(input [31:0] x);  rotl5  = {x[26:0], x[31:27]}; endfunction
function [31:0] rotl7(input [31:0] x);  rotl7  = {x[24:0], x[31:25]}; endfunction
function [31:0] rotl8(input [31:0] x);  rotl8  = {x[23:0], x[31:24]}; endfunction
function [31:0] rotl13(input [31:0] x); rotl13 = {x[18:0], x[31:19]}; endfunction
function [31:0] rotl16(input [31:0] x); rotl16 = {x[15:0], x[31:16]}; endfunction

// One SipRound of HalfSipHash, {v3, v2, v1, v0} in and out.
function [127:0] sip_round(input [127:0] v);
    reg [31:0] v0, v1, v2, v3;
    begin
        v0 = v[31:0];
        v1 = v[63:32];
        v2 = v[95:64];
        v3 = v[127:96];
        v0 = v0 + v1;
        v1 = rotl5(v1) ^ v0;
        v0 = rotl16(v0);
        v2 = v2 + v3;
        v3 = rotl8(v3) ^ v2;
        v0 = v0 + v3;
        v3 = rotl7(v3) ^ v0;
        v2 = v2 + v1;
        v1 = rotl13(v1) ^ v2;
        v2 = rotl16(v2);
        sip_round = {v3, v2, v1, v0};
    end
endfunction

// Key slots.
reg [63:0] key0 = 64'd0, key1 = 64'd0;

always @(posedge clk) begin
    if (key_wr_en) begin
        if (key_wr_slot) key1 <= key_wr_data;
        else key0 <= key_wr_data;
    end
end

// Engine state.
reg         busy = 1'b0;       // rounds running
reg         fin = 1'b0;        // rounds done, response pending
reg [3:0]   rnd = 4'd0;        // round now running (0..13)
reg [127:0] v;                 // {v3, v2, v1, v0}
reg [31:0]  q0, q1, q2, q3;    // message words still to mix in (shifted per block)
reg [OP_W-1:0]  op_r;
reg [31:0]      cookie_r;
reg [MSS_W-1:0] mss_r;
reg [TAG_WIDTH-1:0] tag_r;
reg             slot_r, stale_r;

// Response register.
reg                 out_valid = 1'b0;
reg [OP_W-1:0]      out_op;
reg [31:0]          out_isn;
reg [ST_W-1:0]      out_status;
reg [MSS_W-1:0]     out_mss;
reg [TAG_WIDTH-1:0] out_tag;
reg                 in_ready = 1'b0;

wire last_round = busy && rnd == LAST_ROUND;
wire fin_go = fin && (!out_valid || m_rsp_ready);
wire accept = s_req_valid && in_ready;
// Next state of the control flags: a request is taken when the engine is free and no
// result waits for a full response register.
wire busy_n = accept || (busy && !last_round);
wire fin_n = last_round || (fin && !fin_go);
wire out_valid_n = fin_go || (out_valid && !m_rsp_ready);
assign s_req_ready = in_ready;

// Request decode: the key slot and the first message word.
wire        req_check = s_req_op == OP_CHECK;
wire        req_slot = req_check ? s_req_cookie[0] : cfg_cur_epoch;
wire [63:0] req_key = req_slot ? key1 : key0;
wire [31:0] req_m2 = {s_req_client_port, s_req_vip_port};

// Mixing after round rnd: v0 ^= word (end of a message block or of the length block),
// v3 ^= next word (start of the next block), v2 ^= 0xff (before the final rounds).
wire        blk_end = rnd[0] && rnd <= 4'd9;
wire        blk_next = rnd[0] && rnd <= 4'd7;
wire        fin_mark = rnd == 4'd9;
wire [127:0] rv = sip_round(v);
wire [127:0] mix = {blk_next ? q1 : 32'd0, fin_mark ? 32'hff : 32'd0, 32'd0,
                    blk_end ? q0 : 32'd0};

// Finalisation: h = v1 ^ v3 (bit 0 is not part of a cookie).
// verilator lint_off UNUSEDSIGNAL
wire [31:0]     h = v[63:32] ^ v[127:96];
// verilator lint_on UNUSEDSIGNAL
wire [MSS_W-1:0] h_mss = h[HL-1:1];
wire            hash_eq = h[31:HL] == cookie_r[31:HL];

always @(posedge clk) begin
    busy <= busy_n;
    fin <= fin_n;
    out_valid <= out_valid_n;
    in_ready <= !busy_n && !(fin_n && out_valid_n);
    if (busy) begin
        v <= rv ^ mix;
        rnd <= rnd + 4'd1;
        if (blk_next) begin
            q0 <= q1;
            q1 <= q2;
            q2 <= q3;
            q3 <= LEN_BLOCK;
        end
    end
    if (fin_go) begin
        out_op <= op_r;
        out_tag <= tag_r;
        if (op_r == OP_CHECK) begin
            out_isn <= cookie_r;
            out_mss <= !stale_r && hash_eq ? cookie_r[HL-1:1] ^ h_mss : {MSS_W{1'b0}};
            out_status <= stale_r ? S_STALE : (hash_eq ? S_OK : S_BAD);
        end else begin
            out_isn <= {h[31:HL], mss_r ^ h_mss, slot_r};
            out_mss <= mss_r;
            out_status <= S_OK;
        end
    end
    if (accept) begin
        rnd <= 4'd0;
        // v0 = k0, v1 = k1, v2 = k0 ^ "lyge", v3 = k1 ^ "tedb" ^ m0.
        v <= {req_key[63:32] ^ 32'h74656462 ^ s_req_client_ip,
              req_key[31:0] ^ 32'h6c796765, req_key[63:32], req_key[31:0]};
        q0 <= s_req_client_ip;
        q1 <= s_req_vip;
        q2 <= req_m2;
        q3 <= s_req_client_isn;
        op_r <= s_req_op;
        cookie_r <= s_req_cookie;
        mss_r <= s_req_mss;
        tag_r <= s_req_tag;
        slot_r <= req_slot;
        stale_r <= req_check && req_slot != cfg_cur_epoch && !cfg_prev_valid;
    end
    if (rst) begin
        busy <= 1'b0;
        fin <= 1'b0;
        out_valid <= 1'b0;
        in_ready <= 1'b0;
    end
end

assign m_rsp_valid = out_valid;
assign m_rsp_op = out_op;
assign m_rsp_isn = out_isn;
assign m_rsp_status = out_status;
assign m_rsp_mss = out_mss;
assign m_rsp_tag = out_tag;

endmodule

`resetall
