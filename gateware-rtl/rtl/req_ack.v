// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Request path decision (docs/head-buf.md, "The request path"): what a client's data
 * segment does to the request head the card is buffering for its connection, and the ACK the
 * card answers it with. The reference is the firmware's `splicer::request::request_step`
 * (firmware/logic/src/splicer/request.rs), the function its `on_request_data` acts on;
 * test-open runs both on random segments.
 *
 * In (valid/ready, one per cycle): the connection (the client's ISN, the head's length, its
 * FIN already in, the client's window shift) and the segment (seq, payload length, FIN),
 * with a tag passed through. Out (in order), enum ReqVerdict:
 *   OUT_OF_ORDER  the FIN is in already, or the segment starts past the head's end;
 *   DUPLICATE     every byte already in the head and no new FIN;
 *   STORE         the bytes from the head's end that fit (skip: payload bytes before them,
 *                 take: how many), the FIN when it came with the last of them;
 *   ABORT         nothing taken into an empty head (a FIN before any request byte);
 * and for every verdict the head's length and FIN after it, the ACK's number (ISN + 1 +
 * length + FIN) and window (the room left, HEAD_BUFFER_BYTES - length, in the client's
 * scale, rounded up; at most 1,024, so never clamped).
 *
 * Pipeline (a global enable: every stage moves when the result register is empty or
 * taken), one 32-bit add or compare a stage:
 *   S1 inputs -> S2 the head's end (ISN + 1 + length) -> S3 end - seq -> S4 out of
 *   order, duplicate, bytes after the skip, room -> S5 take -> S6 length, FIN, verdict ->
 *   S7 length + 1 + FIN, room left -> S8 (result) the ACK number, the window (a shift by the
 *   client's scale: the peer's 0 to 14, not a fixed offset).
 */
module req_ack #
(
    parameter TAG_WIDTH = 16
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  s_valid,
    output wire                  s_ready,
    input  wire [TAG_WIDTH-1:0]  s_tag,
    input  wire [31:0]           s_client_isn,
    input  wire [10:0]           s_req_len,
    input  wire                  s_client_fin,
    input  wire [3:0]            s_shift,
    input  wire [31:0]           s_seq,
    input  wire [15:0]           s_plen,
    input  wire                  s_fin,

    output wire                  m_valid,
    input  wire                  m_ready,
    output wire [TAG_WIDTH-1:0]  m_tag,
    output wire [`SNIC_REQ_VERDICT_W-1:0] m_verdict,
    output wire [15:0]           m_skip,
    output wire [15:0]           m_take,
    output wire [10:0]           m_req_len,
    output wire                  m_client_fin,
    output wire [31:0]           m_ack,
    output wire [15:0]           m_window
);

localparam VW = `SNIC_REQ_VERDICT_W;
localparam [11:0] CAP = `SNIC_HEAD_BUFFER_BYTES;

initial begin
    if (`SNIC_HEAD_BUFFER_BYTES != 1024) begin
        $error("req_ack: the head's length is 11 bits (HEAD_BUFFER_BYTES 1024)");
        $finish;
    end
end

// valid bits of S1..S8
reg  [7:0] v_reg = 8'd0;
wire en = !v_reg[7] || m_ready;
assign s_ready = en;

// the connection and segment, carried down the pipeline
reg [TAG_WIDTH-1:0] tag_reg [1:8];
reg [31:0] isn_reg [1:8];
reg [10:0] len_reg [1:6];
reg        cfin_reg [1:5];
reg [3:0]  shift_reg [1:8];
reg [15:0] plen_reg [1:5];
reg        fin_reg [1:5];
reg [31:0] seq_reg [1:2];
integer k;
initial begin
    for (k = 1; k <= 8; k = k + 1) begin
        tag_reg[k] = {TAG_WIDTH{1'b0}};
        isn_reg[k] = 32'd0;
        shift_reg[k] = 4'd0;
    end
    for (k = 1; k <= 6; k = k + 1) begin
        len_reg[k] = 11'd0;
    end
    for (k = 1; k <= 5; k = k + 1) begin
        cfin_reg[k] = 1'b0;
        plen_reg[k] = 16'd0;
        fin_reg[k] = 1'b0;
    end
    seq_reg[1] = 32'd0;
    seq_reg[2] = 32'd0;
end

reg [31:0] s2_end_reg = 32'd0;
reg [31:0] s3_skip_reg = 32'd0;
reg        s4_ooo_reg = 1'b0, s4_dup_reg = 1'b0;
reg [15:0] s4_avail_reg = 16'd0, s4_skip_reg = 16'd0;
reg [10:0] s4_room_reg = 11'd0;
reg        s5_ooo_reg = 1'b0, s5_dup_reg = 1'b0, s5_all_reg = 1'b0;
reg [15:0] s5_take_reg = 16'd0, s5_skip_reg = 16'd0;
reg [VW-1:0] s6_verdict_reg = {VW{1'b0}};
reg [15:0] s6_take_reg = 16'd0, s6_skip_reg = 16'd0;
reg [10:0] s6_len_reg = 11'd0;
reg        s6_cfin_reg = 1'b0;
reg [VW-1:0] s7_verdict_reg = {VW{1'b0}}, s8_verdict_reg = {VW{1'b0}};
reg [15:0] s7_take_reg = 16'd0, s7_skip_reg = 16'd0, s8_take_reg = 16'd0, s8_skip_reg = 16'd0;
reg [10:0] s7_len_reg = 11'd0, s8_len_reg = 11'd0;
reg        s7_cfin_reg = 1'b0, s8_cfin_reg = 1'b0;
reg [11:0] s7_small_reg = 12'd0;          // length + 1 + FIN
reg [11:0] s7_space_reg = 12'd0;          // room left in the head
reg [31:0] s8_ack_reg = 32'd0;
reg [15:0] s8_win_reg = 16'd0;

wire       s4_store = !s4_ooo_reg && !s4_dup_reg;
wire [15:0] s4_room16 = {5'd0, s4_room_reg};
wire [10:0] s5_len_next = len_reg[5] + s5_take_reg[10:0];
// the window: ceil(space / 2^shift) = (space + 2^shift - 1) >> shift
wire [26:0] s7_round = {15'd0, s7_space_reg} + ((27'd1 << shift_reg[7]) - 27'd1);
wire [26:0] s7_win = s7_round >> shift_reg[7];

always @(posedge clk) begin
    if (en) begin
        v_reg <= {v_reg[6:0], s_valid};
        // S1
        tag_reg[1] <= s_tag;
        isn_reg[1] <= s_client_isn;
        len_reg[1] <= s_req_len;
        cfin_reg[1] <= s_client_fin;
        shift_reg[1] <= s_shift;
        plen_reg[1] <= s_plen;
        fin_reg[1] <= s_fin;
        seq_reg[1] <= s_seq;
        for (k = 2; k <= 8; k = k + 1) begin
            tag_reg[k] <= tag_reg[k-1];
            isn_reg[k] <= isn_reg[k-1];
            shift_reg[k] <= shift_reg[k-1];
        end
        for (k = 2; k <= 6; k = k + 1) begin
            len_reg[k] <= len_reg[k-1];
        end
        for (k = 2; k <= 5; k = k + 1) begin
            cfin_reg[k] <= cfin_reg[k-1];
            plen_reg[k] <= plen_reg[k-1];
            fin_reg[k] <= fin_reg[k-1];
        end
        seq_reg[2] <= seq_reg[1];
        // S2: the head's end
        s2_end_reg <= isn_reg[1] + 32'd1 + {21'd0, len_reg[1]};
        // S3: where the segment starts against it (end - seq: the bytes already in)
        s3_skip_reg <= s2_end_reg - seq_reg[2];
        // S4: out of order (starts after the end: end - seq negative as a 32-bit signed
        // number, the firmware's seq_after), duplicate
        s4_ooo_reg <= cfin_reg[3] || s3_skip_reg[31];
        s4_dup_reg <= s3_skip_reg[31:16] != 16'd0 || s3_skip_reg[15:0] > plen_reg[3]
                      || (s3_skip_reg[15:0] == plen_reg[3] && !fin_reg[3]);
        s4_avail_reg <= plen_reg[3] - s3_skip_reg[15:0];
        s4_skip_reg <= s3_skip_reg[15:0];
        s4_room_reg <= CAP[10:0] - len_reg[3];
        // S5: what the head takes
        s5_ooo_reg <= s4_ooo_reg;
        s5_dup_reg <= s4_dup_reg;
        s5_all_reg <= s4_avail_reg <= s4_room16;
        s5_take_reg <= !s4_store ? 16'd0
                     : (s4_avail_reg <= s4_room16 ? s4_avail_reg : s4_room16);
        s5_skip_reg <= s4_store ? s4_skip_reg : 16'd0;
        // S6: the head after it
        s6_len_reg <= s5_len_next;
        s6_cfin_reg <= cfin_reg[5] || (!s5_ooo_reg && !s5_dup_reg && fin_reg[5] && s5_all_reg);
        s6_verdict_reg <= s5_ooo_reg ? `SNIC_REQ_VERDICT_OUT_OF_ORDER
                        : s5_dup_reg ? `SNIC_REQ_VERDICT_DUPLICATE
                        : (s5_take_reg == 16'd0 && len_reg[5] == 11'd0) ? `SNIC_REQ_VERDICT_ABORT
                        : `SNIC_REQ_VERDICT_STORE;
        s6_take_reg <= s5_take_reg;
        s6_skip_reg <= s5_skip_reg;
        // S7: the ACK's small part, the room left
        s7_small_reg <= {1'b0, s6_len_reg} + 12'd1 + {11'd0, s6_cfin_reg};
        s7_space_reg <= {1'b0, CAP[10:0]} - {1'b0, s6_len_reg};
        s7_verdict_reg <= s6_verdict_reg;
        s7_take_reg <= s6_take_reg;
        s7_skip_reg <= s6_skip_reg;
        s7_len_reg <= s6_len_reg;
        s7_cfin_reg <= s6_cfin_reg;
        // S8: the ACK's number and window
        s8_ack_reg <= isn_reg[7] + {20'd0, s7_small_reg};
        s8_win_reg <= s7_win[15:0];
        s8_verdict_reg <= s7_verdict_reg;
        s8_take_reg <= s7_take_reg;
        s8_skip_reg <= s7_skip_reg;
        s8_len_reg <= s7_len_reg;
        s8_cfin_reg <= s7_cfin_reg;
    end
    if (rst) begin
        v_reg <= 8'd0;
    end
end

assign m_valid = v_reg[7];
assign m_tag = tag_reg[8];
assign m_verdict = s8_verdict_reg;
assign m_skip = s8_skip_reg;
assign m_take = s8_take_reg;
assign m_req_len = s8_len_reg;
assign m_client_fin = s8_cfin_reg;
assign m_ack = s8_ack_reg;
assign m_window = s8_win_reg;

// verilator lint_off UNUSEDSIGNAL
wire unused = ^isn_reg[8] ^ ^shift_reg[8] ^ ^s7_win[26:16] ^ ^len_reg[6];
// verilator lint_on UNUSEDSIGNAL

endmodule

`resetall
