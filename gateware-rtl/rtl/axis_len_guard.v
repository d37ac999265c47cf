// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Frame length guard: frames longer than MAX_BYTES are cut so that no downstream buffer
 * ever holds more than MAX_BYTES of one frame. The beat that reaches MAX_BYTES becomes the
 * frame's last beat, with tuser set (the parser then reports the frame as a MAC error and
 * it is dropped or punted as malformed); the rest of the frame is discarded at one beat
 * per cycle. stat_cut counts cut frames. Frames up to MAX_BYTES pass unchanged.
 * MAX_BYTES must be a multiple of KEEP_WIDTH. Pure pass-through timing (no register).
 */
module axis_len_guard #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    parameter MAX_BYTES = 2048
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] s_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_tkeep,
    input  wire                  s_axis_tvalid,
    output wire                  s_axis_tready,
    input  wire                  s_axis_tlast,
    input  wire                  s_axis_tuser,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire                  m_axis_tuser,

    output wire [31:0]           stat_cut
);

localparam MAX_BEATS = MAX_BYTES / KEEP_WIDTH;
localparam CW = $clog2(MAX_BEATS + 1);
localparam integer LAST_BEAT_I = MAX_BEATS - 1;
localparam [CW-1:0] LAST_BEAT = LAST_BEAT_I[CW-1:0];

initial begin
    if (MAX_BYTES % KEEP_WIDTH != 0 || MAX_BEATS < 2) begin
        $error("Error: MAX_BYTES must be a multiple of KEEP_WIDTH, at least two beats (instance %m)");
        $finish;
    end
end

reg [CW-1:0] beat_reg = {CW{1'b0}};
reg          discard_reg = 1'b0;
reg [31:0]   cut_reg = 32'd0;

// this beat is the last one allowed
wire at_max = beat_reg == LAST_BEAT;
wire cut = at_max && !s_axis_tlast;

assign m_axis_tdata = s_axis_tdata;
assign m_axis_tkeep = s_axis_tkeep;
assign m_axis_tvalid = s_axis_tvalid && !discard_reg;
assign m_axis_tlast = s_axis_tlast || at_max;
assign m_axis_tuser = s_axis_tuser || cut;
assign s_axis_tready = discard_reg || m_axis_tready;
assign stat_cut = cut_reg;

always @(posedge clk) begin
    if (s_axis_tvalid && s_axis_tready) begin
        if (s_axis_tlast) begin
            beat_reg <= {CW{1'b0}};
            discard_reg <= 1'b0;
        end else if (!discard_reg) begin
            if (at_max) begin
                discard_reg <= 1'b1;
                cut_reg <= cut_reg + 1'b1;
            end else begin
                beat_reg <= beat_reg + 1'b1;
            end
        end
    end

    if (rst) begin
        beat_reg <= {CW{1'b0}};
        discard_reg <= 1'b0;
        cut_reg <= 32'd0;
    end
end

endmodule

`resetall
