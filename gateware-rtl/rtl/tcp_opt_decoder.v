// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * TCP option decoder (docs/options.md): walks the option area of one TCP segment and
 * returns the options the connection engine needs as one TcpOpts record (records.toml),
 * so no later block walks options again.
 *
 * Input: the option window the parser already captures (eth_tcp_parser m_hdr_tcp_opt_len
 * and m_hdr_tcp_options): s_opt_len = option area length in bytes (data_offset*4 - 20,
 * 0..40; a larger value is taken as 40), s_opt = the 40 option bytes, option byte k in
 * bits [8k+7:8k]. Bytes at and past s_opt_len are never looked at (they need not be zero).
 * The interface does not depend on the stream width: the parser has the header whole at
 * any DATA_WIDTH. s_tag is returned with the result (e.g. a frame sequence number).
 *
 * The walk (Linux tcp_parse_options): from byte 0, while bytes remain:
 *   kind 0 (EOL)  ends the walk (bytes after it are ignored, not malformed);
 *   kind 1 (NOP)  skips one byte;
 *   other kinds   need a length byte: the kind on the last byte of the area, a length of
 *                 0 or 1, or a length running past the area end the walk, malformed;
 *                 otherwise the option is skipped by its length after it was recorded:
 *     MSS (2, len 4), WS (3, len 3), SACK_PERM (4, len 2), TS (8, len 10),
 *     SACK (5, len 10/18/26/34): present, value(s), offset (20 + position) recorded;
 *     the same kinds with another length: skipped, malformed (Linux ignores them);
 *     any other kind: skipped, `unknown`.
 * A later option of a kind overrides an earlier one (Linux's last-wins). Values are raw;
 * SYN-only use (MSS/WS/SACK_PERM), WS > 14 clamping and MSS 0 are the consumer's rules.
 *
 * Structure (no chain over the 40 bytes): an input register, a decode stage, then
 * `SNIC_TCP_OPT_STAGES (10) walk stages of 4 byte positions each, one segment per cycle:
 *   decode    per position p (p = 0..39, in the stage before p's walk stage): the kind
 *             class and, from p + length (one add, constant p), whether the next option
 *             starts in the next 4 positions (one-hot) or further (binary position).
 *   walk k    positions 4k..4k+3: the start bits of the 4 positions from the one-hot
 *             entry vector and the registered class bits (a 10-input function), the next
 *             stage's one-hot entry vector and the binary next start, done on EOL/error;
 *   capture   one stage later: the values of the options that started in the previous
 *             stage's positions, a one-hot 4:1 byte mux per field (fixed byte offsets).
 * Latency: a segment accepted at cycle t has its result valid at t + `SNIC_TCP_OPT_LATENCY
 * (13: input register, decode, 10 walks, the last capture into the output register) when
 * the result port is free, whatever the options are; throughput one segment per cycle.
 *
 * Flow control: the pipeline never stalls; results land in a 16-entry FIFO (LUT RAM)
 * ahead of the registered output, bypassed when it is empty and the output is free.
 * s_ready is a register: high while fewer than 16 segments are accepted and not yet taken,
 * so with m_ready held high it never drops. Every output is a register.
 */
module tcp_opt_decoder #
(
    parameter TAG_WIDTH = 8
)
(
    input  wire                         clk,
    input  wire                         rst,

    // Option window of one segment
    input  wire                         s_valid,
    output wire                         s_ready,
    input  wire [5:0]                   s_opt_len,
    input  wire [`SNIC_TCP_OPT_BYTES*8-1:0] s_opt,
    input  wire [TAG_WIDTH-1:0]         s_tag,

    // Decoded options (TcpOpts record)
    output wire                         m_valid,
    input  wire                         m_ready,
    output wire [`SNIC_TCP_OPTS_W-1:0]  m_opts,
    output wire [TAG_WIDTH-1:0]         m_tag
);

localparam NB = `SNIC_TCP_OPT_BYTES;       // 40 option bytes
localparam NS = `SNIC_TCP_OPT_STAGES;      // 10 walk stages
localparam RB = `SNIC_TCP_OPTS_W;          // result record bits
localparam XB = NB + 16;                   // window with zero bytes past the end
localparam FD = 16;                        // result FIFO depth
// Per-position decode bits.
localparam D_NOP = 0, D_IS2 = 1, D_IS3 = 2, D_STOP = 3, D_ERR = 4, D_MSS = 5, D_WS = 6,
    D_SACKP = 7, D_TS = 8, D_SACK = 9, D_UNK = 10, D_FAR = 11, D_LAND = 12, D_END = 16;
localparam DW = 22;                        // land: 4 bits at 12, end: 6 bits at 16
localparam DW4 = 4 * DW;                   // decode bits of a stage
localparam OW = XB * 8;                    // window bits

initial begin
    if (NB != 40 || NS * 4 != NB) begin
        $error("Error: tcp_opt_decoder walks 40 bytes in stages of 4 (records.toml)");
        $finish;
    end
    if (`SNIC_TCP_OPT_LATENCY != NS + 3) begin
        $error("Error: TCP_OPT_LATENCY (records.toml) is not this decoder's (stages + 3)");
        $finish;
    end
end

// ---------------------------------------------------------------------------------------
// A stage's first position (4 * stage) as a 6-bit constant.
// verilator lint_off UNUSEDSIGNAL
function [5:0] first_pos(input integer stage);
    integer x;
    begin
        x = stage * 4;
        first_pos = x[5:0];
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

// Decode of position p (constant) of an area of `len` bytes: kind = byte p, lb = byte p+1.
function [DW-1:0] decode(input [5:0] p, input [5:0] len, input [7:0] kind, input [7:0] lb);
    reg [8:0] sum;        // p + lb
    reg [6:0] nxt;        // the next stage's first position
    reg       in_area, last, known, good;
    begin
        decode = {DW{1'b0}};
        known = 1'b0;
        good = 1'b0;
        sum = {3'd0, p} + {1'b0, lb};
        nxt = {1'b0, p[5:2], 2'b00} + 7'd4;
        in_area = p < len;
        last = ({1'b0, p} + 7'd1) == {1'b0, len};
        if (!in_area || kind == 8'd0) begin
            decode[D_STOP] = 1'b1;                       // end of the area or EOL
        end else if (kind == 8'd1) begin
            decode[D_NOP] = 1'b1;
            decode[D_FAR] = p[1:0] == 2'd3;
            decode[D_LAND] = p[1:0] == 2'd3;             // lands on nxt + 0
            decode[D_END +: 6] = p + 6'd1;
        end else if (last || lb < 8'd2 || sum > {3'd0, len}) begin
            decode[D_STOP] = 1'b1;                       // no length / silly / past the end
            decode[D_ERR] = 1'b1;
        end else begin
            decode[D_IS2] = lb == 8'd2;
            decode[D_IS3] = lb == 8'd3;
            decode[D_FAR] = sum[6:0] >= nxt;
            decode[D_LAND +: 4] = {sum[6:0] == nxt + 7'd3, sum[6:0] == nxt + 7'd2,
                                   sum[6:0] == nxt + 7'd1, sum[6:0] == nxt};
            decode[D_END +: 6] = sum[5:0];
            known = (kind == 8'd2) || (kind == 8'd3) || (kind == 8'd4) || (kind == 8'd5) ||
                    (kind == 8'd8);
            good = ((kind == 8'd2) && lb == 8'd4) || ((kind == 8'd3) && lb == 8'd3) ||
                   ((kind == 8'd4) && lb == 8'd2) || ((kind == 8'd8) && lb == 8'd10) ||
                   ((kind == 8'd5) && (lb == 8'd10 || lb == 8'd18 || lb == 8'd26 ||
                                       lb == 8'd34));
            decode[D_MSS] = (kind == 8'd2) && good;
            decode[D_WS] = (kind == 8'd3) && good;
            decode[D_SACKP] = (kind == 8'd4) && good;
            decode[D_TS] = (kind == 8'd8) && good;
            decode[D_SACK] = (kind == 8'd5) && good;
            decode[D_UNK] = !known;
            decode[D_ERR] = known && !good;
        end
    end
endfunction

// Decode of the 4 positions p0..p0+3 from the window.
function [4*DW-1:0] decode4(input [5:0] p0, input [5:0] len, input [XB*8-1:0] w);
    integer i;
    begin
        for (i = 0; i < 4; i = i + 1) begin
            decode4[i*DW +: DW] = decode(p0 + i[5:0], len, w[({26'd0, p0} + i)*8 +: 8],
                                         w[({26'd0, p0} + i + 1)*8 +: 8]);
        end
    end
endfunction

// Walk of positions p0..p0+3: entry one-hot `st` (start at p0+j), binary next start `pos`,
// `done`; returns {start bits (4), next entry one-hot (4), next pos (6), done}.
// verilator lint_off UNUSEDSIGNAL
function [14:0] walk4(input [5:0] p0, input [3:0] st, input [5:0] pos, input done,
                      input [4*DW-1:0] d);
    reg [3:0] s;
    reg [3:0] st_n;
    reg [5:0] pos_n;
    reg       done_n;
    integer   i;
    begin
        s[0] = st[0];
        s[1] = st[1] || (s[0] && d[0*DW + D_NOP]);
        s[2] = st[2] || (s[0] && d[0*DW + D_IS2]) || (s[1] && d[1*DW + D_NOP]);
        s[3] = st[3] || (s[0] && d[0*DW + D_IS3]) || (s[1] && d[1*DW + D_IS2]) ||
               (s[2] && d[2*DW + D_NOP]);
        done_n = done;
        pos_n = pos;
        st_n = (!done && pos == p0 + 6'd4) ? 4'b0001 :
               (!done && pos == p0 + 6'd5) ? 4'b0010 :
               (!done && pos == p0 + 6'd6) ? 4'b0100 :
               (!done && pos == p0 + 6'd7) ? 4'b1000 : 4'b0000;
        for (i = 0; i < 4; i = i + 1) begin
            if (s[i] && d[i*DW + D_STOP]) begin
                done_n = 1'b1;
            end
            if (s[i] && d[i*DW + D_FAR]) begin
                pos_n = d[i*DW + D_END +: 6];
                st_n = d[i*DW + D_LAND +: 4];
            end
        end
        walk4 = {s, st_n, pos_n, done_n};
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

// Capture of the options that started at positions p0..p0+3 (start bits s, their decode
// bits d) into the result r; w = the window.
// verilator lint_off UNUSEDSIGNAL
function [RB-1:0] capture4(input [5:0] p0, input [3:0] s, input [4*DW-1:0] d,
                           input [XB*8-1:0] w, input [RB-1:0] r);
    reg [RB-1:0] c;
    reg [5:0]    off;
    reg [7:0]    b1, b2, b3, b4, b5, b6, b7, b8, b9;
    integer      i;
    begin
        c = r;
        for (i = 0; i < 4; i = i + 1) begin
            off = 6'd20 + p0 + i[5:0];
            b1 = w[({26'd0, p0} + i + 1)*8 +: 8];
            b2 = w[({26'd0, p0} + i + 2)*8 +: 8];
            b3 = w[({26'd0, p0} + i + 3)*8 +: 8];
            b4 = w[({26'd0, p0} + i + 4)*8 +: 8];
            b5 = w[({26'd0, p0} + i + 5)*8 +: 8];
            b6 = w[({26'd0, p0} + i + 6)*8 +: 8];
            b7 = w[({26'd0, p0} + i + 7)*8 +: 8];
            b8 = w[({26'd0, p0} + i + 8)*8 +: 8];
            b9 = w[({26'd0, p0} + i + 9)*8 +: 8];
            if (s[i] && d[i*DW + D_MSS]) begin
                c[`SNIC_TCP_OPTS_MSS_LSB] = 1'b1;
                c[`SNIC_TCP_OPTS_MSS_VALUE_LSB +: 16] = {b2, b3};
                c[`SNIC_TCP_OPTS_MSS_OFFSET_LSB +: 6] = off;
            end
            if (s[i] && d[i*DW + D_WS]) begin
                c[`SNIC_TCP_OPTS_WS_LSB] = 1'b1;
                c[`SNIC_TCP_OPTS_WS_SHIFT_LSB +: 8] = b2;
                c[`SNIC_TCP_OPTS_WS_OFFSET_LSB +: 6] = off;
            end
            if (s[i] && d[i*DW + D_SACKP]) begin
                c[`SNIC_TCP_OPTS_SACK_PERM_LSB] = 1'b1;
                c[`SNIC_TCP_OPTS_SACK_PERM_OFFSET_LSB +: 6] = off;
            end
            if (s[i] && d[i*DW + D_TS]) begin
                c[`SNIC_TCP_OPTS_TS_LSB] = 1'b1;
                c[`SNIC_TCP_OPTS_TSVAL_LSB +: 32] = {b2, b3, b4, b5};
                c[`SNIC_TCP_OPTS_TSECR_LSB +: 32] = {b6, b7, b8, b9};
                c[`SNIC_TCP_OPTS_TS_OFFSET_LSB +: 6] = off;
            end
            if (s[i] && d[i*DW + D_SACK]) begin
                c[`SNIC_TCP_OPTS_SACK_LSB] = 1'b1;
                c[`SNIC_TCP_OPTS_SACK_LEN_LSB +: 6] = b1[5:0];
                c[`SNIC_TCP_OPTS_SACK_OFFSET_LSB +: 6] = off;
            end
            if (s[i] && d[i*DW + D_UNK]) begin
                c[`SNIC_TCP_OPTS_UNKNOWN_LSB] = 1'b1;
            end
            if (s[i] && d[i*DW + D_ERR]) begin
                c[`SNIC_TCP_OPTS_MALFORMED_LSB] = 1'b1;
            end
        end
        capture4 = c;
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

// ---------------------------------------------------------------------------------------
// Input register.
reg                 in_valid_reg = 1'b0;
reg [5:0]           in_len_reg;
reg [NB*8-1:0]      in_opt_reg;
reg [TAG_WIDTH-1:0] in_tag_reg;
reg                 s_ready_reg = 1'b0;

// Stage registers 0..NS, stage k in slice k: stage k walks positions 4k..4k+3 (k < NS)
// and captures the options that started at 4(k-1)..4k-1 (k > 0). Window bytes below 4(k-1) and result
// fields no option can have reached yet are constant or unread: synthesis drops them.
// verilator lint_off UNUSEDSIGNAL
reg [NS:0]              w_valid_reg = {(NS+1){1'b0}};
reg [(NS+1)*6-1:0]      w_len_reg;
reg [(NS+1)*OW-1:0]     w_opt_reg;
reg [(NS+1)*TAG_WIDTH-1:0] w_tag_reg;
reg [(NS+1)*DW4-1:0]    w_dec_reg;       // decode of this stage's positions
reg [(NS+1)*DW4-1:0]    w_pdec_reg;      // decode of the previous stage's positions
reg [(NS+1)*4-1:0]      w_ps_reg;        // start bits of the previous stage's positions
reg [(NS+1)*4-1:0]      w_st_reg;        // entry one-hot of this stage's positions
reg [(NS+1)*6-1:0]      w_pos_reg;       // next option start (binary)
reg [NS:0]              w_done_reg;
reg [(NS+1)*RB-1:0]     w_res_reg;
// verilator lint_on UNUSEDSIGNAL

// Result FIFO ahead of the output register; occupancy counts segments accepted and not
// yet taken (pipeline, FIFO and output register), at most FD.
(* ram_style = "distributed" *)
reg [RB+TAG_WIDTH-1:0] fifo_mem [0:FD-1];
reg [4:0]           wr_ptr_reg = 5'd0, rd_ptr_reg = 5'd0;
reg [4:0]           occ_reg = 5'd0;
reg                 out_valid_reg = 1'b0;
reg [RB-1:0]        out_opts_reg;
reg [TAG_WIDTH-1:0] out_tag_reg;

wire s_fire = s_valid && s_ready_reg;
wire m_fire = out_valid_reg && m_ready;
wire fifo_empty = wr_ptr_reg == rd_ptr_reg;
wire out_free = !out_valid_reg || m_ready;

// Stage k's slice of the stage registers.
`define TOD_OPT(k)  w_opt_reg[(k)*OW +: OW]
`define TOD_DEC(k)  w_dec_reg[(k)*DW4 +: DW4]
`define TOD_PDEC(k) w_pdec_reg[(k)*DW4 +: DW4]
`define TOD_RES(k)  w_res_reg[(k)*RB +: RB]
`define TOD_TAG(k)  w_tag_reg[(k)*TAG_WIDTH +: TAG_WIDTH]
`define TOD_LEN(k)  w_len_reg[(k)*6 +: 6]
`define TOD_POS(k)  w_pos_reg[(k)*6 +: 6]
`define TOD_PS(k)   w_ps_reg[(k)*4 +: 4]
`define TOD_ST(k)   w_st_reg[(k)*4 +: 4]

// The last stage's result (its capture of positions 36..39).
wire [RB-1:0] fin_res = capture4(6'd36, `TOD_PS(NS), `TOD_PDEC(NS), `TOD_OPT(NS),
                                 `TOD_RES(NS));
wire          fin_valid = w_valid_reg[NS];
wire [4:0]    occ_next = occ_reg + {4'd0, s_fire} - {4'd0, m_fire};

integer k;

always @(posedge clk) begin
    // input register (data loaded with every beat; only valid ones are read)
    in_valid_reg <= s_fire;
    in_len_reg <= (s_opt_len > 6'd40) ? 6'd40 : s_opt_len;
    in_opt_reg <= s_opt;
    in_tag_reg <= s_tag;

    // stage 0: decode of positions 0..3, entry at position 0
    w_valid_reg[0] <= in_valid_reg;
    `TOD_LEN(0) <= in_len_reg;
    `TOD_OPT(0) <= {{(XB-NB)*8{1'b0}}, in_opt_reg};
    `TOD_TAG(0) <= in_tag_reg;
    `TOD_DEC(0) <= decode4(6'd0, in_len_reg, {{(XB-NB)*8{1'b0}}, in_opt_reg});
    `TOD_PDEC(0) <= {DW4{1'b0}};
    `TOD_PS(0) <= 4'd0;
    `TOD_ST(0) <= 4'b0001;
    `TOD_POS(0) <= 6'd0;
    w_done_reg[0] <= 1'b0;
    `TOD_RES(0) <= {RB{1'b0}};

    // stages 1..NS: walk of stage k-1's positions, decode of stage k's, capture of the
    // options that started in stage k-2's
    for (k = 1; k <= NS; k = k + 1) begin
        w_valid_reg[k] <= w_valid_reg[k-1];
        `TOD_LEN(k) <= `TOD_LEN(k-1);
        `TOD_OPT(k) <= `TOD_OPT(k-1);
        `TOD_TAG(k) <= `TOD_TAG(k-1);
        `TOD_DEC(k) <= (k < NS) ? decode4(first_pos(k), `TOD_LEN(k-1), `TOD_OPT(k-1)) :
                                  {DW4{1'b0}};
        `TOD_PDEC(k) <= `TOD_DEC(k-1);
        {`TOD_PS(k), `TOD_ST(k), `TOD_POS(k), w_done_reg[k]} <=
            walk4(first_pos(k - 1), `TOD_ST(k-1), `TOD_POS(k-1), w_done_reg[k-1],
                  `TOD_DEC(k-1));
        `TOD_RES(k) <= (k > 1) ? capture4(first_pos((k > 1) ? k - 2 : 0), `TOD_PS(k-1),
                                          `TOD_PDEC(k-1), `TOD_OPT(k-1), `TOD_RES(k-1)) :
                                 `TOD_RES(k-1);
    end

    // result FIFO and output register
    if (out_free) begin
        if (!fifo_empty) begin
            {out_tag_reg, out_opts_reg} <= fifo_mem[rd_ptr_reg[3:0]];
            rd_ptr_reg <= rd_ptr_reg + 5'd1;
            out_valid_reg <= 1'b1;
        end else begin
            {out_tag_reg, out_opts_reg} <= {`TOD_TAG(NS), fin_res};
            out_valid_reg <= fin_valid;
        end
    end
    if (fin_valid && !(out_free && fifo_empty)) begin
        fifo_mem[wr_ptr_reg[3:0]] <= {`TOD_TAG(NS), fin_res};
        wr_ptr_reg <= wr_ptr_reg + 5'd1;
    end
    occ_reg <= occ_next;
    s_ready_reg <= occ_next < FD;

    if (rst) begin
        in_valid_reg <= 1'b0;
        w_valid_reg <= {(NS+1){1'b0}};
        wr_ptr_reg <= 5'd0;
        rd_ptr_reg <= 5'd0;
        occ_reg <= 5'd0;
        out_valid_reg <= 1'b0;
        s_ready_reg <= 1'b0;
    end
end

assign s_ready = s_ready_reg;
assign m_valid = out_valid_reg;
assign m_opts = out_opts_reg;
assign m_tag = out_tag_reg;

`undef TOD_OPT
`undef TOD_DEC
`undef TOD_PDEC
`undef TOD_RES
`undef TOD_TAG
`undef TOD_LEN
`undef TOD_POS
`undef TOD_PS
`undef TOD_ST

endmodule

`resetall
