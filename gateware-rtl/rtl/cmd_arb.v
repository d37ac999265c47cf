// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Command-port arbiter: two masters share one valid/ready command port whose every command
 * is answered by exactly one response pulse (the flow table's and the flow state's command
 * ports, shared by the firmware's CSRs and the ACK validator, docs/engine.md).
 *
 * One command at a time: after a command is taken the port is busy until its response;
 * when both masters wait, A (the firmware) goes first. The response pulse goes to the master
 * whose command was taken (rsp_a / rsp_b), so neither sees the other's results.
 *
 * The payload mux is a 2:1 select by a registered-state signal (no variable shifts); the
 * owner register is the only state.
 */
module cmd_arb #
(
    parameter WIDTH = 8
)
(
    input  wire             clk,
    input  wire             rst,

    input  wire             a_valid,
    output wire             a_ready,
    input  wire [WIDTH-1:0] a_data,

    input  wire             b_valid,
    output wire             b_ready,
    input  wire [WIDTH-1:0] b_data,

    output wire             m_valid,
    input  wire             m_ready,
    output wire [WIDTH-1:0] m_data,

    // the port's response; routed to the master whose command it answers
    input  wire             rsp_valid,
    output wire             rsp_a,
    output wire             rsp_b
);

// 0 idle, 1 A's command outstanding, 2 B's
reg  [1:0] own_reg = 2'd0;
wire       idle = own_reg == 2'd0;
wire       sel_b = !a_valid && b_valid;

assign m_valid = idle && (a_valid || b_valid);
assign m_data = sel_b ? b_data : a_data;
assign a_ready = idle && m_ready;
assign b_ready = idle && sel_b && m_ready;
assign rsp_a = rsp_valid && own_reg == 2'd1;
assign rsp_b = rsp_valid && own_reg == 2'd2;

always @(posedge clk) begin
    if (m_valid && m_ready) begin
        own_reg <= sel_b ? 2'd2 : 2'd1;
    end else if (rsp_valid) begin
        own_reg <= 2'd0;
    end
    if (rst) begin
        own_reg <= 2'd0;
    end
end

endmodule

`resetall
