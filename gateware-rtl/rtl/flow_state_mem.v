// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_records.vh"

/*
 * Flow state memory (the seed's per-flow pages): one entry per flow slot, in two RAMs.
 *
 * Static part (STATIC_WIDTH = `SNIC_FLOW_STATIC_W bits, written by the firmware, read by the
 * data path): record FlowStatic, dynamic part (DYN_WIDTH = `SNIC_FLOW_DYN_W bits, updated by
 * the data path, read/written by firmware): record FlowDyn; both in docs/records.md
 * (registers/records.toml, splicenic_records.vh). Counters wrap modulo their width.
 *
 * Data-path read port: rd_valid/rd_slot every cycle (always accepted); rd_resp_valid and
 * the static entry rd_resp_data one cycle later. A firmware write of the same slot in the
 * read cycle is forwarded (the read sees the new entry whole).
 *
 * Data-path update port: upd_valid/upd_ready, upd_slot, upd_dir (0 client->server,
 * 1 server->client), upd_bytes, upd_time, and the segment's teardown view: upd_fin (it
 * carries FIN), upd_fin_end (its sequence number after the FIN: seq + payload + 1, in the
 * sender's numbers), upd_ack (it carries ACK), upd_ack_x (its acknowledgement number
 * translated into the other side's numbers). Each accepted update does
 *   packets[dir] += 1, bytes[dir] += upd_bytes, last_seen = upd_time,
 *   FIN[dir]: set by the first FIN, which stores fin_end[dir] = upd_fin_end,
 *   ACKED[!dir]: set when FIN[!dir] is set, the segment carries ACK and
 *                upd_ack_x - fin_end[!dir] is not negative (mod 2^32)
 * (record FlowDyn, enum Teardown; the flags are cleared only by a command WRITE) as a
 * read-modify-write pipeline (read, then add and write) with forwarding, so back-to-back
 * updates of one slot all count. One update per cycle; upd_ready drops only
 * in the cycle a firmware command is accepted (the command takes that pipeline slot).
 * An update that sets the flow's first FIN flag (neither FIN[0] nor FIN[1] was set: the
 * flow's close begins) pulses fin1_valid the cycle after its write, with the update's
 * upd_tag (the caller's, carried along: splice_datapath gives the flow's real server and
 * ACTIVE flag) on fin1_tag.
 *
 * Command port (firmware through CSR): cmd_valid/cmd_ready, cmd_op, cmd_slot,
 * cmd_wdata_static, cmd_wdata_dyn; then one rsp_valid pulse two cycles after acceptance,
 * with rsp_rdata_static / rsp_rdata_dyn (stable until the next command completes).
 *   cmd_op (enum FlowOp): READ (whole entry), WRITE (whole entry, counters included),
 *           WRITE_STATIC (static part only; counters and last-seen untouched); the
 *           remaining code is reserved (acts as READ).
 * A command goes through the update pipeline in order: a READ returns the counters after
 * exactly the updates accepted before the command, and before any later one (a consistent
 * snapshot of last-seen, packets and bytes).
 */
module flow_state_mem #
(
    // Number of flow slots (power of two)
    parameter SLOTS = 65536,
    // Width of the per-packet byte count
    parameter BYTES_WIDTH = 16,
    parameter SLOT_BITS = $clog2(SLOTS),
    parameter STATIC_WIDTH = `SNIC_FLOW_STATIC_W,
    parameter DYN_WIDTH = `SNIC_FLOW_DYN_W,
    // Width of the update's tag, handed back with a first FIN
    parameter TAG_WIDTH = 1
)
(
    input  wire                    clk,
    input  wire                    rst,

    // Data-path read (static part)
    input  wire                    rd_valid,
    input  wire [SLOT_BITS-1:0]    rd_slot,
    output wire                    rd_resp_valid,
    output wire [STATIC_WIDTH-1:0] rd_resp_data,

    // Data-path counter / last-seen update
    input  wire                    upd_valid,
    output wire                    upd_ready,
    input  wire [SLOT_BITS-1:0]    upd_slot,
    input  wire                    upd_dir,
    input  wire [BYTES_WIDTH-1:0]  upd_bytes,
    input  wire [31:0]             upd_time,
    input  wire                    upd_fin,
    input  wire [31:0]             upd_fin_end,
    input  wire                    upd_ack,
    input  wire [31:0]             upd_ack_x,
    input  wire [TAG_WIDTH-1:0]    upd_tag,

    // The flow's first FIN (one cycle after its update's write)
    output reg                     fin1_valid = 1'b0,
    output reg  [TAG_WIDTH-1:0]    fin1_tag = {TAG_WIDTH{1'b0}},

    // Command (firmware through CSR)
    input  wire                    cmd_valid,
    output wire                    cmd_ready,
    input  wire [1:0]              cmd_op,
    input  wire [SLOT_BITS-1:0]    cmd_slot,
    input  wire [STATIC_WIDTH-1:0] cmd_wdata_static,
    input  wire [DYN_WIDTH-1:0]    cmd_wdata_dyn,

    // Command response
    output wire                    rsp_valid,
    output wire [STATIC_WIDTH-1:0] rsp_rdata_static,
    output wire [DYN_WIDTH-1:0]    rsp_rdata_dyn
);

localparam [1:0] OP_READ = `SNIC_FLOW_OP_READ, OP_WRITE = `SNIC_FLOW_OP_WRITE,
                 OP_WRITE_STATIC = `SNIC_FLOW_OP_WRITE_STATIC;

`include "splicenic_records_fn.vh"


initial begin
    if (SLOTS < 2 || (SLOTS & (SLOTS - 1)) != 0 || (1 << SLOT_BITS) != SLOTS) begin
        $error("Error: SLOTS must be a power of two >= 2 and SLOT_BITS its log2 (instance %m)");
        $finish;
    end
    if (STATIC_WIDTH != `SNIC_FLOW_STATIC_W || DYN_WIDTH != `SNIC_FLOW_DYN_W) begin
        $error("Error: STATIC_WIDTH/DYN_WIDTH are fixed by the entry layout (instance %m)");
        $finish;
    end
    if (BYTES_WIDTH < 1 || BYTES_WIDTH > 48) begin
        $error("Error: BYTES_WIDTH must be 1..48 (instance %m)");
        $finish;
    end
end

// ---------------------------------------------------------------------------------------
// Static RAM: port A data-path read, port B firmware read/write.

reg [STATIC_WIDTH-1:0] st_mem [0:SLOTS-1];
reg [STATIC_WIDTH-1:0] st_a_rdata_reg = {STATIC_WIDTH{1'b0}};
reg [STATIC_WIDTH-1:0] st_b_rdata_reg = {STATIC_WIDTH{1'b0}};
reg                    rd_valid_reg = 1'b0;
reg                    rd_fwd_reg = 1'b0;
reg [STATIC_WIDTH-1:0] rd_fwd_data_reg = {STATIC_WIDTH{1'b0}};

wire cmd_fire = cmd_valid && cmd_ready;
wire st_we = cmd_fire && (cmd_op == OP_WRITE || cmd_op == OP_WRITE_STATIC);

assign rd_resp_valid = rd_valid_reg;
assign rd_resp_data = rd_fwd_reg ? rd_fwd_data_reg : st_a_rdata_reg;

always @(posedge clk) begin
    if (rd_valid) begin
        st_a_rdata_reg <= st_mem[rd_slot];
    end
    // (the forwarded entry is loaded only for a read: it is selected only then)
    if (rd_valid) begin
        rd_fwd_data_reg <= cmd_wdata_static;
    end
    rd_fwd_reg <= rd_valid && st_we && rd_slot == cmd_slot;
    rd_valid_reg <= rd_valid;
    if (rst) begin
        rd_valid_reg <= 1'b0;
        rd_fwd_reg <= 1'b0;
    end
end

always @(posedge clk) begin
    if (cmd_fire) begin
        if (st_we) begin
            st_mem[cmd_slot] <= cmd_wdata_static;
        end
        st_b_rdata_reg <= st_mem[cmd_slot];
    end
end

// ---------------------------------------------------------------------------------------
// Dynamic RAM: read-modify-write pipeline. Stage R issues the read (update or command),
// stage C gets the data, forwards the entry written in the previous cycle when it is the
// same slot, computes and writes.

reg [DYN_WIDTH-1:0] dy_mem [0:SLOTS-1];
reg [DYN_WIDTH-1:0] dy_rdata_reg = {DYN_WIDTH{1'b0}};

reg                   c_valid_reg = 1'b0;
reg                   c_cmd_reg = 1'b0;
reg [1:0]             c_op_reg = OP_READ;
reg [SLOT_BITS-1:0]   c_slot_reg = {SLOT_BITS{1'b0}};
reg                   c_dir_reg = 1'b0;
reg [BYTES_WIDTH-1:0] c_bytes_reg = {BYTES_WIDTH{1'b0}};
reg [31:0]            c_time_reg = 32'd0;
reg                   c_fin_reg = 1'b0;
reg [31:0]            c_fin_end_reg = 32'd0;
reg                   c_ack_reg = 1'b0;
reg [31:0]            c_ack_x_reg = 32'd0;
reg [DYN_WIDTH-1:0]   c_wdata_reg = {DYN_WIDTH{1'b0}};
reg [TAG_WIDTH-1:0]   c_tag_reg = {TAG_WIDTH{1'b0}};

reg                   last_valid_reg = 1'b0;
reg [SLOT_BITS-1:0]   last_slot_reg = {SLOT_BITS{1'b0}};
reg [DYN_WIDTH-1:0]   last_data_reg = {DYN_WIDTH{1'b0}};

reg                   cmd_busy_reg = 1'b0;
reg                   rsp_valid_reg = 1'b0;
reg [STATIC_WIDTH-1:0] rsp_static_reg = {STATIC_WIDTH{1'b0}};
reg [DYN_WIDTH-1:0]   rsp_dyn_reg = {DYN_WIDTH{1'b0}};

assign cmd_ready = !cmd_busy_reg;
assign upd_ready = !cmd_fire;
assign rsp_valid = rsp_valid_reg;
assign rsp_rdata_static = rsp_static_reg;
assign rsp_rdata_dyn = rsp_dyn_reg;

wire                 r_valid = cmd_fire || upd_valid;
wire [SLOT_BITS-1:0] r_slot = cmd_fire ? cmd_slot : upd_slot;

// Stage C: current entry (with forwarding) and the updated entry. Stage C and the forwarding
// registers are loaded only for an access (c_valid_reg, c_we): nothing reads them otherwise.
function [DYN_WIDTH-1:0] dyn_cur(input last_valid, input [SLOT_BITS-1:0] last_slot,
                                 input [DYN_WIDTH-1:0] last_data, input [SLOT_BITS-1:0] slot,
                                 input [DYN_WIDTH-1:0] rdata);
    dyn_cur = (last_valid && last_slot == slot) ? last_data : rdata;
endfunction

// the entry after the access: the command's data, or the counters and teardown flags
// updated (the old time stamp, bits 31:0, is replaced)
// verilator lint_off UNUSEDSIGNAL
function [DYN_WIDTH-1:0] dyn_new(input cmd, input [DYN_WIDTH-1:0] wdata,
                                 input [DYN_WIDTH-1:0] cur, input dir,
                                 input [BYTES_WIDTH-1:0] bytes, input [31:0] t,
                                 input fin, input [31:0] fin_end, input ack,
                                 input [31:0] ack_x);
    reg [`SNIC_FLOW_DYN_PACKETS_CS_W-1:0] cur_pkts_c2s;
    reg [`SNIC_FLOW_DYN_PACKETS_SC_W-1:0] cur_pkts_s2c;
    reg [`SNIC_FLOW_DYN_BYTES_CS_W-1:0] cur_bytes_c2s, add_bytes;
    reg [`SNIC_FLOW_DYN_BYTES_SC_W-1:0] cur_bytes_s2c;
    reg [`SNIC_FLOW_DYN_PACKETS_CS_W-1:0] one;
    reg [`SNIC_TEARDOWN_W-1:0] td, td_new;
    reg [31:0] end_cs, end_sc, dist_cs, dist_sc;
    reg fin_mine, acked_cs, acked_sc;
    begin
        one = 1;
        cur_pkts_c2s = `SNIC_FLOW_DYN_PACKETS_CS(cur);
        cur_pkts_s2c = `SNIC_FLOW_DYN_PACKETS_SC(cur);
        cur_bytes_c2s = `SNIC_FLOW_DYN_BYTES_CS(cur);
        cur_bytes_s2c = `SNIC_FLOW_DYN_BYTES_SC(cur);
        add_bytes = {{(`SNIC_FLOW_DYN_BYTES_CS_W-BYTES_WIDTH){1'b0}}, bytes};
        td = `SNIC_FLOW_DYN_TEARDOWN(cur);
        end_cs = `SNIC_FLOW_DYN_FIN_END_CS(cur);
        end_sc = `SNIC_FLOW_DYN_FIN_END_SC(cur);
        // both comparisons side by side on the stored ends (no select before the carry
        // chains); the segment's direction picks one after them
        dist_cs = ack_x - end_cs;
        dist_sc = ack_x - end_sc;
        acked_cs = ack && dir && |(td & `SNIC_TEARDOWN_FIN_CS) && !dist_cs[31];
        acked_sc = ack && !dir && |(td & `SNIC_TEARDOWN_FIN_SC) && !dist_sc[31];
        fin_mine = |(td & (dir ? `SNIC_TEARDOWN_FIN_SC : `SNIC_TEARDOWN_FIN_CS));
        td_new = td
               | ((fin ? {`SNIC_TEARDOWN_W{1'b1}} : {`SNIC_TEARDOWN_W{1'b0}}) &
                  (dir ? `SNIC_TEARDOWN_FIN_SC : `SNIC_TEARDOWN_FIN_CS))
               | (acked_cs ? `SNIC_TEARDOWN_ACKED_CS : {`SNIC_TEARDOWN_W{1'b0}})
               | (acked_sc ? `SNIC_TEARDOWN_ACKED_SC : {`SNIC_TEARDOWN_W{1'b0}});
        dyn_new = cmd ? wdata : snic_flow_dyn_pack(
            t,
            dir ? cur_pkts_c2s : cur_pkts_c2s + one,
            dir ? cur_pkts_s2c + one : cur_pkts_s2c,
            dir ? cur_bytes_c2s : cur_bytes_c2s + add_bytes,
            dir ? cur_bytes_s2c + add_bytes : cur_bytes_s2c,
            (!dir && fin && !fin_mine) ? fin_end : end_cs,
            (dir && fin && !fin_mine) ? fin_end : end_sc,
            td_new
        );
    end
endfunction
// verilator lint_on UNUSEDSIGNAL

wire c_we = c_valid_reg && (!c_cmd_reg || c_op_reg == OP_WRITE);
// the entry before the access (forwarded)
wire [DYN_WIDTH-1:0] c_cur = dyn_cur(last_valid_reg, last_slot_reg, last_data_reg, c_slot_reg,
                                     dy_rdata_reg);

always @(posedge clk) begin
    if (r_valid) begin
        dy_rdata_reg <= dy_mem[r_slot];
    end
    if (c_we) begin
        dy_mem[c_slot_reg] <= dyn_new(c_cmd_reg, c_wdata_reg,
                                      c_cur,
                                      c_dir_reg, c_bytes_reg, c_time_reg,
                                      c_fin_reg, c_fin_end_reg, c_ack_reg, c_ack_x_reg);
    end
end

always @(posedge clk) begin
    rsp_valid_reg <= 1'b0;

    c_valid_reg <= r_valid;
    if (r_valid) begin
        c_cmd_reg <= cmd_fire;
        c_op_reg <= cmd_op;
        c_slot_reg <= r_slot;
        c_dir_reg <= upd_dir;
        c_bytes_reg <= upd_bytes;
        c_time_reg <= upd_time;
        c_fin_reg <= upd_fin;
        c_fin_end_reg <= upd_fin_end;
        c_ack_reg <= upd_ack;
        c_ack_x_reg <= upd_ack_x;
        c_wdata_reg <= cmd_wdata_dyn;
        c_tag_reg <= upd_tag;
    end

    // the first FIN: no FIN flag in the entry before this update
    fin1_valid <= c_valid_reg && !c_cmd_reg && c_fin_reg &&
                  (`SNIC_FLOW_DYN_TEARDOWN(c_cur) & (`SNIC_TEARDOWN_FIN_CS | `SNIC_TEARDOWN_FIN_SC))
                  == {`SNIC_TEARDOWN_W{1'b0}};
    fin1_tag <= c_tag_reg;

    if (cmd_fire) begin
        cmd_busy_reg <= 1'b1;
    end
    if (c_valid_reg && c_cmd_reg) begin
        cmd_busy_reg <= 1'b0;
        rsp_valid_reg <= 1'b1;
        rsp_static_reg <= st_b_rdata_reg;
        rsp_dyn_reg <= c_cur;
    end

    last_valid_reg <= c_we;
    if (c_we) begin
        last_slot_reg <= c_slot_reg;
        last_data_reg <= dyn_new(c_cmd_reg, c_wdata_reg,
                                 c_cur,
                                 c_dir_reg, c_bytes_reg, c_time_reg,
                                 c_fin_reg, c_fin_end_reg, c_ack_reg, c_ack_x_reg);
    end

    if (rst) begin
        c_valid_reg <= 1'b0;
        last_valid_reg <= 1'b0;
        cmd_busy_reg <= 1'b0;
        rsp_valid_reg <= 1'b0;
        fin1_valid <= 1'b0;
    end
end

endmodule

`resetall
