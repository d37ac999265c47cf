// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Two-input AXI-Stream frame arbiter: whole frames, round robin, no idle cycle between
 * frames. When no frame is in progress the grant goes to the input after the one served
 * last if it has a beat, else to the other; the grant then holds to that frame's tlast.
 * Output valid and input ready follow the granted input combinationally (ready depends
 * on valid, as AXI-Stream allows a sink to do), so back-to-back frames from either input
 * leave at one beat per cycle.
 * tuser is USER_WIDTH bits of sideband carried with every beat (e.g. metadata).
 */
module axis_frame_arb #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    parameter USER_WIDTH = 1
)
(
    input  wire                  clk,
    input  wire                  rst,

    input  wire [DATA_WIDTH-1:0] s0_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s0_axis_tkeep,
    input  wire                  s0_axis_tvalid,
    output wire                  s0_axis_tready,
    input  wire                  s0_axis_tlast,
    input  wire [USER_WIDTH-1:0] s0_axis_tuser,

    input  wire [DATA_WIDTH-1:0] s1_axis_tdata,
    input  wire [KEEP_WIDTH-1:0] s1_axis_tkeep,
    input  wire                  s1_axis_tvalid,
    output wire                  s1_axis_tready,
    input  wire                  s1_axis_tlast,
    input  wire [USER_WIDTH-1:0] s1_axis_tuser,

    output wire [DATA_WIDTH-1:0] m_axis_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_tkeep,
    output wire                  m_axis_tvalid,
    input  wire                  m_axis_tready,
    output wire                  m_axis_tlast,
    output wire [USER_WIDTH-1:0] m_axis_tuser,

    // the input the current beat comes from
    output wire                  m_sel
);

reg active_reg = 1'b0;
reg grant_reg = 1'b0;
reg last_reg = 1'b1;

// idle: prefer the input after the last one served
wire pick = last_reg ? (s0_axis_tvalid || !s1_axis_tvalid ? 1'b0 : 1'b1)
                     : (s1_axis_tvalid || !s0_axis_tvalid ? 1'b1 : 1'b0);
wire grant = active_reg ? grant_reg : pick;

assign m_sel = grant;
assign m_axis_tdata = grant ? s1_axis_tdata : s0_axis_tdata;
assign m_axis_tkeep = grant ? s1_axis_tkeep : s0_axis_tkeep;
assign m_axis_tvalid = grant ? s1_axis_tvalid : s0_axis_tvalid;
assign m_axis_tlast = grant ? s1_axis_tlast : s0_axis_tlast;
assign m_axis_tuser = grant ? s1_axis_tuser : s0_axis_tuser;
assign s0_axis_tready = !grant && m_axis_tready;
assign s1_axis_tready = grant && m_axis_tready;

always @(posedge clk) begin
    if (m_axis_tvalid && m_axis_tready) begin
        if (m_axis_tlast) begin
            active_reg <= 1'b0;
            last_reg <= grant;
        end else begin
            active_reg <= 1'b1;
            grant_reg <= grant;
        end
    end

    if (rst) begin
        active_reg <= 1'b0;
        grant_reg <= 1'b0;
        last_reg <= 1'b1;
    end
end

endmodule

`resetall
