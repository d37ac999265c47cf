// SPDX-License-Identifier: MIT OR Apache-2.0
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "splicenic_regs.vh"
`include "splicenic_records.vh"

/*
 * Splicer data path: everything between the client port (C, index 0) and the server port
 * (S, index 1), and its CSR blocks DP, FLOW, L7, PUNT, INJECT, EVQ and STATS.
 * docs/datapath.md describes the behaviour; docs/records.md the flow entry (FlowStatic,
 * FlowDyn), punt record (PuntMeta), event records (Evt*) and counter index map (STATS), all
 * from registers/records.toml (splicenic_records.vh); registers/splicenic.svd the registers.
 *
 * Per port: axis_len_guard -> eth_tcp_parser -> frame FIFO (whole frames) and header FIFO.
 * Shared decision pipeline (one header per cycle, fixed latency, never stalls; a header is
 * taken only when its port's decision FIFO has room for it and everything in flight):
 *   S0 round-robin header pick -> tcp_classifier (1 cycle) -> S1 flow_table lookup
 *   (4 cycles) -> S5 flow_state_mem read (1 cycle) -> S6 decide -> S7 push the decision,
 *   count (stats_counters), update the flow's counters, raise FIN events (SYNs and RSTs
 *   of spliced flows are punted).
 * Per port dispatch: the next decision takes the next frame from the frame FIFO to the
 * port's splice_rewriter (FORWARD, out of the other port), the punt arbiter (PUNT) or
 * nowhere (DROP). Punted request segments are also fed to the l7_matcher with the bytes
 * outside the TCP payload masked off (tkeep = 0), tagged with the flow slot.
 * TX per port: axis_frame_arb of the other port's rewriter and the port's inject ring
 * (with, on the client port, the SYN responder), and the frame generator (tcp_tx_gen,
 * DP.TXGEN_*: header-only frames from their fields, one generator for both ports).
 *
 * CSR bus: like the other blocks, a one-cycle strobe answered next cycle. Reads with RAM
 * latency use indirect registers (FLOW.STATE_*, STATS.RD_*, PUNT.RD_DATA prefetch).
 */
module splice_datapath #
(
    parameter DATA_WIDTH = 64,
    parameter KEEP_WIDTH = DATA_WIDTH/8,
    // flow table buckets x ways = entries (two per flow: 128K entries = 64K flows)
    parameter FLOW_BUCKETS = 32768,
    parameter FLOW_WAYS = 4,
    // flow state slots
    parameter FLOW_SLOTS = 65536,
    parameter L7_RULES = 64,
    parameter L7_LANES = 4,
    parameter L7_PAT_MAX = 64,
    parameter PUNT_SLOTS = 16,
    // punt ring slots kept for frames other than new connection attempts (SYN without ACK)
    parameter PUNT_RESERVE = PUNT_SLOTS / 4,
    parameter INJ_SLOTS = 8,
    parameter EVQ_DEPTH = 256,
    // SYN responder cookie units (one SYN per COOKIE_INTERVAL / SYN_UNITS cycles; 2 keep up
    // with minimum-size SYNs at one frame per 10.5 cycles, 10 Gb/s at 64 bits)
    parameter SYN_UNITS = DATA_WIDTH == 64 ? 2 : 8,
    // ACK validator: free-list slots (ack_validator FREE_DEPTH)
    parameter FREE_DEPTH = 512,
    // longest frame taken whole (longer frames are cut and dropped as malformed)
    parameter MAX_FRAME = 2048
)
(
    input  wire                  clk,
    input  wire                  rst,

    // CSR bus slave
    input  wire                  csr_stb,
    input  wire                  csr_we,
    input  wire [31:0]           csr_addr,
    input  wire [31:0]           csr_wdata,
    input  wire [3:0]            csr_wstrb,
    input  wire                  csr_master,
    output wire                  csr_hit,
    output wire [31:0]           csr_rdata,

    // client port
    input  wire [DATA_WIDTH-1:0] s_axis_c_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_c_tkeep,
    input  wire                  s_axis_c_tvalid,
    output wire                  s_axis_c_tready,
    input  wire                  s_axis_c_tlast,
    input  wire                  s_axis_c_tuser,
    output wire [DATA_WIDTH-1:0] m_axis_c_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_c_tkeep,
    output wire                  m_axis_c_tvalid,
    input  wire                  m_axis_c_tready,
    output wire                  m_axis_c_tlast,
    output wire                  m_axis_c_tuser,

    // server port
    input  wire [DATA_WIDTH-1:0] s_axis_s_tdata,
    input  wire [KEEP_WIDTH-1:0] s_axis_s_tkeep,
    input  wire                  s_axis_s_tvalid,
    output wire                  s_axis_s_tready,
    input  wire                  s_axis_s_tlast,
    input  wire                  s_axis_s_tuser,
    output wire [DATA_WIDTH-1:0] m_axis_s_tdata,
    output wire [KEEP_WIDTH-1:0] m_axis_s_tkeep,
    output wire                  m_axis_s_tvalid,
    input  wire                  m_axis_s_tready,
    output wire                  m_axis_s_tlast,
    output wire                  m_axis_s_tuser
);

localparam DW = DATA_WIDTH;
localparam integer DW_I = DATA_WIDTH;
localparam [15:0] DW16 = DW_I[15:0];
localparam KW = KEEP_WIDTH;
localparam SLOT_BITS = $clog2(FLOW_SLOTS);
localparam BUCKET_BITS = $clog2(FLOW_BUCKETS);
localparam WAY_BITS = FLOW_WAYS > 1 ? $clog2(FLOW_WAYS) : 1;
localparam VIP_N = `SNIC_DP_VIP_ADDR_COUNT;
localparam VIP_B = $clog2(VIP_N);
localparam LOCAL_N = `SNIC_DP_LOCAL_ADDR_COUNT;
localparam FIFO_BEATS = 2 * MAX_FRAME / KW;
localparam DEC_DEPTH = 16;
localparam INFL_W = 5;
localparam PUNT_SB = $clog2(PUNT_SLOTS);
localparam PUNT_WB = $clog2(2048 / 4);
localparam INJ_SB = $clog2(INJ_SLOTS);
localparam INJ_WB = $clog2(2048 / 4);
localparam L7_RW = $clog2(L7_RULES);
// L7 matcher tag: {from the firmware buffer, slot generation, flow slot or L7.CMD tag}
localparam L7_TAG_W = 25;
localparam L7_BUF_BYTES = `SNIC_L7_BUFFER_BYTES;
localparam L7_BUF_BEATS = L7_BUF_BYTES / KW;
localparam L7_BB = $clog2(L7_BUF_BEATS);
localparam WPB = KW / 4;
localparam WPB_BITS = WPB > 1 ? $clog2(WPB) : 1;
localparam STAT_INPUTS = 14;
localparam STAT_COUNTERS = `SNIC_STATS_COUNTERS;
localparam STAT_IB = $clog2(STAT_COUNTERS);
localparam EVQ_AW = $clog2(EVQ_DEPTH);
// shared records (docs/records.md)
localparam META_W = `SNIC_PUNT_META_W;
localparam EVT_W = `SNIC_EVT_FIN_RST_W;
localparam FS_W = `SNIC_FLOW_STATIC_W;
localparam FSR_W = 32 * `SNIC_FLOW_STATE_STATIC_COUNT;
localparam FD_W = `SNIC_FLOW_DYN_W;
localparam FDR_W = 32 * `SNIC_FLOW_STATE_DYN_COUNT;
localparam HALF_W = `SNIC_FLOW_HALF_ENTRY_W;
localparam PA_UW = META_W + 2;
localparam RS_W = `SNIC_FLOW_STATIC_REAL_SERVER_W;
localparam RS_IB = $clog2(`SNIC_STATS_SERVERS);
localparam REASON_W = `SNIC_PARSER_REASON_W;

// STATS counter indexes (index map STATS). The port, per-server-direction, parser-reason
// and classifier-drop groups are aligned (checked below): an index there is the group base
// OR the entry shifted by log2(stride) OR the member, plain wiring. The service and server
// groups are not aligned: a constant add.
localparam [STAT_IB-1:0] SI_PORT_BASE = `SNIC_STATS_PORT_BASE;
localparam SI_PORT_SH = $clog2(`SNIC_STATS_PORT_STRIDE);
localparam [STAT_IB-1:0] SI_SVC_BASE = `SNIC_STATS_SERVICE_BASE;
localparam SI_SVC_SH = $clog2(`SNIC_STATS_SERVICE_STRIDE);
localparam [STAT_IB-1:0] SI_RS_BASE = `SNIC_STATS_SERVER_BASE;
localparam SI_RS_SH = $clog2(`SNIC_STATS_SERVER_STRIDE);
localparam [STAT_IB-1:0] SI_RSD_BASE = `SNIC_STATS_SERVER_DIR_BASE;
localparam SI_RSD_SH = $clog2(`SNIC_STATS_SERVER_DIR_STRIDE);
localparam [STAT_IB-1:0] SI_REASON = `SNIC_STATS_PARSER_REASON_BASE;
localparam [STAT_IB-1:0] SI_CLS_DROP = `SNIC_STATS_CLASSIFIER_DROP_BASE;
// members
localparam [STAT_IB-1:0] SI_P_RX_FRAMES = `SNIC_STATS_PORT_RX_FRAMES;
localparam [STAT_IB-1:0] SI_P_RX_BYTES = `SNIC_STATS_PORT_RX_BYTES;
localparam [STAT_IB-1:0] SI_P_FORWARDED = `SNIC_STATS_PORT_FORWARDED;
localparam [STAT_IB-1:0] SI_P_PUNTED = `SNIC_STATS_PORT_PUNTED;
localparam [STAT_IB-1:0] SI_P_DROPPED = `SNIC_STATS_PORT_DROPPED;
localparam [STAT_IB-1:0] SI_P_SYN_ANSWERED = `SNIC_STATS_PORT_SYN_ANSWERED;
localparam [STAT_IB-1:0] SI_SVC_FRAMES = `SNIC_STATS_SERVICE_FRAMES;
localparam [STAT_IB-1:0] SI_SVC_BYTES = `SNIC_STATS_SERVICE_BYTES;
localparam [STAT_IB-1:0] SI_RS_FRAMES = `SNIC_STATS_SERVER_FRAMES;
localparam [STAT_IB-1:0] SI_RS_BYTES = `SNIC_STATS_SERVER_BYTES;
localparam [STAT_IB-1:0] SI_RSD_CS_FRAMES = `SNIC_STATS_SERVER_DIR_CS_FRAMES;
localparam [STAT_IB-1:0] SI_RSD_CS_BYTES = `SNIC_STATS_SERVER_DIR_CS_BYTES;
localparam [STAT_IB-1:0] SI_RSD_SC_FRAMES = `SNIC_STATS_SERVER_DIR_SC_FRAMES;
localparam [STAT_IB-1:0] SI_RSD_SC_BYTES = `SNIC_STATS_SERVER_DIR_SC_BYTES;
// TX counters of both ports (constants)
localparam [STAT_IB-1:0] SI_TX_FRAMES_C = `SNIC_STATS_PORT_BASE + `SNIC_STATS_PORT_TX_FRAMES;
localparam [STAT_IB-1:0] SI_TX_BYTES_C = `SNIC_STATS_PORT_BASE + `SNIC_STATS_PORT_TX_BYTES;
localparam [STAT_IB-1:0] SI_TX_FRAMES_S = `SNIC_STATS_PORT_BASE + `SNIC_STATS_PORT_STRIDE
                                          + `SNIC_STATS_PORT_TX_FRAMES;
localparam [STAT_IB-1:0] SI_TX_BYTES_S = `SNIC_STATS_PORT_BASE + `SNIC_STATS_PORT_STRIDE
                                         + `SNIC_STATS_PORT_TX_BYTES;

`include "splicenic_records_fn.vh"

initial begin
    if (KW * 8 != DW || (DW != 64 && DW != 512)) begin
        $error("Error: DATA_WIDTH must be 64 or 512 and KEEP_WIDTH DATA_WIDTH/8 (instance %m)");
        $finish;
    end
    if (FLOW_SLOTS > 65536 || MAX_FRAME != 2048) begin
        $error("Error: FLOW_SLOTS must be at most 65536 and MAX_FRAME 2048 (instance %m)");
        $finish;
    end
    if (`SNIC_EVT_REQUEST_MATCHED_W != EVT_W || `SNIC_EVT_PUNT_READY_W != EVT_W) begin
        $error("Error: the event records must have one width (instance %m)");
        $finish;
    end
    // the STATS groups indexed by wiring: power-of-two strides, members below the stride,
    // bases aligned to the whole group
    if ((1 << SI_PORT_SH) != `SNIC_STATS_PORT_STRIDE
        || `SNIC_STATS_PORT_BASE % (`SNIC_STATS_PORT_STRIDE * `SNIC_STATS_PORT_COUNT) != 0
        || `SNIC_STATS_PORT_COUNT != 2
        || `SNIC_STATS_PORT_DROPPED >= `SNIC_STATS_PORT_STRIDE
        || `SNIC_STATS_PORT_SYN_ANSWERED >= `SNIC_STATS_PORT_STRIDE
        || (1 << SI_RSD_SH) != `SNIC_STATS_SERVER_DIR_STRIDE
        || `SNIC_STATS_SERVER_DIR_BASE
           % (`SNIC_STATS_SERVER_DIR_STRIDE * `SNIC_STATS_SERVER_DIR_COUNT) != 0
        || `SNIC_STATS_SERVER_DIR_COUNT != (1 << RS_IB)
        || `SNIC_STATS_SERVER_DIR_SC_BYTES >= `SNIC_STATS_SERVER_DIR_STRIDE
        || `SNIC_STATS_PARSER_REASON_BASE % `SNIC_STATS_PARSER_REASON_COUNT != 0
        || `SNIC_STATS_PARSER_REASON_COUNT != (1 << REASON_W)
        || `SNIC_STATS_PARSER_REASON_STRIDE != 1
        || `SNIC_STATS_CLASSIFIER_DROP_BASE % `SNIC_STATS_CLASSIFIER_DROP_COUNT != 0
        || `SNIC_STATS_CLASSIFIER_DROP_COUNT != (1 << `SNIC_PUNT_WHY_W)
        || `SNIC_STATS_CLASSIFIER_DROP_STRIDE != 1
        || (1 << SI_SVC_SH) != `SNIC_STATS_SERVICE_STRIDE
        || `SNIC_STATS_SERVICE_COUNT < VIP_N
        || (1 << SI_RS_SH) != `SNIC_STATS_SERVER_STRIDE
        || `SNIC_STATS_SERVER_COUNT != (1 << RS_IB)
        || STAT_COUNTERS != (1 << STAT_IB)) begin
        $error("Error: the STATS index map does not fit the index wiring (instance %m)");
        $finish;
    end
end

// ---------------------------------------------------------------------------------------
// Header record carried from the parser to the decision

localparam H_REASON = 0;
localparam H_ETYPE = 4;
localparam H_PROTO = 20;
localparam H_SRC = 28;
localparam H_DST = 60;
localparam H_SPORT = 92;
localparam H_DPORT = 108;
localparam H_SEQ = 124;
localparam H_ACK = 156;
localparam H_FLAGS = 188;
localparam H_L3 = 197;
localparam H_L4 = 205;
localparam H_PAY = 213;
localparam H_PLEN = 221;
localparam H_FLEN = 237;
localparam H_IHL = 253;
localparam H_DOFF = 257;
localparam H_VLAN = 261;
localparam HDR_W = 262;

// Decision record
localparam D_ACT = 0;     // 2: 0 forward, 1 punt, 2 drop
localparam D_L7 = 2;      // 1
localparam D_DFLAGS = 3;  // 8
localparam D_L3 = 11;     // 8
localparam D_IHL = 19;    // 4
localparam D_DOFF = 23;   // 4
localparam D_EDST = 27;   // 48
localparam D_ESRC = 75;   // 48
localparam D_ISRC = 123;  // 32
localparam D_IDST = 155;  // 32
localparam D_SPORT = 187; // 16
localparam D_DPORT = 203; // 16
localparam D_SEQD = 219;  // 32
localparam D_ACKD = 251;  // 32
localparam D_TSVD = 283;  // 32
localparam D_TSED = 315;  // 32
localparam D_WS = 347;    // 5
localparam D_META = 352;  // META_W (PuntMeta)
localparam D_CAND = D_META + META_W;  // 1: an ACK validator candidate (its verdict joins it)
localparam DEC_W = D_CAND + 1;

// ACT_SYN: answered by the SYN responder (the frame is consumed like a drop)
localparam [1:0] ACT_FWD = 2'd0, ACT_PUNT = 2'd1, ACT_DROP = 2'd2, ACT_SYN = 2'd3;

// ---------------------------------------------------------------------------------------
// Configuration registers (DP block)

reg                  fastpath_reg = 1'b1;
localparam [31:0]    PP_RESET = `SNIC_DP_PUNT_POLICY_RESET;
reg [7:0]            punt_policy_reg = PP_RESET[7:0];
reg [47:0]           mac_c_reg = 48'd0;
reg [47:0]           mac_s_reg = 48'd0;
reg [VIP_N-1:0]      vip_en_reg = {VIP_N{1'b0}};
reg [VIP_N*32-1:0]   vip_addr_reg = {VIP_N*32{1'b0}};
reg [VIP_N*16-1:0]   vip_port_reg = {VIP_N*16{1'b0}};
reg [LOCAL_N-1:0]    local_en_reg = {LOCAL_N{1'b0}};
reg [LOCAL_N*32-1:0] local_addr_reg = {LOCAL_N*32{1'b0}};
// SYN responder (DP.SYN_CTRL, SYN_MSS, COOKIE_KEY_*)
localparam [31:0]    SYNC_RESET = `SNIC_DP_SYN_CTRL_RESET;
localparam [31:0]    SYNM_RESET = `SNIC_DP_SYN_MSS_RESET;
reg [VIP_N-1:0]      syn_mask_reg = SYNC_RESET[VIP_N-1:0];
reg                  syn_offer_ws_reg = SYNC_RESET[`SNIC_DP_SYN_CTRL_OFFER_WSCALE_LSB];
reg                  syn_offer_sack_reg = SYNC_RESET[`SNIC_DP_SYN_CTRL_OFFER_SACK_LSB];
reg                  syn_offer_ts_reg = SYNC_RESET[`SNIC_DP_SYN_CTRL_OFFER_TS_LSB];
reg                  syn_epoch_reg = SYNC_RESET[`SNIC_DP_SYN_CTRL_CUR_EPOCH_LSB];
reg                  syn_prev_reg = SYNC_RESET[`SNIC_DP_SYN_CTRL_PREV_VALID_LSB];
reg [15:0]           syn_mss_reg = SYNM_RESET[15:0];
reg [63:0]           key_stage_reg = 64'd0;
wire [31:0]          syn_ctrl_rd = ({{32-VIP_N{1'b0}}, syn_mask_reg} << `SNIC_DP_SYN_CTRL_VIP_MASK_LSB)
                                   | ({31'd0, syn_offer_ws_reg} << `SNIC_DP_SYN_CTRL_OFFER_WSCALE_LSB)
                                   | ({31'd0, syn_offer_sack_reg} << `SNIC_DP_SYN_CTRL_OFFER_SACK_LSB)
                                   | ({31'd0, syn_offer_ts_reg} << `SNIC_DP_SYN_CTRL_OFFER_TS_LSB)
                                   | ({31'd0, syn_epoch_reg} << `SNIC_DP_SYN_CTRL_CUR_EPOCH_LSB)
                                   | ({31'd0, syn_prev_reg} << `SNIC_DP_SYN_CTRL_PREV_VALID_LSB);
localparam integer   SYN_UNITS_I = SYN_UNITS;
localparam [31:0]    SYN_PARAMS = {24'd0, SYN_UNITS_I[7:0]} << `SNIC_DP_SYN_PARAMS_UNITS_LSB;
reg                  key_wr_reg = 1'b0;
reg                  key_slot_reg = 1'b0;
// ACK validator (DP.ACK_CTRL, FREE_*)
reg                  ack_en_reg = 1'b0;
wire [VIP_N-1:0]     ack_mask_w = syn_mask_reg & {VIP_N{ack_en_reg}};
reg                  free_push_reg = 1'b0;
reg [23:0]           free_data_reg = 24'd0;
reg                  free_flush_reg = 1'b0;
// Decision supply (DP.SCHED_*; sched_unit, docs/sched-unit.md)
localparam SCHED_AW = 13;
localparam SCHED_PW = 3;
reg [SCHED_AW-1:0]   sch_tbl_addr_reg = {SCHED_AW{1'b0}};
reg                  sch_tbl_wr_reg = 1'b0;
reg [7:0]            sch_tbl_data_reg = 8'd0;
reg [SCHED_AW-1:0]   sch_tbl_wr_addr_reg = {SCHED_AW{1'b0}};
reg [63:0]           sch_mask_reg = 64'd0;
reg                  sch_mask_wr_reg = 1'b0;
reg [SCHED_PW-1:0]   sch_mask_pool_reg = {SCHED_PW{1'b0}};
reg [SCHED_AW-1:0]   sch_base_reg = {SCHED_AW{1'b0}}, sch_last_reg = {SCHED_AW{1'b0}};
reg [SCHED_AW-1:0]   sch_loop_reg = {SCHED_AW{1'b0}}, sch_ptr_reg = {SCHED_AW{1'b0}};
reg                  sch_commit_reg = 1'b0;
reg [SCHED_PW-1:0]   sch_c_pool_reg = {SCHED_PW{1'b0}};
reg [`SNIC_SCHED_MODE_W-1:0] sch_c_mode_reg = {`SNIC_SCHED_MODE_W{1'b0}};
reg                  sch_c_fb_reg = 1'b0, sch_c_hp_reg = 1'b0, sch_c_setptr_reg = 1'b0;
reg [SCHED_PW-1:0]   sch_ptr_pool_reg = {SCHED_PW{1'b0}};
reg [31:0]           sch_req_client_reg = 32'd0;
reg                  sch_req_valid_reg = 1'b0;
reg [26:0]           sch_req_reg = 27'd0;
reg                  sch_req_tag_reg = 1'b0;     // toggles per request: a late answer is not taken for the next
reg                  sch_rsp_done_reg = 1'b0;
reg [`SNIC_SCHED_STATUS_W-1:0] sch_rsp_status_reg = {`SNIC_SCHED_STATUS_W{1'b0}};
reg [5:0]            sch_rsp_server_reg = 6'd0;
reg [31:0]           sch_picks_reg = 32'd0, sch_nones_reg = 32'd0, sch_punts_reg = 32'd0;
// Least-load decision supply (DP.LOAD_*; load_sched, docs/load-sched.md)
localparam LOAD_CW = `SNIC_LOAD_COUNT_BITS;
reg [15:0]           ld_weight_reg = 16'd0;
reg [5:0]            ld_rank_reg = 6'd0;
reg                  ld_live_reg = 1'b0;
reg [LOAD_CW+1:0]    ld_upper_reg = {LOAD_CW+2{1'b0}}, ld_lower_reg = {LOAD_CW+2{1'b0}};
reg [LOAD_CW-1:0]    ld_act_reg = {LOAD_CW{1'b0}}, ld_inact_reg = {LOAD_CW{1'b0}};
reg                  ld_ovl_reg = 1'b0;
reg                  ld_op_valid_reg = 1'b0;
reg [`SNIC_LOAD_OP_W-1:0] ld_code_reg = {`SNIC_LOAD_OP_W{1'b0}};
reg                  ld_flag_reg = 1'b0;
reg [SCHED_PW-1:0]   ld_op_pool_reg = {SCHED_PW{1'b0}};
reg [5:0]            ld_slot_reg = 6'd0;
reg                  ld_pool_wr_reg = 1'b0;
reg [SCHED_PW-1:0]   ld_d_pool_reg = {SCHED_PW{1'b0}};
reg [`SNIC_LOAD_MODE_W-1:0] ld_d_mode_reg = {`SNIC_LOAD_MODE_W{1'b0}};
reg [4:0]            ld_d_beats_reg = 5'd0;
reg                  ld_done_reg = 1'b0, ld_under_reg = 1'b0;
reg [`SNIC_LOAD_STATUS_W-1:0] ld_status_reg = {`SNIC_LOAD_STATUS_W{1'b0}};
reg [5:0]            ld_server_reg = 6'd0;
reg [31:0]           ld_rd_counts_reg = 32'd0;
reg [31:0]           ld_picks_reg = 32'd0, ld_nones_reg = 32'd0, ld_punts_reg = 32'd0;
reg [31:0]           ld_unders_reg = 32'd0, ld_refused_reg = 32'd0;
// High-water marks (DP.FREE_LOW, DP.PUNT_HIGH)
reg [15:0]           free_low_reg = 16'd0;
reg                  free_low_armed_reg = 1'b0;
reg                  free_low_restart_reg = 1'b0;
reg [15:0]           punt_high_reg = 16'd0;
reg                  punt_high_restart_reg = 1'b0;
reg [47:0]           cycles_reg = 48'd0;
wire [31:0]          now = cycles_reg[47:16];

always @(posedge clk) begin
    cycles_reg <= cycles_reg + 1'b1;
    if (rst) begin
        cycles_reg <= 48'd0;
    end
end

// ---------------------------------------------------------------------------------------
// Per-port ingress: guard, parser, frame FIFO, header FIFO

wire [2*DW-1:0]     rx_tdata = {s_axis_s_tdata, s_axis_c_tdata};
wire [2*KW-1:0]     rx_tkeep = {s_axis_s_tkeep, s_axis_c_tkeep};
wire [1:0]          rx_tvalid = {s_axis_s_tvalid, s_axis_c_tvalid};
wire [1:0]          rx_tlast = {s_axis_s_tlast, s_axis_c_tlast};
wire [1:0]          rx_tuser = {s_axis_s_tuser, s_axis_c_tuser};
wire [1:0]          rx_tready;
assign s_axis_c_tready = rx_tready[0];
assign s_axis_s_tready = rx_tready[1];

wire [63:0]         oversize;
wire [2*DW-1:0]     df_tdata;
wire [2*KW-1:0]     df_tkeep;
wire [1:0]          df_tvalid;
wire [1:0]          df_tready;
wire [1:0]          df_tlast;
wire [1:0]          df_tuser;
wire [2*HDR_W-1:0]  hq_data;
wire [1:0]          hq_valid;
wire [1:0]          hq_ready;
// the client port's SYNs (syn_cand) also go to the SYN responder's side FIFO
wire                sq_ready;
wire                h_syn_c;
wire [47:0]         h_esrc_c;
wire [5:0]          h_olen_c;
wire [319:0]        h_opt_c;

// the server port's SYN-ACKs (synack_cand) go to the absorber's side FIFO: their options
// as synack_opts recognises them {ok, MSS, WS, shift, SACK-permitted, TS, TSval}
localparam AQ_W = 1 + 16 + 1 + 8 + 1 + 1 + 32;
wire                aq_ready;
// a SYN-ACK's side entry is there by the time it reaches S7 (written as its header left the
// parser): the FIFO's valid is not needed
// verilator lint_off UNUSEDSIGNAL
wire                aq_valid;
// verilator lint_on UNUSEDSIGNAL
wire                h_sa_s;
wire [AQ_W-1:0]     h_sa_opts_s, aq_data;
wire                aq_take;

// A server-port segment with SYN and ACK that the parser took: the same test on the
// parser's output and in S6, so the absorber's side FIFO and the decisions pair one to one.
// verilator lint_off UNUSED
function synack_cand(input [3:0] reason, input [7:0] proto, input [8:0] flags);
    synack_cand = reason == `SNIC_PARSER_REASON_OK && proto == 8'd6 && flags[1] && flags[4];
endfunction
// verilator lint_on UNUSED

// A segment that may be answered by the SYN responder (a SYN without ACK that the parser
// took): the same test on the parser's output and in S6, so the side FIFO and the verdicts
// pair one to one.
// verilator lint_off UNUSED
function syn_cand(input [3:0] reason, input [7:0] proto, input [8:0] flags);
    syn_cand = reason == `SNIC_PARSER_REASON_OK && proto == 8'd6 && flags[1] && !flags[4];
endfunction
// verilator lint_on UNUSED

genvar gp;
generate
for (gp = 0; gp < 2; gp = gp + 1) begin : g_in
    wire [DW-1:0] g_tdata;
    wire [KW-1:0] g_tkeep;
    wire          g_tvalid, g_tready, g_tlast, g_tuser;
    wire [DW-1:0] p_tdata;
    wire [KW-1:0] p_tkeep;
    wire          p_tvalid, p_tready, p_tlast, p_tuser;
    wire          h_valid, h_ready;
    wire [3:0]    h_reason;
    wire [15:0]   h_etype;
    wire [7:0]    h_proto;
    wire [31:0]   h_src, h_dst, h_seq, h_ack;
    wire [15:0]   h_sport, h_dport, h_plen, h_flen;
    wire [8:0]    h_flags;
    wire [7:0]    h_l3, h_l4, h_pay;
    wire [3:0]    h_ihl, h_doff;
    wire          h_vlan;
    // verilator lint_off UNUSED
    wire [47:0]   h_esrc;   // the SYN responder's fields: the client port's only
    wire [5:0]    h_olen;
    wire [319:0]  h_opt;
    // verilator lint_on UNUSED
    wire          hf_ready;
    wire [DW+KW+1:0] f_out;

    axis_len_guard #(
        .DATA_WIDTH(DW),
        .MAX_BYTES(MAX_FRAME)
    )
    guard_inst (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(rx_tdata[gp*DW +: DW]),
        .s_axis_tkeep(rx_tkeep[gp*KW +: KW]),
        .s_axis_tvalid(rx_tvalid[gp]),
        .s_axis_tready(rx_tready[gp]),
        .s_axis_tlast(rx_tlast[gp]),
        .s_axis_tuser(rx_tuser[gp]),
        .m_axis_tdata(g_tdata),
        .m_axis_tkeep(g_tkeep),
        .m_axis_tvalid(g_tvalid),
        .m_axis_tready(g_tready),
        .m_axis_tlast(g_tlast),
        .m_axis_tuser(g_tuser),
        .stat_cut(oversize[gp*32 +: 32])
    );

    // verilator lint_off PINCONNECTEMPTY
    eth_tcp_parser #(
        .DATA_WIDTH(DW)
    )
    parser_inst (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(g_tdata),
        .s_axis_tkeep(g_tkeep),
        .s_axis_tvalid(g_tvalid),
        .s_axis_tready(g_tready),
        .s_axis_tlast(g_tlast),
        .s_axis_tuser(g_tuser),
        .m_axis_tdata(p_tdata),
        .m_axis_tkeep(p_tkeep),
        .m_axis_tvalid(p_tvalid),
        .m_axis_tready(p_tready),
        .m_axis_tlast(p_tlast),
        .m_axis_tuser(p_tuser),
        .m_hdr_valid(h_valid),
        .m_hdr_ready(h_ready),
        .m_hdr_reason(h_reason),
        .m_hdr_ok(),
        .m_hdr_other(),
        .m_hdr_malformed(),
        .m_hdr_eth_dst(),
        .m_hdr_eth_src(h_esrc),
        .m_hdr_vlan(h_vlan),
        .m_hdr_vlan_tci(),
        .m_hdr_eth_type(h_etype),
        .m_hdr_ip_version(),
        .m_hdr_ip_ihl(h_ihl),
        .m_hdr_ip_tos(),
        .m_hdr_ip_length(),
        .m_hdr_ip_id(),
        .m_hdr_ip_flags(),
        .m_hdr_ip_frag_offset(),
        .m_hdr_ip_ttl(),
        .m_hdr_ip_protocol(h_proto),
        .m_hdr_ip_checksum(),
        .m_hdr_ip_src(h_src),
        .m_hdr_ip_dst(h_dst),
        .m_hdr_tcp_src_port(h_sport),
        .m_hdr_tcp_dst_port(h_dport),
        .m_hdr_tcp_seq(h_seq),
        .m_hdr_tcp_ack(h_ack),
        .m_hdr_tcp_data_offset(h_doff),
        .m_hdr_tcp_flags(h_flags),
        .m_hdr_tcp_window(),
        .m_hdr_tcp_checksum(),
        .m_hdr_tcp_urgent(),
        .m_hdr_tcp_opt_len(h_olen),
        .m_hdr_tcp_options(h_opt),
        .m_hdr_l3_offset(h_l3),
        .m_hdr_l4_offset(h_l4),
        .m_hdr_payload_offset(h_pay),
        .m_hdr_payload_len(h_plen),
        .m_hdr_frame_len(h_flen),
        .stat_event()
    );
    // verilator lint_on PINCONNECTEMPTY

    // verilator lint_off PINCONNECTEMPTY
    dp_fifo #(
        .WIDTH(DW + KW + 2),
        .DEPTH(FIFO_BEATS)
    )
    frame_fifo_inst (
        .clk(clk),
        .rst(rst),
        .s_data({p_tuser, p_tlast, p_tkeep, p_tdata}),
        .s_valid(p_tvalid),
        .s_ready(p_tready),
        .m_data(f_out),
        .m_valid(df_tvalid[gp]),
        .m_ready(df_tready[gp]),
        .count()
    );

    dp_fifo #(
        .WIDTH(HDR_W),
        .DEPTH(4)
    )
    hdr_fifo_inst (
        .clk(clk),
        .rst(rst),
        .s_data({h_vlan, h_doff, h_ihl, h_flen, h_plen, h_pay, h_l4, h_l3, h_flags, h_ack,
                 h_seq, h_dport, h_sport, h_dst, h_src, h_proto, h_etype, h_reason}),
        .s_valid(h_valid && h_ready),
        .s_ready(hf_ready),
        .m_data(hq_data[gp*HDR_W +: HDR_W]),
        .m_valid(hq_valid[gp]),
        .m_ready(hq_ready[gp]),
        .count()
    );
    // verilator lint_on PINCONNECTEMPTY
    if (gp == 0) begin : g_syn
        // the client port: a SYN waits for room in the side FIFO too
        wire syn = syn_cand(h_reason, h_proto, h_flags);
        assign h_ready = hf_ready && (!syn || sq_ready);
        assign h_syn_c = h_valid && h_ready && syn;
        assign h_esrc_c = h_esrc;
        assign h_olen_c = h_olen;
        assign h_opt_c = h_opt;
    end else begin : g_synack
        // the server port: a SYN-ACK waits for room in the absorber's side FIFO too
        wire sa = synack_cand(h_reason, h_proto, h_flags);
        wire          o_ok, o_ws, o_sackp, o_ts;
        wire [15:0]   o_mss;
        wire [7:0]    o_shift;
        wire [31:0]   o_tsval;
        synack_opts synack_opts_inst (
            .opt_len(h_olen),
            .opt(h_opt),
            .ok(o_ok),
            .mss(o_mss),
            .ws(o_ws),
            .ws_shift(o_shift),
            .sack_perm(o_sackp),
            .ts(o_ts),
            .tsval(o_tsval)
        );
        assign h_ready = hf_ready && (!sa || aq_ready);
        assign h_sa_s = h_valid && h_ready && sa;
        assign h_sa_opts_s = {o_ok, o_mss, o_ws, o_shift, o_sackp, o_ts, o_tsval};
    end

    assign df_tdata[gp*DW +: DW] = f_out[DW-1:0];
    assign df_tkeep[gp*KW +: KW] = f_out[DW +: KW];
    assign df_tlast[gp] = f_out[DW+KW];
    assign df_tuser[gp] = f_out[DW+KW+1];
end
endgenerate

// ---------------------------------------------------------------------------------------
// Decision pipeline

wire [5:0]         dq_count0, dq_count1;
reg  [INFL_W-1:0]  infl_reg [0:1];
wire [1:0]         credit;
assign credit[0] = {1'b0, dq_count0} + {2'b0, infl_reg[0]} < DEC_DEPTH;
assign credit[1] = {1'b0, dq_count1} + {2'b0, infl_reg[1]} < DEC_DEPTH;

reg  s0_last_reg = 1'b1;
wire [1:0] cand = hq_valid & credit;
wire s0_port = s0_last_reg ? (cand[0] || !cand[1] ? 1'b0 : 1'b1)
                           : (cand[1] || !cand[0] ? 1'b1 : 1'b0);
wire s0_valid = cand[s0_port];
wire [HDR_W-1:0] s0_hdr = s0_port ? hq_data[HDR_W +: HDR_W] : hq_data[0 +: HDR_W];
assign hq_ready = {s0_valid && s0_port, s0_valid && !s0_port};

wire       cls_valid;
wire [1:0] cls_class;
wire [2:0] cls_why;
wire [2:0] cls_kind;
wire [3:0] cls_index;

// verilator lint_off PINCONNECTEMPTY
tcp_classifier #(
    .VIP_ENTRIES(VIP_N),
    .LOCAL_ENTRIES(LOCAL_N),
    .INDEX_WIDTH(4)
)
cls_inst (
    .clk(clk),
    .rst(rst),
    .s_hdr_valid(s0_valid),
    .s_hdr_ready(),
    .s_hdr_reason(s0_hdr[H_REASON +: 4]),
    .s_hdr_eth_type(s0_hdr[H_ETYPE +: 16]),
    .s_hdr_ip_protocol(s0_hdr[H_PROTO +: 8]),
    .s_hdr_ip_dst(s0_hdr[H_DST +: 32]),
    .s_hdr_tcp_dst_port(s0_hdr[H_DPORT +: 16]),
    .s_hdr_tcp_flags(s0_hdr[H_FLAGS +: 9]),
    .s_hdr_payload_len(s0_hdr[H_PLEN +: 16]),
    .m_cls_valid(cls_valid),
    .m_cls_ready(1'b1),
    .m_cls_class(cls_class),
    .m_cls_why(cls_why),
    .m_cls_kind(cls_kind),
    .m_cls_index(cls_index),
    .cfg_vip_enable(vip_en_reg),
    .cfg_vip_addr(vip_addr_reg),
    .cfg_vip_port(vip_port_reg),
    .cfg_local_enable(local_en_reg),
    .cfg_local_addr(local_addr_reg),
    .cfg_punt(punt_policy_reg)
);
// verilator lint_on PINCONNECTEMPTY

// S1: header beside the classifier result
reg              d1_valid_reg = 1'b0;
reg              d1_port_reg = 1'b0;
reg [HDR_W-1:0]  d1_hdr_reg = {HDR_W{1'b0}};

// The data registers of the decision pipeline (S1..S7) are loaded only with a valid header:
// nothing reads them otherwise (the flow lookup result for a header is used only with it).
always @(posedge clk) begin
    d1_valid_reg <= s0_valid;
    if (s0_valid) begin
        d1_port_reg <= s0_port;
        d1_hdr_reg <= s0_hdr;
        s0_last_reg <= s0_port;
    end
    if (rst) begin
        d1_valid_reg <= 1'b0;
        s0_last_reg <= 1'b1;
    end
end

wire d1_lookup = d1_valid_reg && cls_valid &&
                 (cls_class == `SNIC_FRAME_CLASS_VIP || cls_class == `SNIC_FRAME_CLASS_SERVER);

// flow table
wire                   lk_valid, lk_hit, lk_dir;
wire [15:0]            lk_value;
reg                    ft_cmd_valid_reg = 1'b0;
wire                   ft_cmd_ready;
reg  [1:0]             ft_cmd_op_reg = 2'd0;
reg  [`SNIC_FLOW_KEY_W-1:0] ft_key_reg = {`SNIC_FLOW_KEY_W{1'b0}};
reg  [16:0]            ft_value_reg = 17'd0;
wire                   ft_rsp_valid;
wire [1:0]             ft_rsp_status;
wire [15:0]            ft_rsp_value;
wire                   ft_rsp_dir;
wire [BUCKET_BITS-1:0] ft_rsp_bucket;
wire [WAY_BITS-1:0]    ft_rsp_way;
wire                   ft_init_done;
wire [31:0]            ft_entries, ft_inserts, ft_deletes, ft_exists, ft_full, ft_nf;

// The flow table's command port is shared by the firmware (FLOW.CMD) and the ACK
// validator (cmd_arb): one command at a time; when both wait, the firmware's goes first. A
// response goes to the master whose command was taken.
wire                   av_ft_valid;
wire [1:0]             av_ft_op;
wire [`SNIC_FLOW_KEY_W-1:0] av_ft_key;
wire [15:0]            av_ft_value;
wire                   ft_m_ready;
wire                   ft_m_valid;
wire                   av_ft_ready;
wire                   ft_rsp_fw, ft_rsp_eng;
wire [1:0]             ft_m_op;
wire [`SNIC_FLOW_KEY_W-1:0] ft_m_key;
wire [16:0]            ft_m_value;
cmd_arb #(
    .WIDTH(2 + `SNIC_FLOW_KEY_W + 17)
)
ft_arb_inst (
    .clk(clk),
    .rst(rst),
    .a_valid(ft_cmd_valid_reg),
    .a_ready(ft_cmd_ready),
    .a_data({ft_cmd_op_reg, ft_key_reg, ft_value_reg}),
    .b_valid(eng_ft_valid),
    .b_ready(eng_ft_ready),
    .b_data({eng_ft_op, eng_ft_key, 1'b0, eng_ft_value}),
    .m_valid(ft_m_valid),
    .m_ready(ft_m_ready),
    .m_data({ft_m_op, ft_m_key, ft_m_value}),
    .rsp_valid(ft_rsp_valid),
    .rsp_a(ft_rsp_fw),
    .rsp_b(ft_rsp_eng)
);

// The engine's side of the flow-table port: the ACK validator first, then the aging
// scanner's free (its key DELETEs, docs/aging.md); the response goes to the one whose
// command was taken.
wire                   eng_ft_valid, eng_ft_ready;
wire [1:0]             eng_ft_op;
wire [`SNIC_FLOW_KEY_W-1:0] eng_ft_key;
wire [15:0]            eng_ft_value;
wire                   ft_rsp_av, ft_rsp_age;
wire                   age_ft_valid, age_ft_ready;
wire [1:0]             age_ft_op;
wire [`SNIC_FLOW_KEY_W-1:0] age_ft_key;
cmd_arb #(
    .WIDTH(2 + `SNIC_FLOW_KEY_W + 16)
)
ft_eng_arb_inst (
    .clk(clk),
    .rst(rst),
    .a_valid(av_ft_valid),
    .a_ready(av_ft_ready),
    .a_data({av_ft_op, av_ft_key, av_ft_value}),
    .b_valid(age_ft_valid),
    .b_ready(age_ft_ready),
    .b_data({age_ft_op, age_ft_key, 16'd0}),
    .m_valid(eng_ft_valid),
    .m_ready(eng_ft_ready),
    .m_data({eng_ft_op, eng_ft_key, eng_ft_value}),
    .rsp_valid(ft_rsp_eng),
    .rsp_a(ft_rsp_av),
    .rsp_b(ft_rsp_age)
);

// verilator lint_off PINCONNECTEMPTY
flow_table #(
    .BUCKETS(FLOW_BUCKETS),
    .WAYS(FLOW_WAYS),
    .VALUE_WIDTH(16)
)
flow_table_inst (
    .clk(clk),
    .rst(rst),
    .s_lookup_valid(d1_lookup),
    .s_lookup_ready(),
    .s_lookup_key(snic_flow_key_pack(d1_hdr_reg[H_DPORT +: 16], d1_hdr_reg[H_SPORT +: 16],
                                     d1_hdr_reg[H_DST +: 32], d1_hdr_reg[H_SRC +: 32])),
    .m_lookup_valid(lk_valid),
    .m_lookup_ready(1'b1),
    .m_lookup_hit(lk_hit),
    .m_lookup_value(lk_value),
    .m_lookup_dir(lk_dir),
    .m_lookup_bucket(),
    .cmd_valid(ft_m_valid),
    .cmd_ready(ft_m_ready),
    .cmd_op(ft_m_op),
    .cmd_key(ft_m_key),
    .cmd_value(ft_m_value[15:0]),
    .cmd_dir(ft_m_value[16]),
    .rsp_valid(ft_rsp_valid),
    .rsp_status(ft_rsp_status),
    .rsp_value(ft_rsp_value),
    .rsp_dir(ft_rsp_dir),
    .rsp_bucket(ft_rsp_bucket),
    .rsp_way(ft_rsp_way),
    .init_done(ft_init_done),
    .stat_entries(ft_entries),
    .stat_inserts(ft_inserts),
    .stat_deletes(ft_deletes),
    .stat_exists(ft_exists),
    .stat_bucket_full(ft_full),
    .stat_not_found(ft_nf)
);
// verilator lint_on PINCONNECTEMPTY

// S1..S4 delay line (flow lookup latency 4): {lookup issued, cls, port, valid, hdr}
localparam P_W = HDR_W + 1 + 1 + 12 + 1;
reg [P_W-1:0] dl_reg [0:3];
integer di;
initial begin
    for (di = 0; di < 4; di = di + 1) begin
        dl_reg[di] = {P_W{1'b0}};
    end
end

always @(posedge clk) begin
    dl_reg[0][HDR_W] <= d1_valid_reg && cls_valid;
    if (d1_valid_reg && cls_valid) begin
        dl_reg[0] <= {d1_lookup, cls_index, cls_kind, cls_why, cls_class, d1_port_reg, 1'b1,
                      d1_hdr_reg};
    end
    for (di = 1; di < 4; di = di + 1) begin
        dl_reg[di][HDR_W] <= dl_reg[di-1][HDR_W];
        if (dl_reg[di-1][HDR_W]) begin
            dl_reg[di] <= dl_reg[di-1];
        end
    end
    if (rst) begin
        for (di = 0; di < 4; di = di + 1) begin
            dl_reg[di][HDR_W] <= 1'b0;
        end
    end
end

wire [P_W-1:0] d5 = dl_reg[3];
wire d5_valid = d5[HDR_W];
wire d5_looked = d5[P_W-1];
wire d5_hit = d5_looked && lk_valid && lk_hit;

// flow state memory
reg                     fs_cmd_valid_reg = 1'b0;
wire                    fs_cmd_ready;
reg  [1:0]              fs_cmd_op_reg = 2'd0;
reg  [SLOT_BITS-1:0]    fs_slot_reg = {SLOT_BITS{1'b0}};
// FLOW.STATE_STATIC words (the record's FS_W bits, then the last word's unused bits)
reg  [FSR_W-1:0]        fs_static_reg = {FSR_W{1'b0}};
// FLOW.STATE_DYN words (the record's FD_W bits, then the last word's unused bits)
reg  [FDR_W-1:0]        fs_dyn_reg = {FDR_W{1'b0}};
wire                    fs_rsp_valid;
wire [FS_W-1:0]         fs_rsp_static;
wire [FD_W-1:0]         fs_rsp_dyn;
wire                    fs_rd_resp_valid;
wire [FS_W-1:0]         st;
// a forwarded segment's flow update: {the entry's ACTIVE flag, its real server, ack
// translated, ACK, FIN end, FIN, slot, port, frame length, time}
localparam UPD_W = 1 + RS_W + 32 + 1 + 32 + 1 + SLOT_BITS + 1 + 16 + 32;
wire                    upd_valid, upd_ready;
wire [UPD_W-1:0]        upd_data;

// The flow-state command port, shared like the flow table's (cmd_arb; the engine writes
// the static words of a slot it hands over and reads a found slot's generation; the
// dynamic words are the firmware's).
wire                    av_fs_valid;
wire [SLOT_BITS-1:0]    av_fs_slot;
wire [FS_W-1:0]         av_fs_static;
wire [1:0]              av_fs_op;
wire                    fs_m_ready;
wire                    fs_m_valid;
wire                    av_fs_ready;
wire                    fs_rsp_fw, fs_rsp_eng;
wire [1:0]              fs_m_op;
wire [SLOT_BITS-1:0]    fs_m_slot;
wire [FS_W-1:0]         fs_m_static;
cmd_arb #(
    .WIDTH(2 + SLOT_BITS + FS_W)
)
fs_arb_inst (
    .clk(clk),
    .rst(rst),
    .a_valid(fs_cmd_valid_reg),
    .a_ready(fs_cmd_ready),
    .a_data({fs_cmd_op_reg, fs_slot_reg, fs_static_reg[FS_W-1:0]}),
    .b_valid(eng_fs_valid),
    .b_ready(eng_fs_ready),
    .b_data({eng_fs_op, eng_fs_slot, eng_fs_static}),
    .m_valid(fs_m_valid),
    .m_ready(fs_m_ready),
    .m_data({fs_m_op, fs_m_slot, fs_m_static}),
    .rsp_valid(fs_rsp_valid),
    .rsp_a(fs_rsp_fw),
    .rsp_b(fs_rsp_eng)
);

// The engine's side of the flow-state port: the ACK validator first, then the SYN-ACK
// absorber, then the aging scanner (its READs, docs/aging.md, only in a cycle with no flow
// update waiting); the response goes to the one whose command was taken.
wire                    eng_fs_valid, eng_fs_ready;
wire [1:0]              eng_fs_op;
wire [SLOT_BITS-1:0]    eng_fs_slot;
wire [FS_W-1:0]         eng_fs_static;
wire                    fs_rsp_av, fs_rsp_age;
wire                    age_fs_valid, age_fs_ready;
wire [1:0]              age_fs_op;
wire [SLOT_BITS-1:0]    age_fs_slot;
wire [FS_W-1:0]         age_fs_static;
cmd_arb #(
    .WIDTH(2 + SLOT_BITS + FS_W)
)
fs_eng_arb_inst (
    .clk(clk),
    .rst(rst),
    .a_valid(av_fs_valid),
    .a_ready(av_fs_ready),
    .a_data({av_fs_op, av_fs_slot, av_fs_static}),
    // the scanner's commands (its READs, a free's WRITE_STATIC) wait for a cycle without a
    // flow update waiting: a command takes an update-pipeline slot, and with the updates at
    // one a cycle (DATA_WIDTH 512, minimum frames on both ports) a command there would cost
    // an update (DP.UPD_DROPS)
    .b_valid(eng2_fs_valid),
    .b_ready(eng2_fs_ready),
    .b_data({eng2_fs_op, eng2_fs_slot, eng2_fs_static}),
    .m_valid(eng_fs_valid),
    .m_ready(eng_fs_ready),
    .m_data({eng_fs_op, eng_fs_slot, eng_fs_static}),
    .rsp_valid(fs_rsp_eng),
    .rsp_a(fs_rsp_av),
    .rsp_b(fs_rsp_eng2)
);

// behind the validator: the SYN-ACK absorber, then the aging scanner
wire                    eng2_fs_valid, eng2_fs_ready, fs_rsp_eng2;
wire [1:0]              eng2_fs_op;
wire [SLOT_BITS-1:0]    eng2_fs_slot;
wire [FS_W-1:0]         eng2_fs_static;
cmd_arb #(
    .WIDTH(2 + SLOT_BITS + FS_W)
)
fs_eng2_arb_inst (
    .clk(clk),
    .rst(rst),
    .a_valid(ab_fs_valid),
    .a_ready(ab_fs_ready),
    .a_data({ab_fs_op, ab_fs_slot, ab_fs_static}),
    .b_valid(age_fs_valid && !upd_valid),
    .b_ready(age_fs_ready),
    .b_data({age_fs_op, age_fs_slot, age_fs_static}),
    .m_valid(eng2_fs_valid),
    .m_ready(eng2_fs_ready),
    .m_data({eng2_fs_op, eng2_fs_slot, eng2_fs_static}),
    .rsp_valid(fs_rsp_eng2),
    .rsp_a(fs_rsp_ab),
    .rsp_b(fs_rsp_age)
);

// The flows' first FINs (flow_state_mem's fin1, with the update's {ACTIVE, real server}):
// counted per real server for those that were ACTIVE (fin_count; DP.FIN_COUNT), the card's
// side of IPVS's active -> inactive move, with the FIN_RST events off (DP.FIN_CTRL.EVENTS 0)
wire              fin1_valid;
wire [RS_W:0]     fin1_tag;
wire [31:0]       fin_count_rd;
reg               fin_evt_reg = 1'b1;
reg  [RS_W-1:0]   fin_idx_reg = {RS_W{1'b0}};
fin_count #(
    .SERVERS(`SNIC_REAL_SERVERS),
    .RS_W(RS_W)
)
fin_count_inst (
    .clk(clk),
    .rst(rst),
    .inc_valid(fin1_valid && fin1_tag[RS_W]),
    .inc_rs(fin1_tag[RS_W-1:0]),
    .rd_rs(fin_idx_reg),
    .rd_count(fin_count_rd)
);

flow_state_mem #(
    .SLOTS(FLOW_SLOTS),
    .BYTES_WIDTH(16),
    .TAG_WIDTH(1 + RS_W)
)
flow_state_inst (
    .clk(clk),
    .rst(rst),
    .rd_valid(d5_valid && d5_hit),
    .rd_slot(lk_value[SLOT_BITS-1:0]),
    .rd_resp_valid(fs_rd_resp_valid),
    .rd_resp_data(st),
    .upd_valid(upd_valid),
    .upd_ready(upd_ready),
    .upd_slot(upd_data[49 +: SLOT_BITS]),
    .upd_dir(upd_data[48]),
    .upd_bytes(upd_data[32 +: 16]),
    .upd_time(upd_data[0 +: 32]),
    .upd_fin(upd_data[SLOT_BITS + 49]),
    .upd_fin_end(upd_data[SLOT_BITS + 50 +: 32]),
    .upd_ack(upd_data[SLOT_BITS + 82]),
    .upd_ack_x(upd_data[SLOT_BITS + 83 +: 32]),
    .upd_tag(upd_data[UPD_W-1 -: 1 + RS_W]),
    .fin1_valid(fin1_valid),
    .fin1_tag(fin1_tag),
    .cmd_valid(fs_m_valid),
    .cmd_ready(fs_m_ready),
    .cmd_op(fs_m_op),
    .cmd_slot(fs_m_slot),
    .cmd_wdata_static(fs_m_static),
    .cmd_wdata_dyn(fs_dyn_reg[FD_W-1:0]),
    .rsp_valid(fs_rsp_valid),
    .rsp_rdata_static(fs_rsp_static),
    .rsp_rdata_dyn(fs_rsp_dyn)
);

// S6: flow entry beside the header
reg [P_W-1:0] d6_reg = {P_W{1'b0}};
reg           d6_hit_reg = 1'b0;
reg           d6_dir_reg = 1'b0;
reg [15:0]    d6_slot_reg = 16'd0;

always @(posedge clk) begin
    d6_reg[HDR_W] <= d5_valid;
    if (d5_valid) begin
        d6_reg <= d5;
        d6_hit_reg <= d5_hit;
        d6_dir_reg <= lk_dir;
        d6_slot_reg <= lk_value;
    end
    if (rst) begin
        d6_reg[HDR_W] <= 1'b0;
    end
end

wire [HDR_W-1:0] h6 = d6_reg[HDR_W-1:0];
wire       d6_valid = d6_reg[HDR_W];
wire       d6_port = d6_reg[HDR_W+1];
wire [1:0] d6_class = d6_reg[HDR_W+2 +: 2];
wire [2:0] d6_why = d6_reg[HDR_W+4 +: 3];
wire [3:0] d6_index = d6_reg[HDR_W+10 +: 4];
wire [8:0] d6_flags = h6[H_FLAGS +: 9];
wire [15:0] d6_flen = h6[H_FLEN +: 16];

// The decision for the header in S6 (d6: the delay line word, hit/dir/slot: the lookup
// result, st_rd: the flow state read).
// verilator lint_off UNUSED
function [DEC_W-1:0] decide(input [P_W-1:0] d6, input hit, input dir, input [15:0] slot,
                            input [FS_W-1:0] st_rd, input fastpath, input [47:0] mac_c,
                            input [47:0] mac_s, input [31:0] t_now,
                            input [VIP_N-1:0] syn_mask, input [VIP_N-1:0] ack_mask,
                            input abs_en);
    reg [HDR_W-1:0] hd;
    reg         port;
    reg [1:0]   cls;
    reg [2:0]   why, kind;
    reg [3:0]   index;
    reg [8:0]   flags;
    // flow entry fields (record FlowStatic); zero when the lookup missed
    reg [FS_W-1:0] fe;
    reg [`SNIC_FLOW_STATIC_STATE_W-1:0] fe_state;
    reg [`SNIC_FLOW_STATIC_FLAGS_W-1:0] fe_flags;
    reg [`SNIC_FLOW_STATIC_WSCALE_DIFF_W-1:0] fe_wsd, wsd_neg;
    reg [`SNIC_FLOW_STATIC_TS_OFFSET_W-1:0] fe_ts;
    reg [`SNIC_FLOW_STATIC_SEQ_DELTA_CS_W-1:0] fe_dcs;
    reg [`SNIC_FLOW_STATIC_SEQ_DELTA_SC_W-1:0] fe_dsc;
    // destination half (record FlowHalfEntry): server half for port C, client half for
    // port S
    reg [HALF_W-1:0] fe_h;
    reg         is_tcp_cls, spliced, fwd, l7, syn_hw, ack_hw, abs_hw;
    reg [1:0]   act;
    reg [META_W-1:0] meta;
    begin
        hd = d6[HDR_W-1:0];
        port = d6[HDR_W+1];
        cls = d6[HDR_W+2 +: 2];
        why = d6[HDR_W+4 +: 3];
        kind = d6[HDR_W+7 +: 3];
        index = d6[HDR_W+10 +: 4];
        flags = hd[H_FLAGS +: 9];
        fe = hit ? st_rd : {FS_W{1'b0}};
        fe_state = `SNIC_FLOW_STATIC_STATE(fe);
        fe_flags = `SNIC_FLOW_STATIC_FLAGS(fe);
        fe_wsd = `SNIC_FLOW_STATIC_WSCALE_DIFF(fe);
        fe_ts = `SNIC_FLOW_STATIC_TS_OFFSET(fe);
        fe_dcs = `SNIC_FLOW_STATIC_SEQ_DELTA_CS(fe);
        fe_dsc = `SNIC_FLOW_STATIC_SEQ_DELTA_SC(fe);
        fe_h = port ? `SNIC_FLOW_STATIC_CLIENT(fe) : `SNIC_FLOW_STATIC_SERVER(fe);
        is_tcp_cls = cls == `SNIC_FRAME_CLASS_VIP || cls == `SNIC_FRAME_CLASS_SERVER;
        spliced = fe_state == `SNIC_FLOW_STATE_SPLICED || fe_state == `SNIC_FLOW_STATE_CLOSING;
        fwd = fastpath && is_tcp_cls && hit && dir == port && spliced && !flags[1] && !flags[2];
        // a pure SYN to a VIP the SYN responder serves, on no flow, untagged
        syn_hw = !port && syn_cand(hd[H_REASON +: 4], hd[H_PROTO +: 8], flags)
                 && !flags[0] && !flags[2] && cls == `SNIC_FRAME_CLASS_VIP && !hit
                 && !hd[H_VLAN] && syn_mask[index[VIP_B-1:0]];
        // a pure ACK (no SYN, RST or FIN) to a VIP the ACK validator serves, on no flow,
        // untagged: punted with the validator's verdict
        ack_hw = !port && hd[H_REASON +: 4] == `SNIC_PARSER_REASON_OK && hd[H_PROTO +: 8] == 8'd6
                 && flags[4] && !flags[0] && !flags[1] && !flags[2]
                 && cls == `SNIC_FRAME_CLASS_VIP && !hit && !hd[H_VLAN]
                 && ack_mask[index[VIP_B-1:0]];
        // a server's SYN-ACK on the server half of a CONNECTING entry the firmware armed
        // for the absorber (SetupCtx), untagged: punted with the absorber's verdict
        abs_hw = port && abs_en && synack_cand(hd[H_REASON +: 4], hd[H_PROTO +: 8], flags)
                 && cls == `SNIC_FRAME_CLASS_SERVER && hit && dir && !hd[H_VLAN]
                 && fe_state == `SNIC_FLOW_STATE_CONNECTING && `SNIC_SETUP_CTX_ARMED(fe);
        act = fwd ? ACT_FWD : syn_hw ? ACT_SYN
              : (cls == `SNIC_FRAME_CLASS_DROP ? ACT_DROP : ACT_PUNT);
        // request bytes of a flow waiting for them: REQUEST, or HANDSHAKE (the ACK validator's
        // entry, or the firmware's SYN-time one) for the segments right behind the ACK
        l7 = !fwd && is_tcp_cls && hit && !dir && !port && hd[H_PLEN +: 16] != 16'd0
             && (fe_state == `SNIC_FLOW_STATE_REQUEST || fe_state == `SNIC_FLOW_STATE_HANDSHAKE);
        wsd_neg = {`SNIC_FLOW_STATIC_WSCALE_DIFF_W{1'b0}} - fe_wsd;
        meta = snic_punt_meta_pack(port, hd[H_REASON +: 4], cls, why, kind, index, hit, dir, l7,
                                   fe_state, slot, hd[H_PLEN +: 16], hd[H_L3 +: 8],
                                   hd[H_L4 +: 8], hd[H_PAY +: 8], flags[7:0], t_now,
                                   `SNIC_ENGINE_VERDICT_NONE, {`SNIC_COOKIE_MSS_CLASS_BITS{1'b0}},
                                   `SNIC_FLOW_STATIC_GEN(fe));
        decide = {
            port ? abs_hw : ack_hw,
            meta,
            port ? wsd_neg[4:0] : fe_wsd[4:0],
            port ? 32'd0 : 32'd0 - fe_ts,
            port ? fe_ts : 32'd0,
            port ? 32'd0 - fe_dcs : 32'd0 - fe_dsc,
            port ? fe_dsc : fe_dcs,
            `SNIC_FLOW_HALF_ENTRY_PEER_PORT(fe_h), `SNIC_FLOW_HALF_ENTRY_LOCAL_PORT(fe_h),
            `SNIC_FLOW_HALF_ENTRY_PEER_IP(fe_h), `SNIC_FLOW_HALF_ENTRY_LOCAL_IP(fe_h),
            port ? mac_c : mac_s,
            `SNIC_FLOW_HALF_ENTRY_PEER_MAC(fe_h),
            hd[H_DOFF +: 4], hd[H_IHL +: 4], hd[H_L3 +: 8],
            |(fe_flags & `SNIC_ENTRY_FLAGS_WINDOW_RESCALE),
            |(fe_flags & `SNIC_ENTRY_FLAGS_TIMESTAMPS),
            |(fe_flags & `SNIC_ENTRY_FLAGS_SACK), 5'b11111,
            l7, act
        };
    end
endfunction
// verilator lint_on UNUSED

// its action
// verilator lint_off UNUSED
function [1:0] act_of(input [DEC_W-1:0] d);
    act_of = d[D_ACT +: 2];
endfunction
// verilator lint_on UNUSED

// S7: decision registered; push, count, update, event
reg               d7_valid_reg = 1'b0;
reg               d7_port_reg = 1'b0;
reg [DEC_W-1:0]   d7_dec_reg = {DEC_W{1'b0}};
reg [15:0]        d7_flen_reg = 16'd0;
reg               d7_vip_reg = 1'b0;
reg [3:0]         d7_vipidx_reg = 4'd0;
reg [RS_W-1:0]    d7_rs_reg = {RS_W{1'b0}};
reg [STAT_IB-1:0] d7_reason_idx_reg = {STAT_IB{1'b0}};
reg               d7_reason_reg = 1'b0;
reg               d7_evt_reg = 1'b0;
reg               d7_evtq_reg = 1'b0;
reg [EVT_W-1:0]   d7_evt_data_reg = {EVT_W{1'b0}};
reg [UPD_W-1:0]   d7_upd_reg = {UPD_W{1'b0}};
// the SYN responder's verdict for a client-port SYN candidate: {client IP, VIP, ports, ISN}
reg               d7_syn_reg = 1'b0;
reg [127:0]       d7_syn_rec_reg = 128'd0;
// an ACK validator candidate's ack number (the rest of its record is d7_syn_rec_reg)
reg [31:0]        d7_ack_reg = 32'd0;
// a server-port SYN-ACK (its side entry is at the head of the absorber's side FIFO)
reg               d7_sa_reg = 1'b0;

// the decision of the header in S6
wire [DEC_W-1:0] d6_dec = decide(d6_reg, d6_hit_reg, d6_dir_reg, d6_slot_reg, st, fastpath_reg,
                                 mac_c_reg, mac_s_reg, now, syn_mask_reg, ack_mask_w,
                                 abs_en_reg);

always @(posedge clk) begin
    d7_valid_reg <= d6_valid;
    d7_evt_reg <= 1'b0;
    d7_evtq_reg <= 1'b0;
    if (d6_valid) begin
        d7_port_reg <= d6_port;
        d7_dec_reg <= d6_dec;
        d7_flen_reg <= d6_flen;
        d7_vip_reg <= d6_class == `SNIC_FRAME_CLASS_VIP;
        d7_vipidx_reg <= d6_index;
        d7_rs_reg <= d6_hit_reg ? `SNIC_FLOW_STATIC_REAL_SERVER(st) : {RS_W{1'b0}};
        d7_reason_reg <= h6[H_REASON +: 4] != `SNIC_PARSER_REASON_OK ||
                         act_of(d6_dec) == ACT_DROP;
        d7_reason_idx_reg <= h6[H_REASON +: 4] != `SNIC_PARSER_REASON_OK ?
                             SI_REASON | {{STAT_IB-REASON_W{1'b0}}, h6[H_REASON +: 4]} :
                             SI_CLS_DROP | {{STAT_IB-`SNIC_PUNT_WHY_W{1'b0}}, d6_why};
        d7_evt_reg <= act_of(d6_dec) == ACT_FWD &&
                      (d6_flags[0] || d6_flags[2]);
        // to the event queue: a FIN only while DP.FIN_CTRL.EVENTS (the trace ring takes
        // every one, d7_evt_reg)
        d7_evtq_reg <= act_of(d6_dec) == ACT_FWD &&
                       ((d6_flags[0] && fin_evt_reg) || d6_flags[2]);
        d7_evt_data_reg <= snic_evt_fin_rst_pack(`SNIC_EVENT_TYPE_FIN_RST, d6_port,
                                                 d6_flags[7:0], `SNIC_FLOW_STATIC_GEN(st),
                                                 d6_slot_reg,
                                                 h6[H_PLEN +: 16], h6[H_SEQ +: 32],
                                                 h6[H_ACK +: 32]);
        // teardown view (flow_state_mem): the FIN's end in the sender's numbers, the ACK
        // in the other side's (a client's ack less the server-to-client delta, a
        // server's less the client-to-server one)
        d7_upd_reg <= {|(`SNIC_FLOW_STATIC_FLAGS(st) & `SNIC_ENTRY_FLAGS_ACTIVE),
                       `SNIC_FLOW_STATIC_REAL_SERVER(st),
                       h6[H_ACK +: 32] - (d6_port ? `SNIC_FLOW_STATIC_SEQ_DELTA_CS(st)
                                                  : `SNIC_FLOW_STATIC_SEQ_DELTA_SC(st)),
                       d6_flags[4],
                       h6[H_SEQ +: 32] + {16'd0, h6[H_PLEN +: 16]} + 32'd1,
                       d6_flags[0],
                       d6_slot_reg[SLOT_BITS-1:0], d6_port, d6_flen, now};
        d7_syn_rec_reg <= {h6[H_SRC +: 32], h6[H_DST +: 32], h6[H_SPORT +: 16],
                           h6[H_DPORT +: 16], h6[H_SEQ +: 32]};
        d7_ack_reg <= h6[H_ACK +: 32];
    end
    d7_syn_reg <= d6_valid && !d6_port && syn_cand(h6[H_REASON +: 4], h6[H_PROTO +: 8], d6_flags);
    d7_sa_reg <= d6_valid && d6_port && synack_cand(h6[H_REASON +: 4], h6[H_PROTO +: 8], d6_flags);
    if (rst) begin
        d7_sa_reg <= 1'b0;
        d7_valid_reg <= 1'b0;
        d7_evt_reg <= 1'b0;
        d7_evtq_reg <= 1'b0;
        d7_syn_reg <= 1'b0;
    end
end

wire d7_fwd = d7_valid_reg && d7_dec_reg[D_ACT +: 2] == ACT_FWD;

// in-flight headers per port (taken at S0, not yet pushed at S7)
always @(posedge clk) begin
    infl_reg[0] <= infl_reg[0] + {{INFL_W-1{1'b0}}, s0_valid && !s0_port}
                               - {{INFL_W-1{1'b0}}, d7_valid_reg && !d7_port_reg};
    infl_reg[1] <= infl_reg[1] + {{INFL_W-1{1'b0}}, s0_valid && s0_port}
                               - {{INFL_W-1{1'b0}}, d7_valid_reg && d7_port_reg};
    if (rst) begin
        infl_reg[0] <= {INFL_W{1'b0}};
        infl_reg[1] <= {INFL_W{1'b0}};
    end
end
initial begin
    infl_reg[0] = {INFL_W{1'b0}};
    infl_reg[1] = {INFL_W{1'b0}};
end

// ---------------------------------------------------------------------------------------
// SYN responder: the client port's SYN candidates pair with their verdicts in order. A
// candidate's side entry (MAC, options) is written when the parser hands its header over
// (h_syn_c), its verdict at S7; at most SQ_DEPTH + 2 side entries wait, so the verdict
// FIFO, as deep, never refuses one. A verdict of ACT_SYN sends the pair to the responder;
// any other drops the side entry (the frame went its decided way).
localparam SQ_DEPTH = 8;
localparam SQ_W = 48 + 6 + 320;
wire              sq_valid, vq_valid;
wire [SQ_W-1:0]   sq_data;
wire [128:0]      vq_data;
wire              sr_ready;
wire              sv_pair = sq_valid && vq_valid;
wire              sv_answer = vq_data[128];
wire              sv_take = sv_pair && (!sv_answer || sr_ready);
wire [DW-1:0]     sr_tdata;
wire [KW-1:0]     sr_tkeep;
wire              sr_tvalid, sr_tready, sr_tlast, sr_tuser;

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(SQ_W),
    .DEPTH(SQ_DEPTH)
)
syn_side_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data({h_esrc_c, h_olen_c, h_opt_c}),
    .s_valid(h_syn_c),
    .s_ready(sq_ready),
    .m_data(sq_data),
    .m_valid(sq_valid),
    .m_ready(sv_take),
    .count()
);

dp_fifo #(
    .WIDTH(129),
    .DEPTH(SQ_DEPTH)
)
syn_verdict_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data({d7_dec_reg[D_ACT +: 2] == ACT_SYN, d7_syn_rec_reg}),
    .s_valid(d7_syn_reg),
    .s_ready(),
    .m_data(vq_data),
    .m_valid(vq_valid),
    .m_ready(sv_take),
    .count()
);

syn_responder #(
    .DATA_WIDTH(DW),
    .UNITS(SYN_UNITS)
)
syn_resp_inst (
    .clk(clk),
    .rst(rst),
    .s_syn_valid(sv_pair && sv_answer),
    .s_syn_ready(sr_ready),
    .s_syn_eth_src(sq_data[SQ_W-1 -: 48]),
    .s_syn_ip_src(vq_data[127:96]),
    .s_syn_ip_dst(vq_data[95:64]),
    .s_syn_sport(vq_data[63:48]),
    .s_syn_dport(vq_data[47:32]),
    .s_syn_seq(vq_data[31:0]),
    .s_syn_opt_len(sq_data[325:320]),
    .s_syn_opt(sq_data[319:0]),
    .m_axis_tdata(sr_tdata),
    .m_axis_tkeep(sr_tkeep),
    .m_axis_tvalid(sr_tvalid),
    .m_axis_tready(sr_tready),
    .m_axis_tlast(sr_tlast),
    .m_axis_tuser(sr_tuser),
    .cfg_mac(mac_c_reg),
    .cfg_mss(syn_mss_reg),
    .cfg_offer_ws(syn_offer_ws_reg),
    .cfg_offer_sack(syn_offer_sack_reg),
    .cfg_offer_ts(syn_offer_ts_reg),
    .cfg_now(now),
    .key_wr_en(key_wr_reg),
    .key_wr_slot(key_slot_reg),
    .key_wr_data(key_stage_reg),
    .cfg_cur_epoch(syn_epoch_reg),
    .cfg_prev_valid(syn_prev_reg),
    .stat_answered()
);
// verilator lint_on PINCONNECTEMPTY

// ---------------------------------------------------------------------------------------
// ACK validator: a candidate (decide's D_CAND, client port) goes to it at S7; its verdict
// joins the decision at dispatch (the dispatch of a candidate waits for it), in order.
localparam FREE_AW = $clog2(FREE_DEPTH);
wire                    av_res_valid, av_res_ready;
wire [`SNIC_ENGINE_VERDICT_W-1:0] av_res_verdict;
wire [15:0]             av_res_slot;
wire [7:0]              av_res_gen;
wire [`SNIC_COOKIE_MSS_CLASS_BITS-1:0] av_res_mss;
wire                    av_out_valid;
wire [`SNIC_ENGINE_VERDICT_W-1:0] av_out_verdict;
wire [15:0]             av_out_slot;
wire [7:0]              av_out_gen;
wire [FREE_AW+1:0]      av_free_level;
wire [31:0]             av_new, av_found, av_bad, av_stale, av_noslot, av_full, av_refused,
                        av_lost;

// verilator lint_off PINCONNECTEMPTY
ack_validator #(
    .SLOT_BITS(SLOT_BITS),
    .GEN_BITS(8),
    .FREE_DEPTH(FREE_DEPTH),
    .CAND_DEPTH(32),
    .UNITS(2),
    .FS_W(FS_W)
)
ack_valid_inst (
    .clk(clk),
    .rst(rst),
    .s_cand_valid(d7_valid_reg && !d7_port_reg && d7_dec_reg[D_CAND]),
    .s_cand_ready(),
    .s_cand_client_ip(d7_syn_rec_reg[127:96]),
    .s_cand_vip(d7_syn_rec_reg[95:64]),
    .s_cand_client_port(d7_syn_rec_reg[63:48]),
    .s_cand_vip_port(d7_syn_rec_reg[47:32]),
    .s_cand_seq(d7_syn_rec_reg[31:0]),
    .s_cand_ack(d7_ack_reg),
    .m_res_valid(av_res_valid),
    .m_res_ready(av_res_ready),
    .m_res_verdict(av_res_verdict),
    .m_res_slot(av_res_slot),
    .m_res_gen(av_res_gen),
    .m_res_mss(av_res_mss),
    .out_valid(av_out_valid),
    .out_verdict(av_out_verdict),
    .out_slot(av_out_slot),
    .out_gen(av_out_gen),
    .m_ft_valid(av_ft_valid),
    .m_ft_ready(av_ft_ready),
    .m_ft_op(av_ft_op),
    .m_ft_key(av_ft_key),
    .m_ft_value(av_ft_value),
    .ft_rsp_valid(ft_rsp_av),
    .ft_rsp_status(ft_rsp_status),
    .ft_rsp_value(ft_rsp_value),
    .m_fs_valid(av_fs_valid),
    .m_fs_ready(av_fs_ready),
    .m_fs_op(av_fs_op),
    .m_fs_slot(av_fs_slot),
    .m_fs_static(av_fs_static),
    .fs_rsp_valid(fs_rsp_av),
    .fs_rsp_gen(`SNIC_FLOW_STATIC_GEN(fs_rsp_static)),
    .free_push_valid(free_push_reg),
    .free_push_data(free_data_reg),
    .free_flush(free_flush_reg),
    .free_level(av_free_level),
    .key_wr_en(key_wr_reg),
    .key_wr_slot(key_slot_reg),
    .key_wr_data(key_stage_reg),
    .cfg_cur_epoch(syn_epoch_reg),
    .cfg_prev_valid(syn_prev_reg),
    .stat_new(av_new),
    .stat_found(av_found),
    .stat_bad_cookie(av_bad),
    .stat_stale(av_stale),
    .stat_no_slot(av_noslot),
    .stat_table_full(av_full),
    .stat_push_refused(av_refused),
    .stat_cand_lost(av_lost)
);
// verilator lint_on PINCONNECTEMPTY

// ---- aging scanner: a flow-state READ every DP.AGE_CTRL.INTERVAL cycles, expired slots
// queued for the firmware (DP.AGE_*, docs/aging.md) ---------------------------------------
reg                     age_en_reg = 1'b0;
reg                     age_free_reg = 1'b0;
reg  [15:0]             age_interval_reg = `SNIC_AGE_DEFAULT_INTERVAL;
reg  [31:0]             age_limit_reg = 32'd0;
reg                     age_to_wr_reg = 1'b0;
reg  [`SNIC_TIMEOUT_CLASS_W-1:0] age_to_idx_reg = {`SNIC_TIMEOUT_CLASS_W{1'b0}};
reg  [31:0]             age_to_ticks_reg = 32'd0;
reg                     age_pop_reg = 1'b0;
wire                    age_q_valid;
wire [SLOT_BITS-1:0]    age_q_slot;
wire [`SNIC_TIMEOUT_CLASS_W-1:0] age_q_class;
wire                    age_q_freed, age_q_active;
wire [7:0]              age_q_rs;
wire [31:0]             age_q_client;
wire [7:0]              age_q_level;
wire [SLOT_BITS-1:0]    age_pos;
wire [31:0]             age_sweeps, age_expired, age_freed;

aging_scan #(
    .SLOTS(FLOW_SLOTS),
    .DEPTH(`SNIC_AGE_QUEUE_DEPTH)
)
aging_scan_inst (
    .clk(clk),
    .rst(rst),
    .cfg_enable(age_en_reg),
    .cfg_free(age_free_reg),
    .cfg_fin_counted(!fin_evt_reg),
    .cfg_interval(age_interval_reg),
    .cfg_limit(age_limit_reg),
    .cfg_now(now),
    .cfg_to_wr_en(age_to_wr_reg),
    .cfg_to_wr_idx(age_to_idx_reg),
    .cfg_to_wr_ticks(age_to_ticks_reg),
    .m_fs_valid(age_fs_valid),
    .m_fs_ready(age_fs_ready),
    .m_fs_op(age_fs_op),
    .m_fs_slot(age_fs_slot),
    .m_fs_static(age_fs_static),
    .fs_rsp_valid(fs_rsp_age),
    .fs_rsp_static(fs_rsp_static),
    .fs_rsp_dyn(fs_rsp_dyn),
    .m_ft_valid(age_ft_valid),
    .m_ft_ready(age_ft_ready),
    .m_ft_op(age_ft_op),
    .m_ft_key(age_ft_key),
    .ft_rsp_valid(ft_rsp_age),
    .q_valid(age_q_valid),
    .q_pop(age_pop_reg),
    .q_slot(age_q_slot),
    .q_class(age_q_class),
    .q_freed(age_q_freed),
    .q_active(age_q_active),
    .q_rs(age_q_rs),
    .q_client(age_q_client),
    .q_level(age_q_level),
    .stat_pos(age_pos),
    .stat_sweeps(age_sweeps),
    .stat_expired(age_expired),
    .stat_freed(age_freed)
);

// ---- decision supply (sched_unit): the table schedulers' server choice -----------------
// Driven by DP.SCHED_REQ for now; the engine's request buffer and server SYN generator
// will share its request port.
wire                    sch_req_ready;
wire                    sch_rsp_valid;
wire                    sch_rsp_tag;
wire [SCHED_PW-1:0]     sch_rsp_pool;
wire [`SNIC_SCHED_STATUS_W-1:0] sch_rsp_status;
wire [5:0]              sch_rsp_server;
wire [SCHED_AW-1:0]     sch_ptr_value;

// verilator lint_off PINCONNECTEMPTY
sched_unit #(
    .POOLS(1 << SCHED_PW),
    .TBL_AW(SCHED_AW),
    .TAG_WIDTH(1)
)
sched_inst (
    .clk(clk),
    .rst(rst),
    .s_req_valid(sch_req_valid_reg),
    .s_req_ready(sch_req_ready),
    .s_req_pool(sch_req_reg[`SNIC_DP_SCHED_REQ_POOL_LSB +: SCHED_PW]),
    .s_req_client_ip(sch_req_client_reg),
    .s_req_client_port(sch_req_reg[`SNIC_DP_SCHED_REQ_PORT_LSB +: 16]),
    .s_req_dst_ip(sch_req_reg[`SNIC_DP_SCHED_REQ_DST_LSB +: 8]),
    .s_req_tag(sch_req_tag_reg),
    .m_rsp_valid(sch_rsp_valid),
    .m_rsp_ready(1'b1),
    .m_rsp_tag(sch_rsp_tag),
    .m_rsp_pool(sch_rsp_pool),
    .m_rsp_status(sch_rsp_status),
    .m_rsp_server(sch_rsp_server),
    .tbl_wr_en(sch_tbl_wr_reg),
    .tbl_wr_addr(sch_tbl_wr_addr_reg),
    .tbl_wr_data(sch_tbl_data_reg),
    .elig_wr_en(sch_mask_wr_reg),
    .elig_wr_pool(sch_mask_pool_reg),
    .elig_wr_mask(sch_mask_reg),
    .pool_wr_en(sch_commit_reg),
    .pool_wr_pool(sch_c_pool_reg),
    .pool_wr_mode(sch_c_mode_reg),
    .pool_wr_fallback(sch_c_fb_reg),
    .pool_wr_hash_port(sch_c_hp_reg),
    .pool_wr_base(sch_base_reg),
    .pool_wr_last(sch_last_reg),
    .pool_wr_loop(sch_loop_reg),
    .pool_wr_set_ptr(sch_c_setptr_reg),
    .pool_wr_ptr(sch_ptr_reg),
    .ptr_rd_pool(sch_ptr_pool_reg),
    .ptr_rd_value(sch_ptr_value)
);
// verilator lint_on PINCONNECTEMPTY

// ---- decision supply (load_sched): the least-load schedulers' counts and choice ---------
// Driven by DP.LOAD_OP for now (one operation at a time; LOAD_RSP.BUSY while one runs).
wire                    ld_op_ready;
wire                    ld_rsp_valid;
wire [`SNIC_LOAD_STATUS_W-1:0] ld_rsp_status;
wire [5:0]              ld_rsp_server;
wire [LOAD_CW-1:0]      ld_rsp_active, ld_rsp_inactive;
wire                    ld_rsp_ovl;
wire                    ld_ev_pick, ld_ev_none, ld_ev_punt, ld_ev_under;

// verilator lint_off PINCONNECTEMPTY
load_sched #(
    .POOLS(1 << SCHED_PW),
    .CW(LOAD_CW),
    .TAG_WIDTH(1)
)
load_inst (
    .clk(clk),
    .rst(rst),
    .s_op_valid(ld_op_valid_reg),
    .s_op_ready(ld_op_ready),
    .s_op_code(ld_code_reg),
    .s_op_pool(ld_op_pool_reg),
    .s_op_slot(ld_slot_reg),
    .s_op_flag(ld_flag_reg),
    .s_op_tag(1'b0),
    .s_op_live(ld_live_reg),
    .s_op_weight(ld_weight_reg),
    .s_op_rank(ld_rank_reg),
    .s_op_upper(ld_upper_reg),
    .s_op_lower(ld_lower_reg),
    .s_op_active(ld_act_reg),
    .s_op_inactive(ld_inact_reg),
    .s_op_overloaded(ld_ovl_reg),
    .m_rsp_valid(ld_rsp_valid),
    .m_rsp_ready(1'b1),
    .m_rsp_tag(),
    .m_rsp_status(ld_rsp_status),
    .m_rsp_server(ld_rsp_server),
    .m_rsp_active(ld_rsp_active),
    .m_rsp_inactive(ld_rsp_inactive),
    .m_rsp_overloaded(ld_rsp_ovl),
    .m_rsp_live(),
    .m_rsp_weight(),
    .m_rsp_rank(),
    .m_rsp_upper(),
    .m_rsp_lower(),
    .pool_wr_en(ld_pool_wr_reg),
    .pool_wr_pool(ld_d_pool_reg),
    .pool_wr_mode(ld_d_mode_reg),
    .pool_wr_beats_m1(ld_d_beats_reg),
    .ev_pick(ld_ev_pick),
    .ev_none(ld_ev_none),
    .ev_punt(ld_ev_punt),
    .ev_underflow(ld_ev_under)
);
// verilator lint_on PINCONNECTEMPTY
wire ld_busy = ld_op_valid_reg || !ld_op_ready;

// ---- observability (engine_obs): the trace ring of the engine's decisions and the
// setup-latency histogram (DP.TRACE_*, DP.SETUP_*; docs/engine.md)
reg                     trace_en_reg = 1'b1;
reg  [4:0]              hist_idx_reg = 5'd0;
reg  [`SNIC_TRACE_DEPTH_LOG2-1:0] trace_idx_reg = {`SNIC_TRACE_DEPTH_LOG2{1'b0}};
wire [127:0]            tr_entry;
wire [31:0]             tr_count, tr_lost, hist_data, setup_timed, setup_over;
wire                    fs_wr_fire = fs_m_valid && fs_m_ready &&
                                     (fs_m_op == `SNIC_FLOW_OP_WRITE ||
                                      fs_m_op == `SNIC_FLOW_OP_WRITE_STATIC);
// (the client half's peer address and port: the client)
// verilator lint_off UNUSEDSIGNAL
wire [`SNIC_FLOW_HALF_ENTRY_W-1:0] fs_m_client = `SNIC_FLOW_STATIC_CLIENT(fs_m_static);
// verilator lint_on UNUSEDSIGNAL
wire                    trace_rd;
wire [SCHED_PW-1:0]     trace_ld_pool = ld_op_pool_reg;

function [3:0] syn_trace_kind(input [1:0] act);
    syn_trace_kind = act == ACT_SYN ? `SNIC_TRACE_KIND_SYN_ANSWERED
                   : act == ACT_DROP ? `SNIC_TRACE_KIND_SYN_DROPPED
                   : `SNIC_TRACE_KIND_SYN_PUNTED;
endfunction

engine_obs #(
    .SLOT_BITS(SLOT_BITS)
)
obs_inst (
    .clk(clk),
    .rst(rst),
    .cycles(cycles_reg[31:0]),
    .trace_en(trace_en_reg),
    .syn_valid(d7_syn_reg),
    .syn_kind(syn_trace_kind(d7_dec_reg[D_ACT +: 2])),
    .syn_ip(d7_syn_rec_reg[127:96]),
    .syn_port(d7_syn_rec_reg[63:48]),
    // as the validator decides (its FIFO's reads bunch up behind a held dispatch)
    .ack_valid(av_out_valid),
    .ack_verdict(av_out_verdict),
    .ack_slot(av_out_slot),
    .ack_gen(av_out_gen),
    .fs_valid(fs_wr_fire),
    .fs_engine(eng_fs_valid && eng_fs_ready),
    .fs_slot(fs_m_slot),
    .fs_state(`SNIC_FLOW_STATIC_STATE(fs_m_static)),
    .fs_gen(`SNIC_FLOW_STATIC_GEN(fs_m_static)),
    .fs_ip(`SNIC_FLOW_HALF_ENTRY_PEER_IP(fs_m_client)),
    .fs_port(`SNIC_FLOW_HALF_ENTRY_PEER_PORT(fs_m_client)),
    .fin_valid(d7_evt_reg),
    .fin_port(d7_port_reg),
    .fin_flags(`SNIC_EVT_FIN_RST_TCP_FLAGS(d7_evt_data_reg)),
    .fin_slot(`SNIC_EVT_FIN_RST_FLOW_SLOT(d7_evt_data_reg)),
    .fin_gen(`SNIC_EVT_FIN_RST_FLOW_GEN(d7_evt_data_reg)),
    .pick_valid((sch_rsp_valid) ||
                (ld_rsp_valid && ld_code_reg == `SNIC_LOAD_OP_PICK &&
                 ld_rsp_status != `SNIC_LOAD_STATUS_DATA)),
    .pick_detail(sch_rsp_valid
        ? {1'b0, 1'b0, sch_rsp_status, 1'b0, {3-SCHED_PW{1'b0}}, sch_rsp_pool, 2'b00, sch_rsp_server}
        : {1'b1, 1'b0, ld_rsp_status, 1'b0, {3-SCHED_PW{1'b0}}, trace_ld_pool, 2'b00, ld_rsp_server}),
    .rd_stb(trace_rd),
    .rd_idx(csr_wdata[`SNIC_TRACE_DEPTH_LOG2-1:0]),
    .rd_entry(tr_entry),
    .trace_count(tr_count),
    .trace_lost(tr_lost),
    .hist_idx(hist_idx_reg),
    .hist_data(hist_data),
    .setup_timed(setup_timed),
    .setup_overwritten(setup_over)
);

// A candidate's punt record with its verdict: NEW and FOUND name the slot (a hit on the
// client half; NEW: state HANDSHAKE, as the validator wrote it); with a payload, the segment
// goes to the L7 matcher too (the request right behind the handshake ACK, decided before
// its key was inserted: FOUND).
function cand_l7(input [15:0] payload_len, input [`SNIC_ENGINE_VERDICT_W-1:0] v);
    begin
        cand_l7 = (v == `SNIC_ENGINE_VERDICT_NEW || v == `SNIC_ENGINE_VERDICT_FOUND)
                  && payload_len != 16'd0;
    end
endfunction

function [META_W-1:0] with_verdict(input [META_W-1:0] m, input [`SNIC_ENGINE_VERDICT_W-1:0] v,
                                   input [15:0] slot, input [7:0] gen,
                                   input [`SNIC_COOKIE_MSS_CLASS_BITS-1:0] mss);
    reg has_slot;
    begin
        has_slot = v == `SNIC_ENGINE_VERDICT_NEW || v == `SNIC_ENGINE_VERDICT_FOUND;
        with_verdict = m;
        with_verdict[`SNIC_PUNT_META_ENGINE_LSB +: `SNIC_PUNT_META_ENGINE_W] = v;
        with_verdict[`SNIC_PUNT_META_MSS_CLASS_LSB +: `SNIC_PUNT_META_MSS_CLASS_W] = mss;
        with_verdict[`SNIC_PUNT_META_SLOT_GEN_LSB +: `SNIC_PUNT_META_SLOT_GEN_W] = gen;
        if (has_slot) begin
            with_verdict[`SNIC_PUNT_META_FLOW_HIT_LSB] = 1'b1;
            with_verdict[`SNIC_PUNT_META_FLOW_HALF_LSB] = 1'b0;
            with_verdict[`SNIC_PUNT_META_FLOW_SLOT_LSB +: 16] = slot;
        end
        if (v == `SNIC_ENGINE_VERDICT_NEW) begin
            with_verdict[`SNIC_PUNT_META_FLOW_STATE_LSB +: 8] = `SNIC_FLOW_STATE_HANDSHAKE;
        end
        with_verdict[`SNIC_PUNT_META_TO_L7_LSB] = cand_l7(`SNIC_PUNT_META_PAYLOAD_LEN(m), v);
    end
endfunction

// ---------------------------------------------------------------------------------------
// SYN-ACK absorber (docs/server-open.md, "The absorber in the data path"): a server-port
// candidate (decide's D_CAND: a SYN-ACK on an armed CONNECTING entry) whose options
// synack_opts recognised goes to absorb_engine at S7 when it has room; its dispatch waits for
// the verdict (ABSORBED or not), in order. A candidate not offered is punted as before
// (counted in DP.ABSORB_PUNTED).
wire                    ab_s_ready;
wire                    ab_offer = d7_valid_reg && d7_port_reg && d7_dec_reg[D_CAND];
wire                    ab_push = ab_offer && aq_data[AQ_W-1] && ab_s_ready;
wire                    ab_m_valid, ab_m_ready, ab_m_absorbed;
wire                    ab_fs_valid, ab_fs_ready;
wire [1:0]              ab_fs_op;
wire [SLOT_BITS-1:0]    ab_fs_slot;
wire [FS_W-1:0]         ab_fs_static;
wire                    fs_rsp_ab;
wire                    ab_rp_valid, ab_rp_ready;
wire [HB_IW-1:0]        ab_rp_buf;
wire [15:0]             ab_rp_max, ab_rp_sport, ab_rp_dport, ab_rp_window;
wire [47:0]             ab_rp_dmac;
wire [31:0]             ab_rp_sip, ab_rp_dip, ab_rp_seq, ab_rp_ack, ab_rp_tsval, ab_rp_tsecr;
wire                    ab_rp_ts;
wire [31:0]             ab_done, ab_punted;
wire                    ab_dis_busy;
wire [`SNIC_DISARM_RESULT_W-1:0] ab_dis_result;
reg                     abs_en_reg = 1'b0;
// the firmware's flow-state writes as the port takes them (the absorber yields to them)
wire                    fw_fs_wr = fs_cmd_valid_reg && fs_cmd_ready
                                   && fs_cmd_op_reg != `SNIC_FLOW_OP_READ;
assign aq_take = d7_sa_reg;
// verilator lint_off UNUSEDSIGNAL
wire [META_W-1:0]       d7_meta = d7_dec_reg[D_META +: META_W];
wire [15:0]             d7_ab_slot = `SNIC_PUNT_META_FLOW_SLOT(d7_meta);
// verilator lint_on UNUSEDSIGNAL

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(AQ_W),
    .DEPTH(SQ_DEPTH)
)
synack_side_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data(h_sa_opts_s),
    .s_valid(h_sa_s),
    .s_ready(aq_ready),
    .m_data(aq_data),
    .m_valid(aq_valid),
    .m_ready(aq_take),
    .count()
);
// verilator lint_on PINCONNECTEMPTY

absorb_engine #(
    .SLOT_BITS(SLOT_BITS),
    .FS_W(FS_W),
    .IW(HB_IW)
)
absorb_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(ab_push),
    .s_ready(ab_s_ready),
    .s_slot(d7_ab_slot[SLOT_BITS-1:0]),
    .s_gen(`SNIC_PUNT_META_SLOT_GEN(d7_meta)),
    .s_flags(`SNIC_PUNT_META_TCP_FLAGS(d7_meta)),
    .s_seq(d7_syn_rec_reg[31:0]),
    .s_ack(d7_ack_reg),
    .s_local_ip(d7_syn_rec_reg[95:64]),
    .s_local_port(d7_syn_rec_reg[47:32]),
    .s_mss(aq_data[AQ_W-2 -: 16]),
    .s_ws(aq_data[42]),
    .s_ws_shift(aq_data[41:34]),
    .s_sack_perm(aq_data[33]),
    .s_ts(aq_data[32]),
    .s_tsval(aq_data[31:0]),
    .s_skip(ab_offer && !ab_push),
    .dis_valid(wr && ra == `SNIC_DP_ABSORB_DISARM),
    .dis_slot(csr_wdata[`SNIC_DP_ABSORB_DISARM_SLOT_LSB +: SLOT_BITS]),
    .dis_gen(csr_wdata[`SNIC_DP_ABSORB_DISARM_GEN_LSB +: 8]),
    .dis_busy(ab_dis_busy),
    .dis_result(ab_dis_result),
    .m_valid(ab_m_valid),
    .m_ready(ab_m_ready),
    .m_absorbed(ab_m_absorbed),
    .fs_valid(ab_fs_valid),
    .fs_ready(ab_fs_ready),
    .fs_op(ab_fs_op),
    .fs_slot(ab_fs_slot),
    .fs_static(ab_fs_static),
    .fs_rsp_valid(fs_rsp_ab),
    .fs_rsp_static(fs_rsp_static),
    .fw_wr_valid(fw_fs_wr),
    .fw_wr_slot(fs_slot_reg),
    .rp_valid(ab_rp_valid),
    .rp_ready(ab_rp_ready),
    .rp_buf(ab_rp_buf),
    .rp_max_len(ab_rp_max),
    .rp_dst_mac(ab_rp_dmac),
    .rp_src_ip(ab_rp_sip),
    .rp_dst_ip(ab_rp_dip),
    .rp_sport(ab_rp_sport),
    .rp_dport(ab_rp_dport),
    .rp_seq(ab_rp_seq),
    .rp_ack(ab_rp_ack),
    .rp_window(ab_rp_window),
    .rp_ts(ab_rp_ts),
    .rp_tsval(ab_rp_tsval),
    .rp_tsecr(ab_rp_tsecr),
    .stat_done(ab_done),
    .stat_punted(ab_punted)
);

// an absorbed SYN-ACK's punt record says so (the firmware's bookkeeping only)
function [META_W-1:0] with_absorbed(input [META_W-1:0] m, input absorbed);
    begin
        with_absorbed = m;
        if (absorbed) begin
            with_absorbed[`SNIC_PUNT_META_ENGINE_LSB +: `SNIC_PUNT_META_ENGINE_W] =
                `SNIC_ENGINE_VERDICT_ABSORBED;
        end
    end
endfunction

// the absorber's done queue (DP.ABSORB_HEAD): an absorbed SYN-ACK is dropped at dispatch
// and its setup (slot, generation) queued for the firmware's bookkeeping; with the queue
// full it is punted with verdict ABSORBED instead (DP.ABSORB_SPILLED). The choice is made
// at the frame's first beat: only this frame's own push fills the queue, so it still has
// room at the last beat.
localparam ABQ_W = SLOT_BITS + 8;
// verilator lint_off UNUSEDSIGNAL
wire [META_W-1:0]       dq1_meta = dq_data1[D_META +: META_W];
wire [15:0]             dq1_slot = `SNIC_PUNT_META_FLOW_SLOT(dq1_meta);
// verilator lint_on UNUSEDSIGNAL
wire                    ab_sink;
wire                    abq_s_ready;
wire                    abq_valid;
wire [ABQ_W-1:0]        abq_data;
reg                     abq_pop_reg = 1'b0;
reg  [31:0]             ab_spilled_reg = 32'd0;
wire [$clog2(`SNIC_ABSORB_QUEUE_DEPTH)+1:0] abq_count;
// verilator lint_off UNUSEDSIGNAL
wire [31:0]             abq_count32 = {{30 - $clog2(`SNIC_ABSORB_QUEUE_DEPTH){1'b0}}, abq_count};
// verilator lint_on UNUSEDSIGNAL

dp_fifo #(
    .WIDTH(ABQ_W),
    .DEPTH(`SNIC_ABSORB_QUEUE_DEPTH)
)
abq_inst (
    .clk(clk),
    .rst(rst),
    .s_data({`SNIC_PUNT_META_SLOT_GEN(dq1_meta), dq1_slot[SLOT_BITS-1:0]}),
    .s_valid(dq_ready[1] && ab_sink),
    .s_ready(abq_s_ready),
    .m_data(abq_data),
    .m_valid(abq_valid),
    .m_ready(abq_pop_reg),
    .count(abq_count)
);

// flow counter updates (one per forwarded frame)
reg  [31:0] upd_drops_reg = 32'd0;
wire        updq_ready;
// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(UPD_W),
    .DEPTH(4)
)
upd_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data(d7_upd_reg),
    .s_valid(d7_fwd),
    .s_ready(updq_ready),
    .m_data(upd_data),
    .m_valid(upd_valid),
    .m_ready(upd_ready),
    .count()
);
// verilator lint_on PINCONNECTEMPTY

always @(posedge clk) begin
    if (d7_fwd && !updq_ready) begin
        upd_drops_reg <= upd_drops_reg + 1'b1;
    end
    if (rst) begin
        upd_drops_reg <= 32'd0;
    end
end

// decision FIFOs
wire [DEC_W-1:0] dq_data0, dq_data1;
wire [1:0]       dq_valid;
wire [1:0]       dq_ready;

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(DEC_W),
    .DEPTH(DEC_DEPTH)
)
dec_fifo0_inst (
    .clk(clk),
    .rst(rst),
    .s_data(d7_dec_reg),
    .s_valid(d7_valid_reg && !d7_port_reg),
    .s_ready(),
    .m_data(dq_data0),
    .m_valid(dq_valid[0]),
    .m_ready(dq_ready[0]),
    .count(dq_count0)
);

dp_fifo #(
    .WIDTH(DEC_W),
    .DEPTH(DEC_DEPTH)
)
dec_fifo1_inst (
    .clk(clk),
    .rst(rst),
    // D_CAND: the SYN-ACK went to the absorber (its dispatch waits for the verdict)
    .s_data({ab_push, d7_dec_reg[DEC_W-2:0]}),
    .s_valid(d7_valid_reg && d7_port_reg),
    .s_ready(),
    .m_data(dq_data1),
    .m_valid(dq_valid[1]),
    .m_ready(dq_ready[1]),
    .count(dq_count1)
);
// verilator lint_on PINCONNECTEMPTY

// ---------------------------------------------------------------------------------------
// Dispatch, rewriters, punt arbiter, TX arbiters

wire [2*DW-1:0]  rw_tdata;
wire [2*KW-1:0]  rw_tkeep;
wire [1:0]       rw_tvalid, rw_tready, rw_tlast;
wire [2*DW-1:0]  pa_tdata;
wire [2*KW-1:0]  pa_tkeep;
wire [1:0]       pa_tvalid, pa_tready, pa_tlast;
wire [2*PA_UW-1:0] pa_tuser;
wire [31:0]      rw_latency;
wire [63:0]      rw_bypass, rw_opt_err;

generate
for (gp = 0; gp < 2; gp = gp + 1) begin : g_disp
    wire [DEC_W-1:0] d = gp ? dq_data1 : dq_data0;
    wire [1:0] a = d[D_ACT +: 2];
    reg first_reg = 1'b1;
    // a candidate waits for its verdict: the ACK validator's on the client port, the
    // absorber's on the server port
    wire av_cand = gp == 0 && d[D_CAND];
    wire ab_cand = gp == 1 && d[D_CAND];
    wire hold = (av_cand && !av_res_valid) || (ab_cand && !ab_m_valid);
    wire v = df_tvalid[gp] && dq_valid[gp] && !hold;
    wire r_in_valid = v && a == ACT_FWD;
    wire r_in_ready;
    wire desc_ready;
    // an absorbed SYN-ACK goes to the done queue, not to the punt ring
    wire sink;

    assign pa_tvalid[gp] = v && a == ACT_PUNT && !sink;
    assign pa_tdata[gp*DW +: DW] = df_tdata[gp*DW +: DW];
    assign pa_tkeep[gp*KW +: KW] = df_tkeep[gp*KW +: KW];
    assign pa_tlast[gp] = df_tlast[gp];
    wire [META_W-1:0] d_meta = d[D_META +: META_W];
    assign pa_tuser[gp*PA_UW +: PA_UW] = {av_cand ? with_verdict(d_meta, av_res_verdict,
                                                             av_res_slot, av_res_gen,
                                                             av_res_mss)
                                               : ab_cand ? with_absorbed(d_meta, ab_m_absorbed)
                                               : d_meta,
                                          av_cand ? cand_l7(`SNIC_PUNT_META_PAYLOAD_LEN(d_meta),
                                                            av_res_verdict)
                                                  : d[D_L7],
                                          df_tuser[gp]};

    assign df_tready[gp] = dq_valid[gp] && !hold && (a == ACT_FWD ? r_in_ready :
                                            a == ACT_PUNT && !sink ? pa_tready[gp] : 1'b1);
    assign dq_ready[gp] = df_tvalid[gp] && df_tready[gp] && df_tlast[gp];
    if (gp == 0) begin : g_verdict
        assign av_res_ready = dq_ready[gp] && av_cand;
        assign sink = 1'b0;
    end else begin : g_absorbed
        reg sink_reg = 1'b0;
        assign ab_m_ready = dq_ready[gp] && ab_cand;
        assign sink = ab_cand && ab_m_valid && ab_m_absorbed && a == ACT_PUNT
                      && (first_reg ? abq_s_ready : sink_reg);
        assign ab_sink = sink;
        always @(posedge clk) begin
            if (df_tvalid[gp] && df_tready[gp]) begin
                sink_reg <= sink;
            end
            if (dq_ready[gp] && ab_cand && ab_m_absorbed && !sink) begin
                ab_spilled_reg <= ab_spilled_reg + 32'd1;
            end
            if (rst) begin
                sink_reg <= 1'b0;
                ab_spilled_reg <= 32'd0;
            end
        end
    end

    always @(posedge clk) begin
        if (df_tvalid[gp] && df_tready[gp]) begin
            first_reg <= df_tlast[gp];
        end
        if (rst) begin
            first_reg <= 1'b1;
        end
    end

    // verilator lint_off PINCONNECTEMPTY
    splice_rewriter #(
        .DATA_WIDTH(DW),
        .USER_WIDTH(1)
    )
    rewriter_inst (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(df_tdata[gp*DW +: DW]),
        .s_axis_tkeep(df_tkeep[gp*KW +: KW]),
        .s_axis_tvalid(r_in_valid),
        .s_axis_tready(r_in_ready),
        .s_axis_tlast(df_tlast[gp]),
        .s_axis_tuser(1'b0),
        .m_axis_tdata(rw_tdata[gp*DW +: DW]),
        .m_axis_tkeep(rw_tkeep[gp*KW +: KW]),
        .m_axis_tvalid(rw_tvalid[gp]),
        .m_axis_tready(rw_tready[gp]),
        .m_axis_tlast(rw_tlast[gp]),
        .m_axis_tuser(),
        .desc_valid(r_in_valid && first_reg),
        .desc_ready(desc_ready),
        .desc_flags(d[D_DFLAGS +: 8]),
        .desc_l3_offset(d[D_L3 +: 8]),
        .desc_ihl(d[D_IHL +: 4]),
        .desc_doff(d[D_DOFF +: 4]),
        .desc_eth_dst(d[D_EDST +: 48]),
        .desc_eth_src(d[D_ESRC +: 48]),
        .desc_ip_src(d[D_ISRC +: 32]),
        .desc_ip_dst(d[D_IDST +: 32]),
        .desc_tcp_sport(d[D_SPORT +: 16]),
        .desc_tcp_dport(d[D_DPORT +: 16]),
        .desc_seq_delta(d[D_SEQD +: 32]),
        .desc_ack_delta(d[D_ACKD +: 32]),
        .desc_tsval_delta(d[D_TSVD +: 32]),
        .desc_tsecr_delta(d[D_TSED +: 32]),
        .desc_wscale_shift(d[D_WS +: 5]),
        .stat_frames(),
        .stat_bypass(rw_bypass[gp*32 +: 32]),
        .stat_opt_err(rw_opt_err[gp*32 +: 32]),
        .cfg_latency(rw_latency[gp*16 +: 16])
    );
    // verilator lint_on PINCONNECTEMPTY

    // verilator lint_off UNUSED
    wire unused_d = ^{desc_ready, d[D_ACT +: 2]};
    // verilator lint_on UNUSED
end
endgenerate

// verilator lint_off UNUSED
wire unused_lat = ^{rw_latency[31:16], fs_rd_resp_valid, h6, d6_flags[8], d7_rs_reg[7:6],
                    l7c_len_beats};
// verilator lint_on UNUSED

// punt arbiter -> punt ring, with request segments teed to the L7 matcher
wire [DW-1:0]  pm_tdata;
wire [KW-1:0]  pm_tkeep;
wire           pm_tvalid, pm_tready, pm_tlast;
wire [PA_UW-1:0] pm_tuser;

// verilator lint_off PINCONNECTEMPTY
axis_frame_arb #(
    .DATA_WIDTH(DW),
    .USER_WIDTH(PA_UW)
)
punt_arb_inst (
    .clk(clk),
    .rst(rst),
    .s0_axis_tdata(pa_tdata[0 +: DW]),
    .s0_axis_tkeep(pa_tkeep[0 +: KW]),
    .s0_axis_tvalid(pa_tvalid[0]),
    .s0_axis_tready(pa_tready[0]),
    .s0_axis_tlast(pa_tlast[0]),
    .s0_axis_tuser(pa_tuser[0 +: PA_UW]),
    .s1_axis_tdata(pa_tdata[DW +: DW]),
    .s1_axis_tkeep(pa_tkeep[KW +: KW]),
    .s1_axis_tvalid(pa_tvalid[1]),
    .s1_axis_tready(pa_tready[1]),
    .s1_axis_tlast(pa_tlast[1]),
    .s1_axis_tuser(pa_tuser[PA_UW +: PA_UW]),
    .m_axis_tdata(pm_tdata),
    .m_axis_tkeep(pm_tkeep),
    .m_axis_tvalid(pm_tvalid),
    .m_axis_tready(pm_tready),
    .m_axis_tlast(pm_tlast),
    .m_axis_tuser(pm_tuser),
    .m_sel()
);
// verilator lint_on PINCONNECTEMPTY

wire       pm_l7 = pm_tuser[1];
wire [META_W-1:0] pm_meta = pm_tuser[PA_UW-1:2];
// verilator lint_off UNUSEDSIGNAL
wire [`SNIC_PUNT_META_TCP_FLAGS_W-1:0] pm_tcp_flags = `SNIC_PUNT_META_TCP_FLAGS(pm_meta);
// verilator lint_on UNUSEDSIGNAL
// Low priority in the punt ring (kept out of its last PUNT_RESERVE slots): new connection
// attempts, i.e. well-formed TCP segments (parser reason OK) with SYN set and ACK clear.
// ARP, ICMP, handshake ACKs, requests, FIN / RST, SYN-ACK keep the whole ring, so a SYN
// flood cannot starve them.
wire       pm_low = `SNIC_PUNT_META_PARSER_REASON(pm_meta) == `SNIC_PARSER_REASON_OK &&
                    pm_tcp_flags[1] && !pm_tcp_flags[4];
wire       l7i_ready;
assign pm_tready = pm_l7 ? l7i_ready : 1'b1;

// payload byte mask for the matcher
reg  [15:0] pm_pos_reg = 16'd0;
wire [15:0] pm_pay_start = {{16-`SNIC_PUNT_META_PAYLOAD_OFFSET_W{1'b0}},
                            `SNIC_PUNT_META_PAYLOAD_OFFSET(pm_meta)};
wire [15:0] pm_pay_end = pm_pay_start + `SNIC_PUNT_META_PAYLOAD_LEN(pm_meta);
reg  [KW-1:0] pm_l7_keep;
integer ki;
always @* begin
    for (ki = 0; ki < KW; ki = ki + 1) begin
        pm_l7_keep[ki] = pm_tkeep[ki] && (pm_pos_reg + ki[15:0]) >= pm_pay_start
                         && (pm_pos_reg + ki[15:0]) < pm_pay_end;
    end
end

always @(posedge clk) begin
    if (pm_tvalid && pm_tready) begin
        pm_pos_reg <= pm_tlast ? 16'd0 : pm_pos_reg + KW[15:0];
    end
    if (rst) begin
        pm_pos_reg <= 16'd0;
    end
end

wire [PUNT_SB:0]   punt_prod, punt_cons;
reg                punt_cons_wr_reg = 1'b0;
reg  [PUNT_SB:0]   punt_cons_val_reg = {PUNT_SB+1{1'b0}};
wire               punt_rd_valid;
reg                punt_rd_desc_reg = 1'b0;
reg  [PUNT_SB-1:0] punt_rd_slot_reg = {PUNT_SB{1'b0}};
reg  [PUNT_WB-1:0] punt_rd_word_reg = {PUNT_WB{1'b0}};
wire [PUNT_WB-1:0] punt_rd_word;
wire               punt_rd_desc;
wire [PUNT_SB-1:0] punt_rd_slot;
wire               punt_rd_data_valid;
wire [31:0]        punt_rd_data;
wire               punt_commit_valid;
wire [PUNT_SB-1:0] punt_commit_slot;
wire [31:0]        punt_frames, punt_drop_full, punt_drop_low, punt_drop_long, punt_bad_cons;

// verilator lint_off PINCONNECTEMPTY
pkt_punt_buf #(
    .DATA_WIDTH(DW),
    .SLOTS(PUNT_SLOTS),
    .SLOT_BYTES(2048),
    .META_WIDTH(META_W),
    .RESERVE(PUNT_RESERVE)
)
punt_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(pm_tdata),
    .s_axis_tkeep(pm_tkeep),
    .s_axis_tvalid(pm_tvalid && pm_tready),
    .s_axis_tready(),
    .s_axis_tlast(pm_tlast),
    .s_axis_tuser(pm_tuser[0]),
    .s_axis_tlow(pm_low),
    .s_meta(pm_meta),
    .prod_idx(punt_prod),
    .cons_idx(punt_cons),
    .cons_wr(punt_cons_wr_reg),
    .cons_val(punt_cons_val_reg),
    .rd_valid(punt_rd_valid),
    .rd_desc(punt_rd_desc),
    .rd_slot(punt_rd_slot),
    .rd_word(punt_rd_word),
    .rd_data_valid(punt_rd_data_valid),
    .rd_data(punt_rd_data),
    .commit_valid(punt_commit_valid),
    .commit_slot(punt_commit_slot),
    .stat_frames(punt_frames),
    .stat_drop_full(punt_drop_full),
    .stat_drop_low(punt_drop_low),
    .stat_drop_long(punt_drop_long),
    .stat_bad_cons(punt_bad_cons)
);
// verilator lint_on PINCONNECTEMPTY

// inject rings (one per port) and TX arbiters
reg                inj_sel_reg = 1'b0;
reg  [1:0]         inj_wr_valid_reg = 2'b00;
reg  [INJ_WB-1:0]  inj_wr_word_reg = {INJ_WB{1'b0}};
reg  [INJ_WB-1:0]  inj_ptr_reg = {INJ_WB{1'b0}};
reg  [31:0]        inj_wr_data_reg = 32'd0;
reg  [1:0]         inj_commit_reg = 2'b00;
reg  [17:0]        inj_len_reg = 18'd0;
reg  [31:0]        inj_off_reg = 32'd0;
reg  [15:0]        inj_end_reg = 16'd0;
wire [1:0]         inj_commit_ready;
wire [2*(INJ_SB+1)-1:0] inj_prod, inj_cons;
wire [63:0]        inj_frames, inj_bad;

wire [2*DW-1:0]    tx_tdata;
wire [2*KW-1:0]    tx_tkeep;
wire [1:0]         tx_tvalid, tx_tready, tx_tlast;

// The frame generator (docs/server-open.md, "In the data path"): the firmware stages a
// header-only frame's fields in DP.TXGEN_* and writes TXGEN_GO with the port; the frame
// leaves that port's TX arbiter with its checksums, built from the fields, without a pass
// of the firmware over its bytes. One generator serves both ports: the port of each
// accepted request goes into a 4-entry FIFO that the frames leave in request order (at most
// two are in the generator at once: one in its request register, one in its serializer).
reg  [47:0]        txg_dmac_reg = 48'd0;
reg  [47:0]        txg_smac_reg = 48'd0;
reg  [31:0]        txg_sip_reg = 32'd0;
reg  [31:0]        txg_dip_reg = 32'd0;
reg  [31:0]        txg_ports_reg = 32'd0;
reg  [31:0]        txg_seq_reg = 32'd0;
reg  [31:0]        txg_ack_reg = 32'd0;
reg  [31:0]        txg_ctl_reg = 32'd0;
reg  [31:0]        txg_opts_reg = 32'd0;
reg  [31:0]        txg_tsval_reg = 32'd0;
reg  [31:0]        txg_tsecr_reg = 32'd0;
reg                txg_valid_reg = 1'b0;
reg                txg_port_reg = 1'b0;
reg  [31:0]        txg_refused_reg = 32'd0;
reg  [3:0]         txg_pq_reg = 4'd0;
reg  [2:0]         txg_pq_wr_reg = 3'd0;
reg  [2:0]         txg_pq_rd_reg = 3'd0;
wire               txg_ready;
wire [DW-1:0]      txg_tdata;
wire [KW-1:0]      txg_tkeep;
wire               txg_tvalid, txg_tlast, txg_tuser;
wire [1:0]         txg_port_tready;
wire [2:0]         txg_pq_level = txg_pq_wr_reg - txg_pq_rd_reg;
wire               txg_pq_room = txg_pq_level < 3'd4;
wire               txg_out_port = txg_pq_reg[txg_pq_rd_reg[1:0]];
// a frame's beats go to the port at the FIFO's head; there is always one while a beat waits
wire               txg_tready = txg_port_tready[txg_out_port];
wire               txg_take = txg_valid_reg && txg_ready && txg_pq_room;
wire [1:0]         txg_last_out = {2{txg_tvalid && txg_tready && txg_tlast}}
                                   & {txg_out_port, !txg_out_port};
reg  [31:0]        txg_sent_c_reg = 32'd0;
reg  [31:0]        txg_sent_s_reg = 32'd0;

always @(posedge clk) begin
    if (txg_take) begin
        txg_pq_reg[txg_pq_wr_reg[1:0]] <= txg_port_reg;
        txg_pq_wr_reg <= txg_pq_wr_reg + 1'b1;
    end
    if (|txg_last_out) txg_pq_rd_reg <= txg_pq_rd_reg + 1'b1;
    if (txg_last_out[0]) txg_sent_c_reg <= txg_sent_c_reg + 1'b1;
    if (txg_last_out[1]) txg_sent_s_reg <= txg_sent_s_reg + 1'b1;
    if (rst) begin
        txg_pq_wr_reg <= 3'd0;
        txg_pq_rd_reg <= 3'd0;
        txg_sent_c_reg <= 32'd0;
        txg_sent_s_reg <= 32'd0;
    end
end

// verilator lint_off PINCONNECTEMPTY
tcp_tx_gen #(
    .DATA_WIDTH(DW)
)
txg_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(txg_valid_reg && txg_pq_room),
    .s_ready(txg_ready),
    .s_dst_mac(txg_dmac_reg),
    .s_src_mac(txg_smac_reg),
    .s_src_ip(txg_sip_reg),
    .s_dst_ip(txg_dip_reg),
    .s_sport(txg_ports_reg[`SNIC_DP_TXGEN_PORTS_SPORT_LSB +: 16]),
    .s_dport(txg_ports_reg[`SNIC_DP_TXGEN_PORTS_DPORT_LSB +: 16]),
    .s_seq(txg_seq_reg),
    .s_ack(txg_ack_reg),
    .s_flags(txg_ctl_reg[`SNIC_DP_TXGEN_CTL_FLAGS_LSB +: 8]),
    .s_window(txg_ctl_reg[`SNIC_DP_TXGEN_CTL_WINDOW_LSB +: 16]),
    .s_syn_opts(txg_opts_reg[`SNIC_DP_TXGEN_OPTS_SYN_FORM_LSB]),
    .s_mss(txg_opts_reg[`SNIC_DP_TXGEN_OPTS_MSS_LSB +: 16]),
    .s_sack(txg_opts_reg[`SNIC_DP_TXGEN_OPTS_SACK_LSB]),
    .s_ts(txg_opts_reg[`SNIC_DP_TXGEN_OPTS_TS_LSB]),
    .s_tsval(txg_tsval_reg),
    .s_tsecr(txg_tsecr_reg),
    .s_ws(txg_opts_reg[`SNIC_DP_TXGEN_OPTS_WSCALE_LSB]),
    .s_ws_shift(txg_opts_reg[`SNIC_DP_TXGEN_OPTS_SCALE_LSB +: 4]),
    .s_pay_len(16'd0),
    .s_pay_sum(16'd0),
    .m_axis_tdata(txg_tdata),
    .m_axis_tkeep(txg_tkeep),
    .m_axis_tvalid(txg_tvalid),
    .m_axis_tready(txg_tready),
    .m_axis_tlast(txg_tlast),
    .m_axis_tuser(txg_tuser),
    .stat_sent()
);
// verilator lint_on PINCONNECTEMPTY

// ---------------------------------------------------------------------------------------
// Request heads (docs/head-buf.md, "In the data path"): head_buf holds the heads of
// connections in setup; the firmware takes a buffer (DP.HEAD_ALLOC), appends a request
// segment's bytes as it buffers them (DP.HEAD_APPEND, then DP.HEAD_DATA words) and, once the
// server has answered, has head_replay send the head behind the handshake ACK staged in
// DP.TXGEN_* (DP.HEAD_REPLAY): the frame built and checksummed by the card from the buffer's
// running sum, the buffer given back when read. The append words pass a 16-beat FIFO (the
// buffer takes a segment's first beat HEAD_SEG_GAP cycles after the previous segment's last).

localparam HB_IW = $clog2(`SNIC_HEAD_BUFFERS);
localparam HB_BA = $clog2(`SNIC_HEAD_BUFFER_BYTES);

// the buffer held ready for the next HEAD_ALLOC read
reg              hd_alloc_req_reg = 1'b0;
reg              hd_next_valid_reg = 1'b0;
reg  [HB_IW-1:0] hd_next_id_reg = {HB_IW{1'b0}};
wire             hb_alloc_valid, hb_alloc_ok;
wire [HB_IW-1:0] hb_alloc_id;
wire             hd_alloc_rd = rd && ra == `SNIC_DP_HEAD_ALLOC;

// frees: the firmware's (HEAD_FREE) wait a cycle when a replay gives its buffer back
reg              hd_free_pend_reg = 1'b0;
reg  [HB_IW-1:0] hd_free_id_reg = {HB_IW{1'b0}};
reg  [HB_IW-1:0] hd_rp_buf_reg = {HB_IW{1'b0}};
reg              hr_active_reg = 1'b0;
wire             hr_ready;
// a replayed buffer goes back once head_replay is idle again (its words all read)
wire             hd_rp_free = hr_active_reg && hr_ready;
wire             hb_free_en = hd_rp_free || hd_free_pend_reg;
wire [HB_IW-1:0] hb_free_id = hd_rp_free ? hd_rp_buf_reg : hd_free_id_reg;
wire             hb_free_bad;

// the open segment: its descriptor and the word count still expected
reg  [HB_IW-1:0] hd_seg_buf_reg = {HB_IW{1'b0}};
reg  [15:0]      hd_seg_off_reg = 16'd0;
reg  [15:0]      hd_seg_len_reg = 16'd0;
reg  [9:0]       hd_words_left_reg = 10'd0;
reg              hd_odd_reg = 1'b0;
reg  [31:0]      hd_lo_reg = 32'd0;
reg              hd_beat_valid_reg = 1'b0;
reg  [HB_IW+16+16+64+1-1:0] hd_beat_reg = {HB_IW+16+16+64+1{1'b0}};
reg  [3:0]       hd_segs_reg = 4'd0;   // segments in the FIFO or the buffer, not yet answered
reg  [HB_BA:0]   hd_last_len_reg = {HB_BA+1{1'b0}};
reg  [31:0]      hd_bad_reg = 32'd0;
reg              hd_mark_clear_reg = 1'b0;
wire             hd_wr_append = wr && ra == `SNIC_DP_HEAD_APPEND;
wire             hd_wr_data = wr && ra == `SNIC_DP_HEAD_DATA;
wire             hd_wr_free = wr && ra == `SNIC_DP_HEAD_FREE;
wire [10:0]      hd_app_len = csr_wdata[`SNIC_DP_HEAD_APPEND_LEN_LSB +: 11];
wire [HB_IW-1:0] hd_free_wr_id = csr_wdata[`SNIC_DP_HEAD_FREE_ID_LSB +: HB_IW];
// the buffer held ready is not the firmware's to give back
wire             hd_free_ready = hd_next_valid_reg && hd_free_wr_id == hd_next_id_reg;

wire             hdq_ready, hdq_valid;
wire [HB_IW+16+16+64+1-1:0] hdq_data;
wire             hb_s_ready;
wire [5:0]       hdq_count;

// The copy (HEAD_COPY): the open segment's words read from a punted frame through the punt
// ring's read port, in the cycles the bus leaves it free (the bus's reads are never
// delayed); the port answers two cycles later, tagged the copy's. Word k of the segment is
// bytes FROM + 4k .. FROM + 4k + 3: two frame words, a fixed rotation of FROM mod 4.
// Reads stop while the FIFO holds 12 beats (at most three words are in flight).
reg              cp_active_reg = 1'b0;
reg  [PUNT_SB-1:0] cp_slot_reg = {PUNT_SB{1'b0}};
reg  [PUNT_WB-1:0] cp_addr_reg = {PUNT_WB{1'b0}};
reg  [1:0]       cp_rot_reg = 2'd0;
reg  [10:0]      cp_reads_reg = 11'd0;
reg              cp_have_prev_reg = 1'b0;
reg  [23:0]      cp_prev_reg = 24'd0;
reg              cp_tag1_reg = 1'b0, cp_tag2_reg = 1'b0;
// a word with no segment open, during a copy, or with the last beat still waiting for the FIFO
wire             hd_data_bad = hd_words_left_reg == 10'd0 || cp_active_reg
                               || (hd_beat_valid_reg && !hdq_ready);
wire             hd_wr_copy = wr && ra == `SNIC_DP_HEAD_COPY;
wire             hd_copy_bad = hd_words_left_reg == 10'd0 || cp_active_reg;
wire             cp_bus = rd_punt_data || wr_punt_ptr;
wire             cp_issue = cp_active_reg && cp_reads_reg != 11'd0 && hdq_count < 6'd12 && !cp_bus;
wire             cp_data = punt_rd_data_valid && cp_tag2_reg;
wire [47:0]      cp_pair = {punt_rd_data[23:0], cp_prev_reg};
reg  [31:0]      cp_word;
always @* begin
    case (cp_rot_reg)
        2'd1: cp_word = cp_pair[0 +: 32];
        2'd2: cp_word = cp_pair[8 +: 32];
        2'd3: cp_word = cp_pair[16 +: 32];
        default: cp_word = punt_rd_data;
    endcase
end
// a word of the copy for the packer: every frame word when FROM is word-aligned, else from
// the second word on
wire             cp_emit = cp_data && (cp_rot_reg == 2'd0 || cp_have_prev_reg);
wire             hd_word_in = (hd_wr_data && !hd_data_bad) || cp_emit;
wire [31:0]      hd_word = cp_emit ? cp_word : csr_wdata;

always @(posedge clk) begin
    cp_tag1_reg <= cp_issue;
    cp_tag2_reg <= cp_tag1_reg;
    if (hd_wr_copy && !hd_copy_bad) begin
        cp_active_reg <= 1'b1;
        cp_slot_reg <= csr_wdata[`SNIC_DP_HEAD_COPY_SLOT_LSB +: PUNT_SB];
        cp_addr_reg <= csr_wdata[`SNIC_DP_HEAD_COPY_FROM_LSB + 2 +: PUNT_WB];
        cp_rot_reg <= csr_wdata[`SNIC_DP_HEAD_COPY_FROM_LSB +: 2];
        cp_reads_reg <= {1'b0, hd_words_left_reg}
                        + {10'd0, csr_wdata[`SNIC_DP_HEAD_COPY_FROM_LSB +: 2] != 2'd0};
        cp_have_prev_reg <= 1'b0;
    end
    if (cp_issue) begin
        cp_addr_reg <= cp_addr_reg + 1'b1;
        cp_reads_reg <= cp_reads_reg - 1'b1;
    end
    if (cp_data) begin
        cp_prev_reg <= punt_rd_data[31:8];
        cp_have_prev_reg <= 1'b1;
    end
    if (cp_emit && hd_words_left_reg == 10'd1) cp_active_reg <= 1'b0;
    if (rst) begin
        cp_active_reg <= 1'b0;
        cp_reads_reg <= 11'd0;
        cp_tag1_reg <= 1'b0;
        cp_tag2_reg <= 1'b0;
    end
end
wire             hb_res_valid, hb_res_hole, hb_res_cut, hb_res_bad;
wire [HB_BA:0]   hb_res_len;
wire [HB_IW:0]   hb_in_use, hb_in_use_max;

always @(posedge clk) begin
    // keep one buffer ready; ask again after a refusal (none free) until one comes back
    hd_alloc_req_reg <= !hd_next_valid_reg && !hd_alloc_req_reg && !hb_alloc_valid;
    if (hb_alloc_valid && hb_alloc_ok) begin
        hd_next_valid_reg <= 1'b1;
        hd_next_id_reg <= hb_alloc_id;
    end
    if (hd_alloc_rd && hd_next_valid_reg) hd_next_valid_reg <= 1'b0;

    if (hd_wr_free && !hd_free_ready) begin
        hd_free_pend_reg <= 1'b1;
        hd_free_id_reg <= hd_free_wr_id;
    end else if (!hd_rp_free) begin
        hd_free_pend_reg <= 1'b0;
    end

    // words into beats of 8 bytes; a beat to the FIFO (it holds 16: never full at bus speed)
    if (hd_beat_valid_reg && hdq_ready) hd_beat_valid_reg <= 1'b0;
    if (hd_wr_append && hd_words_left_reg == 10'd0) begin
        hd_seg_buf_reg <= csr_wdata[`SNIC_DP_HEAD_APPEND_ID_LSB +: HB_IW];
        hd_seg_off_reg <= {5'd0, csr_wdata[`SNIC_DP_HEAD_APPEND_OFF_LSB +: 11]};
        hd_seg_len_reg <= {5'd0, hd_app_len};
        hd_words_left_reg <= hd_app_len[10:2] + {8'd0, |hd_app_len[1:0]};
        hd_odd_reg <= 1'b0;
    end else if (hd_word_in) begin
        hd_words_left_reg <= hd_words_left_reg - 1'b1;
        hd_odd_reg <= !hd_odd_reg;
        if (!hd_odd_reg) hd_lo_reg <= hd_word;
        if (hd_odd_reg || hd_words_left_reg == 10'd1) begin
            hd_beat_valid_reg <= 1'b1;
            hd_beat_reg <= {hd_seg_buf_reg, hd_seg_off_reg, hd_seg_len_reg,
                            hd_odd_reg ? hd_word : 32'd0, hd_odd_reg ? hd_lo_reg : hd_word,
                            hd_words_left_reg == 10'd1};
        end
    end
    if (hb_res_valid) begin
        hd_last_len_reg <= hb_res_len;
    end
    // refused operations: at most one CSR write a cycle, a segment's result, a free
    hd_bad_reg <= hd_bad_reg
                  + {31'd0, (hd_wr_free && hd_free_ready) || (hd_wr_append && hd_words_left_reg != 10'd0)
                            || (hd_wr_data && hd_data_bad) || (hd_wr_copy && hd_copy_bad)}
                  + {31'd0, hb_res_valid && (hb_res_bad || hb_res_hole)}
                  + {31'd0, hb_free_bad};
    hd_segs_reg <= hd_segs_reg
                   + {3'd0, hd_word_in && hd_words_left_reg == 10'd1}
                   - {3'd0, hb_res_valid};
    hd_mark_clear_reg <= wr && ra == `SNIC_DP_HEAD_STATUS;
    if (rst) begin
        hd_alloc_req_reg <= 1'b0;
        hd_next_valid_reg <= 1'b0;
        hd_free_pend_reg <= 1'b0;
        hd_words_left_reg <= 10'd0;
        hd_beat_valid_reg <= 1'b0;
        hd_segs_reg <= 4'd0;
        hd_bad_reg <= 32'd0;
    end
end

// verilator lint_off PINCONNECTEMPTY
dp_fifo #(
    .WIDTH(HB_IW+16+16+64+1),
    .DEPTH(16)
)
hq_fifo_inst (
    .clk(clk),
    .rst(rst),
    .s_data(hd_beat_reg),
    .s_valid(hd_beat_valid_reg),
    .s_ready(hdq_ready),
    .m_data(hdq_data),
    .m_valid(hdq_valid),
    .m_ready(hb_s_ready),
    .count(hdq_count)
);
// verilator lint_on PINCONNECTEMPTY

// the replay: head_replay reads head_buf's replay port
reg              hr_valid_reg = 1'b0;
reg  [HB_IW-1:0] hr_buf_reg = {HB_IW{1'b0}};
reg  [15:0]      hr_max_reg = 16'd0;
wire             hr_res_valid, hr_res_long;
wire [HB_BA:0]   hr_res_len;
wire [31:0]      hr_sent, hr_long;
wire             hb_rd_start, hb_rd_idle, hb_m_valid, hb_m_ready, hb_m_last;
wire [HB_IW-1:0] hb_rd_buf;
wire [HB_BA:0]   hb_rd_len;
wire [15:0]      hb_rd_sum;
wire [63:0]      hb_m_data;
wire [7:0]       hb_m_keep;
wire [DW-1:0]    hr_tdata;
wire [KW-1:0]    hr_tkeep;
wire             hr_tvalid, hr_tready, hr_tlast, hr_tuser;
// the firmware's replay (HEAD_REPLAY) first, then the absorber's
wire             hr_take = (hr_valid_reg || ab_rp_valid) && hr_ready;
assign ab_rp_ready = hr_ready && !hr_valid_reg;
wire [HB_IW-1:0] hr_in_buf = hr_valid_reg ? hr_buf_reg : ab_rp_buf;

always @(posedge clk) begin
    if (hd_rp_free) hr_active_reg <= 1'b0;
    if (hr_take) begin
        hr_active_reg <= 1'b1;
        hd_rp_buf_reg <= hr_in_buf;
    end
    if (rst) begin
        hr_active_reg <= 1'b0;
    end
end

// verilator lint_off PINCONNECTEMPTY
head_buf #(
    .NBUF(`SNIC_HEAD_BUFFERS),
    .BA(HB_BA)
)
head_buf_inst (
    .clk(clk),
    .rst(rst),
    .alloc_req(hd_alloc_req_reg),
    .alloc_valid(hb_alloc_valid),
    .alloc_ok(hb_alloc_ok),
    .alloc_id(hb_alloc_id),
    .free_en(hb_free_en),
    .free_id(hb_free_id),
    .free_bad(hb_free_bad),
    .s_valid(hdq_valid),
    .s_ready(hb_s_ready),
    .s_buf(hdq_data[1+64+16+16 +: HB_IW]),
    .s_off(hdq_data[1+64+16 +: 16]),
    .s_len(hdq_data[1+64 +: 16]),
    .s_data(hdq_data[1 +: 64]),
    .s_last(hdq_data[0]),
    .res_valid(hb_res_valid),
    .res_buf(),
    .res_len(hb_res_len),
    .res_added(),
    .res_hole(hb_res_hole),
    .res_cut(hb_res_cut),
    .res_bad(hb_res_bad),
    .rd_start(hb_rd_start),
    .rd_buf(hb_rd_buf),
    .rd_idle(hb_rd_idle),
    .rd_len(hb_rd_len),
    .rd_sum(hb_rd_sum),
    .m_valid(hb_m_valid),
    .m_ready(hb_m_ready),
    .m_data(hb_m_data),
    .m_keep(hb_m_keep),
    .m_last(hb_m_last),
    .in_use(hb_in_use),
    .in_use_max(hb_in_use_max),
    .in_use_max_clear(hd_mark_clear_reg)
);

head_replay #(
    .DATA_WIDTH(DW),
    .IW(HB_IW),
    .BA(HB_BA)
)
head_replay_inst (
    .clk(clk),
    .rst(rst),
    .s_valid(hr_valid_reg || ab_rp_valid),
    .s_ready(hr_ready),
    .s_buf(hr_in_buf),
    .s_max_len(hr_valid_reg ? hr_max_reg : ab_rp_max),
    .s_dst_mac(hr_valid_reg ? txg_dmac_reg : ab_rp_dmac),
    .s_src_mac(hr_valid_reg ? txg_smac_reg : mac_s_reg),
    .s_src_ip(hr_valid_reg ? txg_sip_reg : ab_rp_sip),
    .s_dst_ip(hr_valid_reg ? txg_dip_reg : ab_rp_dip),
    .s_sport(hr_valid_reg ? txg_ports_reg[`SNIC_DP_TXGEN_PORTS_SPORT_LSB +: 16] : ab_rp_sport),
    .s_dport(hr_valid_reg ? txg_ports_reg[`SNIC_DP_TXGEN_PORTS_DPORT_LSB +: 16] : ab_rp_dport),
    .s_seq(hr_valid_reg ? txg_seq_reg : ab_rp_seq),
    .s_ack(hr_valid_reg ? txg_ack_reg : ab_rp_ack),
    .s_flags(hr_valid_reg ? txg_ctl_reg[`SNIC_DP_TXGEN_CTL_FLAGS_LSB +: 8] : 8'h10),
    .s_window(hr_valid_reg ? txg_ctl_reg[`SNIC_DP_TXGEN_CTL_WINDOW_LSB +: 16] : ab_rp_window),
    .s_ts(hr_valid_reg ? txg_opts_reg[`SNIC_DP_TXGEN_OPTS_TS_LSB] : ab_rp_ts),
    .s_tsval(hr_valid_reg ? txg_tsval_reg : ab_rp_tsval),
    .s_tsecr(hr_valid_reg ? txg_tsecr_reg : ab_rp_tsecr),
    .hb_rd_start(hb_rd_start),
    .hb_rd_buf(hb_rd_buf),
    .hb_rd_idle(hb_rd_idle),
    .hb_rd_len(hb_rd_len),
    .hb_rd_sum(hb_rd_sum),
    .hb_valid(hb_m_valid),
    .hb_ready(hb_m_ready),
    .hb_data(hb_m_data),
    .hb_keep(hb_m_keep),
    .hb_last(hb_m_last),
    .m_axis_tdata(hr_tdata),
    .m_axis_tkeep(hr_tkeep),
    .m_axis_tvalid(hr_tvalid),
    .m_axis_tready(hr_tready),
    .m_axis_tlast(hr_tlast),
    .m_axis_tuser(hr_tuser),
    .res_valid(hr_res_valid),
    .res_long(hr_res_long),
    .res_len(hr_res_len),
    .stat_sent(hr_sent),
    .stat_long(hr_long)
);
// verilator lint_on PINCONNECTEMPTY

// verilator lint_off UNUSEDSIGNAL
wire unused_head = ^{hb_res_cut, hr_res_valid, hr_res_long, hr_res_len};
// verilator lint_on UNUSEDSIGNAL

assign m_axis_c_tdata = tx_tdata[0 +: DW];
assign m_axis_c_tkeep = tx_tkeep[0 +: KW];
assign m_axis_c_tvalid = tx_tvalid[0];
assign m_axis_c_tlast = tx_tlast[0];
assign m_axis_c_tuser = 1'b0;
assign tx_tready[0] = m_axis_c_tready;
assign m_axis_s_tdata = tx_tdata[DW +: DW];
assign m_axis_s_tkeep = tx_tkeep[KW +: KW];
assign m_axis_s_tvalid = tx_tvalid[1];
assign m_axis_s_tlast = tx_tlast[1];
assign m_axis_s_tuser = 1'b0;
assign tx_tready[1] = m_axis_s_tready;

generate
for (gp = 0; gp < 2; gp = gp + 1) begin : g_tx
    wire [DW-1:0] i_tdata;
    wire [KW-1:0] i_tkeep;
    wire          i_tvalid, i_tready, i_tlast, i_tuser;

    // verilator lint_off PINCONNECTEMPTY
    pkt_inject_buf #(
        .DATA_WIDTH(DW),
        .SLOTS(INJ_SLOTS),
        .SLOT_BYTES(2048)
    )
    inject_inst (
        .clk(clk),
        .rst(rst),
        .wr_valid(inj_wr_valid_reg[gp]),
        .wr_slot(inj_prod[gp*(INJ_SB+1) +: INJ_SB]),
        .wr_word(inj_wr_word_reg),
        .wr_data(inj_wr_data_reg),
        .commit_valid(inj_commit_reg[gp]),
        .commit_ready(inj_commit_ready[gp]),
        .commit_len(inj_len_reg[15:0]),
        .commit_csum_ip(inj_len_reg[16]),
        .commit_csum_tcp(inj_len_reg[17]),
        .commit_ip_off(inj_off_reg[15:0]),
        .commit_l4_off(inj_off_reg[31:16]),
        .commit_l4_end(inj_end_reg),
        .prod_idx(inj_prod[gp*(INJ_SB+1) +: INJ_SB+1]),
        .cons_idx(inj_cons[gp*(INJ_SB+1) +: INJ_SB+1]),
        .m_axis_tdata(i_tdata),
        .m_axis_tkeep(i_tkeep),
        .m_axis_tvalid(i_tvalid),
        .m_axis_tready(i_tready),
        .m_axis_tlast(i_tlast),
        .m_axis_tuser(i_tuser),
        .done_valid(),
        .stat_frames(inj_frames[gp*32 +: 32]),
        .stat_bad_commit(inj_bad[gp*32 +: 32])
    );

    // the client port's inject ring shares its input with the SYN responder
    wire [DW-1:0] j_tdata;
    wire [KW-1:0] j_tkeep;
    wire          j_tvalid, j_tready, j_tlast, j_tuser;
    if (gp == 0) begin : g_synack
        // verilator lint_off PINCONNECTEMPTY
        axis_frame_arb #(
            .DATA_WIDTH(DW),
            .USER_WIDTH(1)
        )
        syn_arb_inst (
            .clk(clk),
            .rst(rst),
            .s0_axis_tdata(i_tdata),
            .s0_axis_tkeep(i_tkeep),
            .s0_axis_tvalid(i_tvalid),
            .s0_axis_tready(i_tready),
            .s0_axis_tlast(i_tlast),
            .s0_axis_tuser(i_tuser),
            .s1_axis_tdata(sr_tdata),
            .s1_axis_tkeep(sr_tkeep),
            .s1_axis_tvalid(sr_tvalid),
            .s1_axis_tready(sr_tready),
            .s1_axis_tlast(sr_tlast),
            .s1_axis_tuser(sr_tuser),
            .m_axis_tdata(j_tdata),
            .m_axis_tkeep(j_tkeep),
            .m_axis_tvalid(j_tvalid),
            .m_axis_tready(j_tready),
            .m_axis_tlast(j_tlast),
            .m_axis_tuser(j_tuser),
            .m_sel()
        );
        // verilator lint_on PINCONNECTEMPTY
    end else begin : g_replay
        // the server port's inject ring shares its input with the head replay
        // verilator lint_off PINCONNECTEMPTY
        axis_frame_arb #(
            .DATA_WIDTH(DW),
            .USER_WIDTH(1)
        )
        replay_arb_inst (
            .clk(clk),
            .rst(rst),
            .s0_axis_tdata(i_tdata),
            .s0_axis_tkeep(i_tkeep),
            .s0_axis_tvalid(i_tvalid),
            .s0_axis_tready(i_tready),
            .s0_axis_tlast(i_tlast),
            .s0_axis_tuser(i_tuser),
            .s1_axis_tdata(hr_tdata),
            .s1_axis_tkeep(hr_tkeep),
            .s1_axis_tvalid(hr_tvalid),
            .s1_axis_tready(hr_tready),
            .s1_axis_tlast(hr_tlast),
            .s1_axis_tuser(hr_tuser),
            .m_axis_tdata(j_tdata),
            .m_axis_tkeep(j_tkeep),
            .m_axis_tvalid(j_tvalid),
            .m_axis_tready(j_tready),
            .m_axis_tlast(j_tlast),
            .m_axis_tuser(j_tuser),
            .m_sel()
        );
        // verilator lint_on PINCONNECTEMPTY
    end

    // the frame generator's frames for this port join the firmware's (and the SYN
    // responder's)
    wire [DW-1:0] k_tdata;
    wire [KW-1:0] k_tkeep;
    wire          k_tvalid, k_tready, k_tlast, k_tuser;
    // verilator lint_off PINCONNECTEMPTY
    axis_frame_arb #(
        .DATA_WIDTH(DW),
        .USER_WIDTH(1)
    )
    gen_arb_inst (
        .clk(clk),
        .rst(rst),
        .s0_axis_tdata(j_tdata),
        .s0_axis_tkeep(j_tkeep),
        .s0_axis_tvalid(j_tvalid),
        .s0_axis_tready(j_tready),
        .s0_axis_tlast(j_tlast),
        .s0_axis_tuser(j_tuser),
        .s1_axis_tdata(txg_tdata),
        .s1_axis_tkeep(txg_tkeep),
        .s1_axis_tvalid(txg_tvalid && txg_out_port == gp),
        .s1_axis_tready(txg_port_tready[gp]),
        .s1_axis_tlast(txg_tlast),
        .s1_axis_tuser(txg_tuser),
        .m_axis_tdata(k_tdata),
        .m_axis_tkeep(k_tkeep),
        .m_axis_tvalid(k_tvalid),
        .m_axis_tready(k_tready),
        .m_axis_tlast(k_tlast),
        .m_axis_tuser(k_tuser),
        .m_sel()
    );
    // verilator lint_on PINCONNECTEMPTY

    // TX port gp: fast path from the other port's rewriter, and this port's inject ring
    // (and, on the client port, the SYN responder) and generated frames
    // verilator lint_off PINCONNECTEMPTY
    axis_frame_arb #(
        .DATA_WIDTH(DW),
        .USER_WIDTH(1)
    )
    tx_arb_inst (
        .clk(clk),
        .rst(rst),
        .s0_axis_tdata(rw_tdata[(1-gp)*DW +: DW]),
        .s0_axis_tkeep(rw_tkeep[(1-gp)*KW +: KW]),
        .s0_axis_tvalid(rw_tvalid[1-gp]),
        .s0_axis_tready(rw_tready[1-gp]),
        .s0_axis_tlast(rw_tlast[1-gp]),
        .s0_axis_tuser(1'b0),
        .s1_axis_tdata(k_tdata),
        .s1_axis_tkeep(k_tkeep),
        .s1_axis_tvalid(k_tvalid),
        .s1_axis_tready(k_tready),
        .s1_axis_tlast(k_tlast),
        .s1_axis_tuser(k_tuser),
        .m_axis_tdata(tx_tdata[gp*DW +: DW]),
        .m_axis_tkeep(tx_tkeep[gp*KW +: KW]),
        .m_axis_tvalid(tx_tvalid[gp]),
        .m_axis_tready(tx_tready[gp]),
        .m_axis_tlast(tx_tlast[gp]),
        .m_axis_tuser(),
        .m_sel()
    );
    // verilator lint_on PINCONNECTEMPTY
end
endgenerate

// ---------------------------------------------------------------------------------------
// L7 matcher: request segments from the punt path, or the firmware's buffer (L7.CMD)

reg [DW-1:0]     l7buf_mem [0:L7_BUF_BEATS-1];
reg              l7buf_wr_reg = 1'b0;
reg [7:0]        l7buf_ptr_reg = 8'd0;
reg [7:0]        l7buf_wr_word_reg = 8'd0;
reg [31:0]       l7buf_wr_data_reg = 32'd0;
reg              l7c_busy_reg = 1'b0;
reg              l7c_rd_reg = 1'b0;
reg              l7c_out_valid_reg = 1'b0;
reg [DW-1:0]     l7c_out_data_reg = {DW{1'b0}};
reg [L7_BB-1:0]  l7c_beat_reg = {L7_BB{1'b0}};
reg [L7_BB-1:0]  l7c_last_beat_reg = {L7_BB{1'b0}};
reg [KW-1:0]     l7c_last_keep_reg = {KW{1'b0}};
reg [15:0]       l7c_tag_reg = 16'd0;
reg [7:0]        l7c_gen_reg = 8'd0;
reg [7:0]        l7c_gen_next_reg = 8'd0;
reg              l7c_start_reg = 1'b0;
reg [15:0]       l7c_len_reg = 16'd0;
reg [31:0]       l7_requests_reg = 32'd0;
reg [31:0]       l7_commands_reg = 32'd0;
wire             l7c_ready;
wire             l7c_last = l7c_beat_reg == l7c_last_beat_reg;

always @(posedge clk) begin
    if (l7buf_wr_reg) begin
        l7buf_mem[l7buf_wr_word_reg[7:WPB_BITS]][32*l7buf_wr_word_reg[WPB_BITS-1:0] +: 32] <= l7buf_wr_data_reg;
    end
    if (l7c_rd_reg) begin
        l7c_out_data_reg <= l7buf_mem[l7c_beat_reg];
    end
end

localparam KB = $clog2(KW);
wire [15:0] l7c_len_beats = l7c_len_reg >> KB;
wire        l7c_len_part = l7c_len_reg[KB-1:0] != {KB{1'b0}};

always @(posedge clk) begin
    l7c_rd_reg <= 1'b0;
    if (l7c_start_reg) begin
        l7c_busy_reg <= 1'b1;
        l7c_rd_reg <= 1'b1;
        l7c_beat_reg <= {L7_BB{1'b0}};
        if (l7c_len_reg >= L7_BUF_BYTES) begin
            l7c_last_beat_reg <= {L7_BB{1'b1}};
            l7c_last_keep_reg <= {KW{1'b1}};
        end else begin
            l7c_last_beat_reg <= l7c_len_beats[L7_BB-1:0] - {{L7_BB-1{1'b0}}, !l7c_len_part};
            l7c_last_keep_reg <= l7c_len_part ? ~({KW{1'b1}} << l7c_len_reg[KB-1:0]) : {KW{1'b1}};
        end
    end
    if (l7c_rd_reg) begin
        l7c_out_valid_reg <= 1'b1;
    end
    if (l7c_out_valid_reg && l7c_ready) begin
        l7c_out_valid_reg <= 1'b0;
        if (l7c_last) begin
            l7c_busy_reg <= 1'b0;
        end else begin
            l7c_beat_reg <= l7c_beat_reg + 1'b1;
            l7c_rd_reg <= 1'b1;
        end
    end
    if (pm_tvalid && pm_tready && pm_l7 && pm_tlast) begin
        l7_requests_reg <= l7_requests_reg + 1'b1;
    end
    if (rst) begin
        l7c_busy_reg <= 1'b0;
        l7c_rd_reg <= 1'b0;
        l7c_out_valid_reg <= 1'b0;
        l7_requests_reg <= 32'd0;
    end
end

wire [DW-1:0]          l7_tdata;
wire [KW-1:0]          l7_tkeep;
wire                   l7_tvalid, l7_tready, l7_tlast;
wire [L7_TAG_W-1:0]    l7_tuser;

// verilator lint_off PINCONNECTEMPTY
axis_frame_arb #(
    .DATA_WIDTH(DW),
    .USER_WIDTH(L7_TAG_W)
)
l7_arb_inst (
    .clk(clk),
    .rst(rst),
    .s0_axis_tdata(pm_tdata),
    .s0_axis_tkeep(pm_l7_keep),
    .s0_axis_tvalid(pm_tvalid && pm_l7),
    .s0_axis_tready(l7i_ready),
    .s0_axis_tlast(pm_tlast),
    .s0_axis_tuser({1'b0, `SNIC_PUNT_META_SLOT_GEN(pm_meta), `SNIC_PUNT_META_FLOW_SLOT(pm_meta)}),
    .s1_axis_tdata(l7c_out_data_reg),
    .s1_axis_tkeep(l7c_last ? l7c_last_keep_reg : {KW{1'b1}}),
    .s1_axis_tvalid(l7c_out_valid_reg),
    .s1_axis_tready(l7c_ready),
    .s1_axis_tlast(l7c_last),
    .s1_axis_tuser({1'b1, l7c_gen_reg, l7c_tag_reg}),
    .m_axis_tdata(l7_tdata),
    .m_axis_tkeep(l7_tkeep),
    .m_axis_tvalid(l7_tvalid),
    .m_axis_tready(l7_tready),
    .m_axis_tlast(l7_tlast),
    .m_axis_tuser(l7_tuser),
    .m_sel()
);
// verilator lint_on PINCONNECTEMPTY

reg                l7_wr_valid_reg = 1'b0;
wire               l7_wr_ready;
reg  [7:0]         l7_rule_reg = 8'd0;
reg  [7:0]         l7_word_reg = 8'd0;
reg  [31:0]        l7_data_reg = 32'd0;
reg                l7_switch_reg = 1'b0;
wire               l7_active_bank, l7_inactive_busy;
wire               l7_res_valid, l7_res_ready;
wire [L7_TAG_W-1:0] l7_res_tag;
wire [15:0]        l7_res_rule, l7_res_pool;
wire [2:0]         l7_res_method;
wire               l7_res_bank;
wire [6:0]         l7_res_flags;

l7_matcher #(
    .DATA_WIDTH(DW),
    .TAG_WIDTH(L7_TAG_W),
    .RULES(L7_RULES),
    .LANES(L7_LANES),
    .PAT_MAX(L7_PAT_MAX),
    .POOL_WIDTH(16),
    .WINDOW(L7_BUF_BYTES)
)
l7_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(l7_tdata),
    .s_axis_tkeep(l7_tkeep),
    .s_axis_tvalid(l7_tvalid),
    .s_axis_tready(l7_tready),
    .s_axis_tlast(l7_tlast),
    .s_axis_tuser(l7_tuser),
    .cfg_wr_valid(l7_wr_valid_reg),
    .cfg_wr_ready(l7_wr_ready),
    .cfg_wr_rule(l7_rule_reg[L7_RW-1:0]),
    .cfg_wr_word(l7_word_reg),
    .cfg_wr_data(l7_data_reg),
    .cmd_bank_switch(l7_switch_reg),
    .status_active_bank(l7_active_bank),
    .status_inactive_busy(l7_inactive_busy),
    .m_res_valid(l7_res_valid),
    .m_res_ready(l7_res_ready),
    .m_res_tag(l7_res_tag),
    .m_res_rule_id(l7_res_rule),
    .m_res_pool(l7_res_pool),
    .m_res_method(l7_res_method),
    .m_res_bank(l7_res_bank),
    .m_res_flags(l7_res_flags)
);

// ---------------------------------------------------------------------------------------
// Event queue: 0 FIN/RST (decision), 1 L7 results, 2 punt ready

wire [2:0]   evt_ready;
wire         evq_head_valid;
wire [1:0]   evq_head_src;
wire [EVT_W-1:0] evq_head_data;
reg          evq_pop_reg = 1'b0;
wire [EVQ_AW+1:0] evq_level;
wire [31:0]  evq_pushed, evq_overflow;
reg  [31:0]  evt_lost_reg = 32'd0;

// the matcher's tag: bit 24 from the firmware buffer, bits 23:16 the slot generation, bits 15:0
// the flow slot or L7.CMD tag
wire [EVT_W-1:0] l7_evt = snic_evt_request_matched_pack(
    `SNIC_EVENT_TYPE_REQUEST_MATCHED, l7_res_tag[24], l7_res_method, l7_res_bank, l7_res_flags,
    |(l7_res_flags & `SNIC_L7_FLAG_MATCHED), l7_res_tag[15:0], l7_res_tag[23:16], l7_res_rule,
    l7_res_pool, now);
wire [EVT_W-1:0] punt_evt = snic_evt_punt_ready_pack(
    `SNIC_EVENT_TYPE_PUNT_READY,
    {{`SNIC_EVT_PUNT_READY_PUNT_SLOT_W-PUNT_SB{1'b0}}, punt_commit_slot});
assign l7_res_ready = evt_ready[1];

// verilator lint_off PINCONNECTEMPTY
evt_queue #(
    .PRODUCERS(3),
    .EVT_WIDTH(EVT_W),
    .DEPTH(EVQ_DEPTH)
)
evq_inst (
    .clk(clk),
    .rst(rst),
    .evt_valid({punt_commit_valid, l7_res_valid, d7_evtq_reg}),
    .evt_ready(evt_ready),
    .evt_data({punt_evt, l7_evt, d7_evt_data_reg}),
    .head_valid(evq_head_valid),
    .head_src(evq_head_src),
    .head_data(evq_head_data),
    .head_word_sel(2'd0),
    .head_word(),
    .pop(evq_pop_reg),
    .level(evq_level),
    .stat_pushed(evq_pushed),
    .stat_overflow(evq_overflow),
    .stat_overflow_prod()
);
// verilator lint_on PINCONNECTEMPTY

always @(posedge clk) begin
    if ((d7_evtq_reg && !evt_ready[0]) || (punt_commit_valid && !evt_ready[2])) begin
        evt_lost_reg <= evt_lost_reg + ((d7_evtq_reg && !evt_ready[0]) && (punt_commit_valid && !evt_ready[2]) ? 32'd2 : 32'd1);
    end
    if (rst) begin
        evt_lost_reg <= 32'd0;
    end
end

// ---------------------------------------------------------------------------------------
// Statistics

function [7:0] popcount(input [KW-1:0] k);
    integer i;
    begin
        popcount = 8'd0;
        for (i = 0; i < KW; i = i + 1) begin
            popcount = popcount + {7'd0, k[i]};
        end
    end
endfunction

wire [1:0] tx_fire = tx_tvalid & tx_tready;
// Counter indices (map in docs/datapath.md)
// per port (the port the frame arrived on)
wire [STAT_IB-1:0] p7 = SI_PORT_BASE | ({{STAT_IB-1{1'b0}}, d7_port_reg} << SI_PORT_SH);
wire [STAT_IB-1:0] act_idx = p7 | (d7_dec_reg[D_ACT +: 2] == ACT_FWD ? SI_P_FORWARDED :
                                   d7_dec_reg[D_ACT +: 2] == ACT_PUNT ? SI_P_PUNTED :
                                   d7_dec_reg[D_ACT +: 2] == ACT_SYN ? SI_P_SYN_ANSWERED :
                                   SI_P_DROPPED);
// per virtual service
wire [STAT_IB-1:0] vip_idx = SI_SVC_BASE + ({{STAT_IB-4{1'b0}}, d7_vipidx_reg} << SI_SVC_SH);
// per real server, both directions
wire [RS_IB-1:0]   d7_rs = d7_rs_reg[RS_IB-1:0];
wire [STAT_IB-1:0] rs_idx = SI_RS_BASE + ({{STAT_IB-RS_IB{1'b0}}, d7_rs} << SI_RS_SH);
// per real server and direction (the port the frame arrived on)
wire [STAT_IB-1:0] rs_dir_idx = SI_RSD_BASE | ({{STAT_IB-RS_IB{1'b0}}, d7_rs} << SI_RSD_SH);

reg        st_snap_reg = 1'b0;
reg        st_clear_on_snap_reg = 1'b0;
reg        st_clear_all_reg = 1'b0;
wire       st_rd_valid;
reg  [STAT_IB-1:0] st_rd_idx_reg = {STAT_IB{1'b0}};
wire       st_rd_data_valid;
wire [63:0] st_rd_data;
wire       st_init_done;
wire [31:0] st_snapshots;

// One increment input per counter kind, each its own RAM bank in stats_counters.
// verilator lint_off PINCONNECTEMPTY
stats_counters #(
    .COUNTERS(STAT_COUNTERS),
    .INPUTS(STAT_INPUTS),
    .INC_WIDTH(16)
)
stats_inst (
    .clk(clk),
    .rst(rst),
    .inc_valid({tx_fire[1], tx_fire[1] && tx_tlast[1], tx_fire[0], tx_fire[0] && tx_tlast[0],
                d7_valid_reg && d7_reason_reg,
                d7_fwd, d7_fwd,
                d7_fwd, d7_fwd,
                d7_valid_reg && d7_vip_reg, d7_valid_reg && d7_vip_reg,
                d7_valid_reg, d7_valid_reg, d7_valid_reg}),
    .inc_idx({SI_TX_BYTES_S, SI_TX_FRAMES_S, SI_TX_BYTES_C, SI_TX_FRAMES_C,
              d7_reason_idx_reg,
              rs_dir_idx | (d7_port_reg ? SI_RSD_SC_BYTES : SI_RSD_CS_BYTES),
              rs_dir_idx | (d7_port_reg ? SI_RSD_SC_FRAMES : SI_RSD_CS_FRAMES),
              rs_idx + SI_RS_BYTES, rs_idx + SI_RS_FRAMES,
              vip_idx + SI_SVC_BYTES, vip_idx + SI_SVC_FRAMES,
              act_idx, p7 | SI_P_RX_BYTES, p7 | SI_P_RX_FRAMES}),
    .inc_amount({8'd0, popcount(tx_tkeep[KW +: KW]), 16'd1, 8'd0, popcount(tx_tkeep[0 +: KW]), 16'd1,
                 16'd1,
                 d7_flen_reg, 16'd1,
                 d7_flen_reg, 16'd1,
                 d7_flen_reg, 16'd1,
                 16'd1, d7_flen_reg, 16'd1}),
    .snapshot(st_snap_reg),
    .clear_on_snapshot(st_clear_on_snap_reg),
    .clear_all(st_clear_all_reg),
    .init_value(64'd0),
    .rd_valid(st_rd_valid),
    .rd_idx(csr_wdata[STAT_IB-1:0]),
    .rd_data_valid(st_rd_data_valid),
    .rd_data(st_rd_data),
    .init_done(st_init_done),
    .stat_snapshots(st_snapshots),
    .stat_init_drops()
);
// verilator lint_on PINCONNECTEMPTY

// ---------------------------------------------------------------------------------------
// CSR blocks

reg        hit_reg = 1'b0;
reg [31:0] rdata_reg = 32'd0;
assign csr_hit = hit_reg;
assign csr_rdata = rdata_reg;

wire [31:0] wmask = {{8{csr_wstrb[3]}}, {8{csr_wstrb[2]}}, {8{csr_wstrb[1]}}, {8{csr_wstrb[0]}}};
wire [31:0] ra = {csr_addr[31:2], 2'b00};
wire [3:0]  blk = csr_addr[15:12];
wire sel = csr_stb && csr_addr[31:16] == 16'd0 && blk >= 4'h6 && blk <= 4'hC;
wire rd = sel && !csr_we;
wire wr = sel && csr_we;

// verilator lint_off UNUSED
wire unused_csr = ^{csr_master, csr_addr[1:0], wmask};
// verilator lint_on UNUSED

// indirect read state
reg         flow_busy_reg = 1'b0;
reg  [1:0]  flow_status_reg = 2'd0;
reg  [WAY_BITS-1:0] flow_way_reg = {WAY_BITS{1'b0}};
reg  [16:0] flow_result_reg = 17'd0;
reg  [BUCKET_BITS-1:0] flow_bucket_reg = {BUCKET_BITS{1'b0}};
reg         fs_busy_reg = 1'b0;
reg         st_rd_busy_reg = 1'b0;
reg  [63:0] st_rd_result_reg = 64'd0;
reg  [31:0] punt_word_reg = 32'd0;

wire rd_punt_data = rd && ra == `SNIC_PUNT_RD_DATA;
// a write of RD_PTR fetches the word it points at, a read of RD_DATA the next one; the
// data arrives two cycles later, by the next access the bus can make
wire wr_punt_ptr = wr && ra == `SNIC_PUNT_RD_PTR;
// the bus's reads, or in the cycles it leaves free the head copy's (tagged: its data is
// not the bus's)
assign punt_rd_valid = rd_punt_data || wr_punt_ptr || cp_issue;
assign punt_rd_word = wr_punt_ptr ? csr_wdata[PUNT_WB-1:0]
                    : cp_issue ? cp_addr_reg : punt_rd_word_reg + 1'b1;
assign punt_rd_desc = wr_punt_ptr ? csr_wdata[31] : !cp_issue && punt_rd_desc_reg;
assign punt_rd_slot = wr_punt_ptr ? csr_wdata[16 +: PUNT_SB] : cp_issue ? cp_slot_reg : punt_rd_slot_reg;
assign st_rd_valid = wr && ra == `SNIC_STATS_RD_IDX;
assign trace_rd = wr && ra == `SNIC_DP_TRACE_RD_IDX;

wire [INJ_SB:0] inj_prod_sel = inj_sel_reg ? inj_prod[INJ_SB+1 +: INJ_SB+1] : inj_prod[0 +: INJ_SB+1];
wire [INJ_SB:0] inj_cons_sel = inj_sel_reg ? inj_cons[INJ_SB+1 +: INJ_SB+1] : inj_cons[0 +: INJ_SB+1];
wire [INJ_SB:0] inj_used = inj_prod_sel - inj_cons_sel;
wire inj_ready = !inj_used[INJ_SB] && inj_commit_reg == 2'b00;

function [31:0] u32(input integer v);
    u32 = v;
endfunction

// CSR read data, registered (the address decode is evaluated only for a read)
always @(posedge clk) begin
    rdata_reg <= 32'd0;
    if (rd) begin
        case (ra)
            `SNIC_DP_BLKID: rdata_reg <= `SNIC_DP_BLKID_RESET;
            `SNIC_DP_CTRL: rdata_reg <= {31'd0, fastpath_reg};
            `SNIC_DP_PUNT_POLICY: rdata_reg <= {24'd0, punt_policy_reg};
            `SNIC_DP_NOW: rdata_reg <= now;
            `SNIC_DP_MAC_C_LO: rdata_reg <= mac_c_reg[31:0];
            `SNIC_DP_MAC_C_HI: rdata_reg <= {16'd0, mac_c_reg[47:32]};
            `SNIC_DP_MAC_S_LO: rdata_reg <= mac_s_reg[31:0];
            `SNIC_DP_MAC_S_HI: rdata_reg <= {16'd0, mac_s_reg[47:32]};
            `SNIC_DP_PARAMS: rdata_reg <= {rw_latency[15:0], DW16};
            `SNIC_DP_MAX_FRAME: rdata_reg <= u32(MAX_FRAME);
            `SNIC_DP_FLOW_CAPACITY: rdata_reg <= u32(FLOW_BUCKETS * FLOW_WAYS);
            `SNIC_DP_FLOW_SLOTS: rdata_reg <= u32(FLOW_SLOTS);
            `SNIC_DP_OVERSIZE_C: rdata_reg <= oversize[31:0];
            `SNIC_DP_OVERSIZE_S: rdata_reg <= oversize[63:32];
            `SNIC_DP_RW_BYPASS_C: rdata_reg <= rw_bypass[31:0];
            `SNIC_DP_RW_BYPASS_S: rdata_reg <= rw_bypass[63:32];
            `SNIC_DP_RW_OPT_ERR_C: rdata_reg <= rw_opt_err[31:0];
            `SNIC_DP_RW_OPT_ERR_S: rdata_reg <= rw_opt_err[63:32];
            `SNIC_DP_UPD_DROPS: rdata_reg <= upd_drops_reg;
            `SNIC_DP_SYN_CTRL: rdata_reg <= syn_ctrl_rd;
            `SNIC_DP_SYN_MSS: rdata_reg <= {16'd0, syn_mss_reg};
            `SNIC_DP_SYN_PARAMS: rdata_reg <= SYN_PARAMS;
            `SNIC_DP_ACK_CTRL: rdata_reg <= {31'd0, ack_en_reg} << `SNIC_DP_ACK_CTRL_ENABLE_LSB;
            `SNIC_DP_FREE_STATUS: rdata_reg <= (u32(FREE_DEPTH) << `SNIC_DP_FREE_STATUS_DEPTH_LSB)
                                             | {{30-FREE_AW{1'b0}}, av_free_level};
            `SNIC_DP_ACK_NEW: rdata_reg <= av_new;
            `SNIC_DP_ACK_FOUND: rdata_reg <= av_found;
            `SNIC_DP_ACK_BAD_COOKIE: rdata_reg <= av_bad;
            `SNIC_DP_ACK_STALE: rdata_reg <= av_stale;
            `SNIC_DP_ACK_NO_SLOT: rdata_reg <= av_noslot;
            `SNIC_DP_ACK_TABLE_FULL: rdata_reg <= av_full;
            `SNIC_DP_FREE_REFUSED: rdata_reg <= av_refused;
            `SNIC_DP_ACK_LOST: rdata_reg <= av_lost;
            `SNIC_DP_SCHED_TBL_ADDR: rdata_reg <= {{32-SCHED_AW{1'b0}}, sch_tbl_addr_reg};
            `SNIC_DP_SCHED_PTR: rdata_reg <= {{32-SCHED_AW{1'b0}}, sch_ptr_value}
                                            << `SNIC_DP_SCHED_PTR_PTR_LSB;
            `SNIC_DP_SCHED_RSP: rdata_reg <= ({31'd0, sch_rsp_done_reg} << `SNIC_DP_SCHED_RSP_DONE_LSB)
                                            | ({30'd0, sch_rsp_status_reg} << `SNIC_DP_SCHED_RSP_STATUS_LSB)
                                            | {26'd0, sch_rsp_server_reg};
            `SNIC_DP_SCHED_PICKS: rdata_reg <= sch_picks_reg;
            `SNIC_DP_SCHED_NONES: rdata_reg <= sch_nones_reg;
            `SNIC_DP_SCHED_PUNTS: rdata_reg <= sch_punts_reg;
            `SNIC_DP_LOAD_COUNTS: rdata_reg <= ld_rd_counts_reg;
            `SNIC_DP_LOAD_RSP: rdata_reg <= ({31'd0, ld_done_reg} << `SNIC_DP_LOAD_RSP_DONE_LSB)
                                            | ({31'd0, ld_busy} << `SNIC_DP_LOAD_RSP_BUSY_LSB)
                                            | ({31'd0, ld_under_reg} << `SNIC_DP_LOAD_RSP_UNDERFLOW_LSB)
                                            | ({30'd0, ld_status_reg} << `SNIC_DP_LOAD_RSP_STATUS_LSB)
                                            | ({26'd0, ld_server_reg} << `SNIC_DP_LOAD_RSP_SERVER_LSB);
            `SNIC_DP_LOAD_PICKS: rdata_reg <= ld_picks_reg;
            `SNIC_DP_LOAD_NONES: rdata_reg <= ld_nones_reg;
            `SNIC_DP_LOAD_PUNTS: rdata_reg <= ld_punts_reg;
            `SNIC_DP_LOAD_UNDERFLOWS: rdata_reg <= ld_unders_reg;
            `SNIC_DP_LOAD_REFUSED: rdata_reg <= ld_refused_reg;
            `SNIC_DP_FREE_LOW: rdata_reg <= ({31'd0, free_low_armed_reg} << `SNIC_DP_FREE_LOW_ARMED_LSB)
                                          | ({16'd0, free_low_reg} << `SNIC_DP_FREE_LOW_LOW_LSB);
            `SNIC_DP_PUNT_HIGH: rdata_reg <= {16'd0, punt_high_reg} << `SNIC_DP_PUNT_HIGH_HIGH_LSB;
            `SNIC_DP_TRACE_CTRL: rdata_reg <= ({31'd0, trace_en_reg} << `SNIC_DP_TRACE_CTRL_ENABLE_LSB)
                                            | (u32(`SNIC_TRACE_DEPTH_LOG2) << `SNIC_DP_TRACE_CTRL_DEPTH_LOG2_LSB);
            `SNIC_DP_TRACE_COUNT: rdata_reg <= tr_count;
            `SNIC_DP_TRACE_LOST: rdata_reg <= tr_lost;
            `SNIC_DP_TRACE_RD_IDX: rdata_reg <= {{32-`SNIC_TRACE_DEPTH_LOG2{1'b0}}, trace_idx_reg};
            `SNIC_DP_TRACE_RD_DATA: rdata_reg <= tr_entry[31:0];
            `SNIC_DP_TRACE_RD_DATA + 32'd4: rdata_reg <= tr_entry[63:32];
            `SNIC_DP_TRACE_RD_DATA + 32'd8: rdata_reg <= tr_entry[95:64];
            `SNIC_DP_TRACE_RD_DATA + 32'd12: rdata_reg <= tr_entry[127:96];
            `SNIC_DP_SETUP_HIST_IDX: rdata_reg <= {27'd0, hist_idx_reg};
            `SNIC_DP_SETUP_HIST_DATA: rdata_reg <= hist_data;
            `SNIC_DP_SETUP_TIMED: rdata_reg <= setup_timed;
            `SNIC_DP_SETUP_OVERWRITTEN: rdata_reg <= setup_over;
            `SNIC_DP_TXGEN_DST_MAC_LO: rdata_reg <= txg_dmac_reg[31:0];
            `SNIC_DP_TXGEN_DST_MAC_HI: rdata_reg <= {16'd0, txg_dmac_reg[47:32]};
            `SNIC_DP_TXGEN_SRC_MAC_LO: rdata_reg <= txg_smac_reg[31:0];
            `SNIC_DP_TXGEN_SRC_MAC_HI: rdata_reg <= {16'd0, txg_smac_reg[47:32]};
            `SNIC_DP_TXGEN_SRC_IP: rdata_reg <= txg_sip_reg;
            `SNIC_DP_TXGEN_DST_IP: rdata_reg <= txg_dip_reg;
            `SNIC_DP_TXGEN_PORTS: rdata_reg <= txg_ports_reg;
            `SNIC_DP_TXGEN_SEQ: rdata_reg <= txg_seq_reg;
            `SNIC_DP_TXGEN_ACK: rdata_reg <= txg_ack_reg;
            `SNIC_DP_TXGEN_CTL: rdata_reg <= txg_ctl_reg;
            `SNIC_DP_TXGEN_OPTS: rdata_reg <= txg_opts_reg;
            `SNIC_DP_TXGEN_TSVAL: rdata_reg <= txg_tsval_reg;
            `SNIC_DP_TXGEN_TSECR: rdata_reg <= txg_tsecr_reg;
            `SNIC_DP_TXGEN_STATUS: rdata_reg <= ({31'd0, txg_valid_reg || hr_valid_reg} << `SNIC_DP_TXGEN_STATUS_BUSY_LSB)
                                               | (32'd1 << `SNIC_DP_TXGEN_STATUS_PRESENT_LSB);
            `SNIC_DP_TXGEN_SENT_C: rdata_reg <= txg_sent_c_reg;
            `SNIC_DP_TXGEN_SENT_S: rdata_reg <= txg_sent_s_reg;
            `SNIC_DP_TXGEN_REFUSED: rdata_reg <= txg_refused_reg;
            `SNIC_DP_HEAD_ALLOC: rdata_reg <= ({31'd0, hd_next_valid_reg} << `SNIC_DP_HEAD_ALLOC_VALID_LSB)
                                         | ({{32-HB_IW{1'b0}}, hd_next_id_reg} << `SNIC_DP_HEAD_ALLOC_ID_LSB);
            `SNIC_DP_HEAD_STATUS: rdata_reg <= ({{31-HB_BA{1'b0}}, hd_last_len_reg} << `SNIC_DP_HEAD_STATUS_LEN_LSB)
                                          | ({31'd0, hd_words_left_reg != 10'd0 || hd_segs_reg != 4'd0}
                                             << `SNIC_DP_HEAD_STATUS_APPENDING_LSB)
                                          | ({{31-HB_IW{1'b0}}, hb_in_use} << `SNIC_DP_HEAD_STATUS_IN_USE_LSB)
                                          | ({{31-HB_IW{1'b0}}, hb_in_use_max} << `SNIC_DP_HEAD_STATUS_IN_USE_MAX_LSB)
                                          | ({31'd0, hr_valid_reg || hr_active_reg} << `SNIC_DP_HEAD_STATUS_REPLAYING_LSB)
                                          | (32'd1 << `SNIC_DP_HEAD_STATUS_PRESENT_LSB);
            `SNIC_DP_HEAD_SENT: rdata_reg <= hr_sent;
            `SNIC_DP_ABSORB_CTRL: rdata_reg <= ({31'd0, abs_en_reg} << `SNIC_DP_ABSORB_CTRL_ENABLE_LSB)
                                              | (32'd1 << `SNIC_DP_ABSORB_CTRL_PRESENT_LSB);
            `SNIC_DP_ABSORB_DONE: rdata_reg <= ab_done;
            `SNIC_DP_ABSORB_PUNTED: rdata_reg <= ab_punted;
            `SNIC_DP_ABSORB_HEAD: rdata_reg <= ({31'd0, abq_valid && !abq_pop_reg} << `SNIC_DP_ABSORB_HEAD_VALID_LSB)
                                              | ({24'd0, abq_count32[7:0]} << `SNIC_DP_ABSORB_HEAD_LEVEL_LSB)
                                              | (abq_valid && !abq_pop_reg
                                                 ? ({24'd0, abq_data[ABQ_W-1 -: 8]} << `SNIC_DP_ABSORB_HEAD_GEN_LSB)
                                                   | {{32-SLOT_BITS{1'b0}}, abq_data[SLOT_BITS-1:0]}
                                                 : 32'd0);
            `SNIC_DP_ABSORB_SPILLED: rdata_reg <= ab_spilled_reg;
            `SNIC_DP_ABSORB_STATUS: rdata_reg <= ({31'd0, ab_dis_busy} << `SNIC_DP_ABSORB_STATUS_BUSY_LSB)
                                                | ({30'd0, ab_dis_result} << `SNIC_DP_ABSORB_STATUS_RESULT_LSB);
            `SNIC_DP_HEAD_LONG: rdata_reg <= hr_long;
            `SNIC_DP_HEAD_BAD: rdata_reg <= hd_bad_reg;
            `SNIC_DP_FIN_CTRL: rdata_reg <= ({31'd0, fin_evt_reg} << `SNIC_DP_FIN_CTRL_EVENTS_LSB)
                                           | (32'd1 << `SNIC_DP_FIN_CTRL_PRESENT_LSB);
            `SNIC_DP_FIN_COUNT_IDX: rdata_reg <= {{32-RS_W{1'b0}}, fin_idx_reg};
            `SNIC_DP_FIN_COUNT: rdata_reg <= fin_count_rd;
            `SNIC_DP_AGE_CTRL: rdata_reg <= ({31'd0, age_en_reg} << `SNIC_DP_AGE_CTRL_ENABLE_LSB)
                                           | ({31'd0, age_free_reg} << `SNIC_DP_AGE_CTRL_FREE_LSB)
                                           | ({16'd0, age_interval_reg} << `SNIC_DP_AGE_CTRL_INTERVAL_LSB);
            `SNIC_DP_AGE_LIMIT: rdata_reg <= (age_limit_reg == 32'd0 || age_limit_reg > u32(FLOW_SLOTS))
                                            ? u32(FLOW_SLOTS) : age_limit_reg;
            // (not valid in the cycle a pop is being taken: the next head shows one cycle on)
            `SNIC_DP_AGE_HEAD: rdata_reg <= ({31'd0, age_q_valid && !age_pop_reg} << `SNIC_DP_AGE_HEAD_VALID_LSB)
                                           | ({{32-`SNIC_TIMEOUT_CLASS_W{1'b0}}, age_q_class}
                                              << `SNIC_DP_AGE_HEAD_CLASS_LSB)
                                           | ({31'd0, age_q_freed} << `SNIC_DP_AGE_HEAD_FREED_LSB)
                                           | ({31'd0, age_q_active} << `SNIC_DP_AGE_HEAD_ACTIVE_LSB)
                                           | ({24'd0, age_q_rs} << `SNIC_DP_AGE_HEAD_RS_LSB)
                                           | {{32-SLOT_BITS{1'b0}}, age_q_slot};
            `SNIC_DP_AGE_STATUS: rdata_reg <= (u32(`SNIC_AGE_QUEUE_DEPTH) << `SNIC_DP_AGE_STATUS_DEPTH_LSB)
                                             | (32'd1 << `SNIC_DP_AGE_STATUS_FREER_LSB)
                                             | {24'd0, age_q_level};
            `SNIC_DP_AGE_CLIENT: rdata_reg <= age_q_client;
            `SNIC_DP_AGE_FREED: rdata_reg <= age_freed;
            `SNIC_DP_AGE_POS: rdata_reg <= {{32-SLOT_BITS{1'b0}}, age_pos};
            `SNIC_DP_AGE_SWEEPS: rdata_reg <= age_sweeps;
            `SNIC_DP_AGE_EXPIRED: rdata_reg <= age_expired;

            `SNIC_FLOW_BLKID: rdata_reg <= `SNIC_FLOW_BLKID_RESET;
            `SNIC_FLOW_KEY_SRC_IP: rdata_reg <= ft_key_reg[95:64];
            `SNIC_FLOW_KEY_DST_IP: rdata_reg <= ft_key_reg[63:32];
            `SNIC_FLOW_KEY_PORTS: rdata_reg <= ft_key_reg[31:0];
            `SNIC_FLOW_VALUE: rdata_reg <= {15'd0, ft_value_reg};
            `SNIC_FLOW_STATUS: rdata_reg <= {18'd0, {2-WAY_BITS{1'b0}}, flow_way_reg, 2'd0,
                                             flow_status_reg, 6'd0, ft_init_done, flow_busy_reg};
            `SNIC_FLOW_RESULT: rdata_reg <= {15'd0, flow_result_reg};
            `SNIC_FLOW_BUCKET: rdata_reg <= {{32-BUCKET_BITS{1'b0}}, flow_bucket_reg};
            `SNIC_FLOW_ENTRIES: rdata_reg <= ft_entries;
            `SNIC_FLOW_INSERTS: rdata_reg <= ft_inserts;
            `SNIC_FLOW_DELETES: rdata_reg <= ft_deletes;
            `SNIC_FLOW_EXISTS: rdata_reg <= ft_exists;
            `SNIC_FLOW_BUCKET_FULL: rdata_reg <= ft_full;
            `SNIC_FLOW_NOT_FOUND: rdata_reg <= ft_nf;
            `SNIC_FLOW_STATE_SLOT: rdata_reg <= {{32-SLOT_BITS{1'b0}}, fs_slot_reg};
            `SNIC_FLOW_STATE_STATUS: rdata_reg <= {31'd0, fs_busy_reg};

            `SNIC_L7_BLKID: rdata_reg <= `SNIC_L7_BLKID_RESET;
            `SNIC_L7_RULE: rdata_reg <= {24'd0, l7_rule_reg};
            `SNIC_L7_WORD: rdata_reg <= {24'd0, l7_word_reg};
            `SNIC_L7_STATUS: rdata_reg <= {28'd0, l7c_busy_reg, l7_wr_valid_reg, l7_inactive_busy,
                                           l7_active_bank};
            `SNIC_L7_PARAMS: rdata_reg <= (u32(L7_PAT_MAX) << 16) | u32(L7_RULES);
            `SNIC_L7_BUF_PTR: rdata_reg <= {24'd0, l7buf_ptr_reg};
            `SNIC_L7_REQUESTS: rdata_reg <= l7_requests_reg;
            `SNIC_L7_COMMANDS: rdata_reg <= l7_commands_reg;

            `SNIC_PUNT_BLKID: rdata_reg <= `SNIC_PUNT_BLKID_RESET;
            `SNIC_PUNT_PROD: rdata_reg <= {{31-PUNT_SB{1'b0}}, punt_prod};
            `SNIC_PUNT_CONS: rdata_reg <= {{31-PUNT_SB{1'b0}}, punt_cons};
            `SNIC_PUNT_PARAMS: rdata_reg <= (u32(2048) << 16) | u32(PUNT_SLOTS);
            `SNIC_PUNT_RD_PTR: rdata_reg <= {punt_rd_desc_reg, 7'd0, {8-PUNT_SB{1'b0}},
                                             punt_rd_slot_reg, {16-PUNT_WB{1'b0}},
                                             punt_rd_word_reg};
            `SNIC_PUNT_RD_DATA: rdata_reg <= punt_rd_data_valid && !cp_tag2_reg ? punt_rd_data : punt_word_reg;
            `SNIC_PUNT_FRAMES: rdata_reg <= punt_frames;
            // every punted frame dropped for lack of ring room: ring full, or a new
            // connection attempt finding only the reserved slots free
            `SNIC_PUNT_DROP_FULL: rdata_reg <= punt_drop_full + punt_drop_low;
            `SNIC_PUNT_DROP_LONG: rdata_reg <= punt_drop_long;
            `SNIC_PUNT_BAD_CONS: rdata_reg <= punt_bad_cons;

            `SNIC_INJECT_BLKID: rdata_reg <= `SNIC_INJECT_BLKID_RESET;
            `SNIC_INJECT_SEL: rdata_reg <= {31'd0, inj_sel_reg};
            `SNIC_INJECT_PROD: rdata_reg <= {{31-INJ_SB{1'b0}}, inj_prod_sel};
            `SNIC_INJECT_CONS: rdata_reg <= {{31-INJ_SB{1'b0}}, inj_cons_sel};
            `SNIC_INJECT_PARAMS: rdata_reg <= (u32(2048) << 16) | u32(INJ_SLOTS);
            `SNIC_INJECT_WR_PTR: rdata_reg <= {{32-INJ_WB{1'b0}}, inj_ptr_reg};
            `SNIC_INJECT_COMMIT_LEN: rdata_reg <= {14'd0, inj_len_reg};
            `SNIC_INJECT_COMMIT_OFF: rdata_reg <= inj_off_reg;
            `SNIC_INJECT_STATUS: rdata_reg <= {31'd0, inj_ready};
            `SNIC_INJECT_FRAMES: rdata_reg <= inj_sel_reg ? inj_frames[63:32] : inj_frames[31:0];
            `SNIC_INJECT_BAD_COMMIT: rdata_reg <= inj_sel_reg ? inj_bad[63:32] : inj_bad[31:0];

            `SNIC_EVQ_BLKID: rdata_reg <= `SNIC_EVQ_BLKID_RESET;
            `SNIC_EVQ_LEVEL: rdata_reg <= {{30-EVQ_AW{1'b0}}, evq_level};
            `SNIC_EVQ_HEAD_INFO: rdata_reg <= {evq_head_valid, 29'd0, evq_head_src};
            `SNIC_EVQ_PARAMS: rdata_reg <= u32(EVQ_DEPTH);
            `SNIC_EVQ_PUSHED: rdata_reg <= evq_pushed;
            `SNIC_EVQ_OVERFLOW: rdata_reg <= evq_overflow + evt_lost_reg;

            `SNIC_STATS_BLKID: rdata_reg <= `SNIC_STATS_BLKID_RESET;
            `SNIC_STATS_CTRL: rdata_reg <= {30'd0, st_clear_on_snap_reg, 1'b0};
            `SNIC_STATS_STATUS: rdata_reg <= {30'd0, st_rd_busy_reg, st_init_done};
            `SNIC_STATS_RD_IDX: rdata_reg <= {{32-STAT_IB{1'b0}}, st_rd_idx_reg};
            `SNIC_STATS_RD_LO: rdata_reg <= st_rd_data_valid ? st_rd_data[31:0]
                                                             : st_rd_result_reg[31:0];
            `SNIC_STATS_RD_HI: rdata_reg <= st_rd_data_valid ? st_rd_data[63:32]
                                                             : st_rd_result_reg[63:32];
            `SNIC_STATS_SNAPSHOTS: rdata_reg <= st_snapshots;
            `SNIC_STATS_PARAMS: rdata_reg <= STAT_COUNTERS;
            default: rdata_reg <= 32'd0;
        endcase
        // arrays
        if (ra >= `SNIC_DP_VIP_ADDR && ra < `SNIC_DP_VIP_ADDR + 8 * VIP_N) begin
            rdata_reg <= ra[2] ? {vip_en_reg[ra[5:3]], 15'd0, vip_port_reg[16*ra[5:3] +: 16]}
                               : vip_addr_reg[32*ra[5:3] +: 32];
        end
        if (ra >= `SNIC_DP_LOCAL_ADDR && ra < `SNIC_DP_LOCAL_ADDR + 8 * LOCAL_N) begin
            rdata_reg <= ra[2] ? {local_en_reg[ra[4:3]], 31'd0}
                               : local_addr_reg[32*ra[4:3] +: 32];
        end
        if (ra >= `SNIC_FLOW_STATE_STATIC && ra < `SNIC_FLOW_STATE_STATIC + 4 * `SNIC_FLOW_STATE_STATIC_COUNT) begin
            rdata_reg <= fs_static_reg[32*(ra[5:2]) +: 32];
        end
        if (ra >= `SNIC_FLOW_STATE_DYN && ra < `SNIC_FLOW_STATE_DYN + 4 * `SNIC_FLOW_STATE_DYN_COUNT) begin
            rdata_reg <= fs_dyn_reg[32*(ra[5:2]) +: 32];
        end
        if (ra >= `SNIC_EVQ_HEAD && ra < `SNIC_EVQ_HEAD + 16) begin
            rdata_reg <= evq_head_valid ? evq_head_data[32*ra[3:2] +: 32] : 32'd0;
        end
    end
end

always @(posedge clk) begin
    hit_reg <= sel;

    // one-cycle pulses
    punt_cons_wr_reg <= 1'b0;
    inj_wr_valid_reg <= 2'b00;
    l7buf_wr_reg <= 1'b0;
    l7c_start_reg <= 1'b0;
    l7_switch_reg <= 1'b0;
    evq_pop_reg <= 1'b0;
    st_snap_reg <= 1'b0;
    st_clear_all_reg <= 1'b0;
    key_wr_reg <= 1'b0;
    free_push_reg <= 1'b0;
    free_flush_reg <= 1'b0;
    sch_tbl_wr_reg <= 1'b0;
    sch_mask_wr_reg <= 1'b0;
    sch_commit_reg <= 1'b0;
    ld_pool_wr_reg <= 1'b0;
    free_low_restart_reg <= 1'b0;
    punt_high_restart_reg <= 1'b0;
    age_to_wr_reg <= 1'b0;
    age_pop_reg <= 1'b0;
    abq_pop_reg <= 1'b0;

    // the frame generator's request taken
    if (txg_take) txg_valid_reg <= 1'b0;
    if (hr_take) hr_valid_reg <= 1'b0;

    // the least-load operation taken, its answer latched, its pulses counted
    if (ld_op_valid_reg && ld_op_ready) ld_op_valid_reg <= 1'b0;
    if (ld_rsp_valid) begin
        ld_done_reg <= 1'b1;
        ld_status_reg <= ld_rsp_status;
        ld_server_reg <= ld_rsp_server;
        if (ld_rsp_status == `SNIC_LOAD_STATUS_DATA)
            ld_rd_counts_reg <= ({{32-LOAD_CW{1'b0}}, ld_rsp_active} << `SNIC_DP_LOAD_COUNTS_ACTIVE_LSB)
                | ({{32-LOAD_CW{1'b0}}, ld_rsp_inactive} << `SNIC_DP_LOAD_COUNTS_INACTIVE_LSB)
                | ({31'd0, ld_rsp_ovl} << `SNIC_DP_LOAD_COUNTS_OVERLOADED_LSB);
    end
    if (ld_ev_under) begin
        ld_under_reg <= 1'b1;
        ld_unders_reg <= ld_unders_reg + 1'b1;
    end
    if (ld_ev_pick) ld_picks_reg <= ld_picks_reg + 1'b1;
    if (ld_ev_none) ld_nones_reg <= ld_nones_reg + 1'b1;
    if (ld_ev_punt) ld_punts_reg <= ld_punts_reg + 1'b1;

    // the decision supply's request taken, its answer latched and counted
    if (sch_req_valid_reg && sch_req_ready) sch_req_valid_reg <= 1'b0;
    if (sch_rsp_valid && sch_rsp_tag == sch_req_tag_reg) begin
        sch_rsp_done_reg <= 1'b1;
        sch_rsp_status_reg <= sch_rsp_status;
        sch_rsp_server_reg <= sch_rsp_server;
    end
    if (sch_rsp_valid) begin
        case (sch_rsp_status)
            `SNIC_SCHED_STATUS_PICK: sch_picks_reg <= sch_picks_reg + 1'b1;
            `SNIC_SCHED_STATUS_NONE: sch_nones_reg <= sch_nones_reg + 1'b1;
            default: sch_punts_reg <= sch_punts_reg + 1'b1;
        endcase
    end

    // command completions
    if (ft_cmd_valid_reg && ft_cmd_ready) begin
        ft_cmd_valid_reg <= 1'b0;
    end
    if (ft_rsp_fw) begin
        flow_busy_reg <= 1'b0;
        flow_status_reg <= ft_rsp_status;
        flow_result_reg <= {ft_rsp_dir, ft_rsp_value};
        flow_bucket_reg <= ft_rsp_bucket;
        flow_way_reg <= ft_rsp_way;
    end
    if (fs_cmd_valid_reg && fs_cmd_ready) begin
        fs_cmd_valid_reg <= 1'b0;
    end
    if (fs_rsp_fw) begin
        fs_busy_reg <= 1'b0;
        if (fs_cmd_op_reg == 2'd0 || fs_cmd_op_reg == 2'd3) begin
            fs_static_reg <= {{FSR_W-FS_W{1'b0}}, fs_rsp_static};
            fs_dyn_reg <= {{FDR_W-FD_W{1'b0}}, fs_rsp_dyn};
        end
    end
    if (l7_wr_valid_reg && l7_wr_ready) begin
        l7_wr_valid_reg <= 1'b0;
    end
    if (inj_commit_reg[0] && inj_commit_ready[0]) begin
        inj_commit_reg[0] <= 1'b0;
    end
    if (inj_commit_reg[1] && inj_commit_ready[1]) begin
        inj_commit_reg[1] <= 1'b0;
    end
    if (st_rd_data_valid) begin
        st_rd_busy_reg <= 1'b0;
        st_rd_result_reg <= st_rd_data;
    end
    if (punt_rd_data_valid && !cp_tag2_reg) begin
        punt_word_reg <= punt_rd_data;
    end

    if (rd_punt_data) begin
        punt_rd_word_reg <= punt_rd_word_reg + 1'b1;
    end

    if (wr) begin
        case (ra)
            `SNIC_DP_CTRL: fastpath_reg <= csr_wdata[`SNIC_DP_CTRL_FASTPATH_LSB];
            `SNIC_DP_PUNT_POLICY: punt_policy_reg <= csr_wdata[7:0];
            `SNIC_DP_MAC_C_LO: mac_c_reg[31:0] <= csr_wdata;
            `SNIC_DP_MAC_C_HI: mac_c_reg[47:32] <= csr_wdata[15:0];
            `SNIC_DP_MAC_S_LO: mac_s_reg[31:0] <= csr_wdata;
            `SNIC_DP_MAC_S_HI: mac_s_reg[47:32] <= csr_wdata[15:0];
            `SNIC_DP_SYN_CTRL: begin
                syn_mask_reg <= csr_wdata[`SNIC_DP_SYN_CTRL_VIP_MASK_LSB +: VIP_N];
                syn_offer_ws_reg <= csr_wdata[`SNIC_DP_SYN_CTRL_OFFER_WSCALE_LSB];
                syn_offer_sack_reg <= csr_wdata[`SNIC_DP_SYN_CTRL_OFFER_SACK_LSB];
                syn_offer_ts_reg <= csr_wdata[`SNIC_DP_SYN_CTRL_OFFER_TS_LSB];
                syn_epoch_reg <= csr_wdata[`SNIC_DP_SYN_CTRL_CUR_EPOCH_LSB];
                syn_prev_reg <= csr_wdata[`SNIC_DP_SYN_CTRL_PREV_VALID_LSB];
            end
            `SNIC_DP_SYN_MSS: syn_mss_reg <= csr_wdata[15:0];
            `SNIC_DP_ACK_CTRL: ack_en_reg <= csr_wdata[`SNIC_DP_ACK_CTRL_ENABLE_LSB];
            `SNIC_DP_FREE_PUSH: begin
                free_push_reg <= 1'b1;
                free_data_reg <= csr_wdata[23:0];
            end
            `SNIC_DP_FREE_CTRL: free_flush_reg <= csr_wdata[`SNIC_DP_FREE_CTRL_FLUSH_LSB];
            `SNIC_DP_SCHED_TBL_ADDR: sch_tbl_addr_reg <= csr_wdata[SCHED_AW-1:0];
            `SNIC_DP_SCHED_TBL_DATA: begin
                sch_tbl_wr_reg <= 1'b1;
                sch_tbl_wr_addr_reg <= sch_tbl_addr_reg;
                sch_tbl_data_reg <= csr_wdata[7:0];
                sch_tbl_addr_reg <= sch_tbl_addr_reg + 1'b1;
            end
            `SNIC_DP_SCHED_MASK_LO: sch_mask_reg[31:0] <= csr_wdata;
            `SNIC_DP_SCHED_MASK_HI: sch_mask_reg[63:32] <= csr_wdata;
            `SNIC_DP_SCHED_MASK_WR: begin
                sch_mask_wr_reg <= 1'b1;
                sch_mask_pool_reg <= csr_wdata[`SNIC_DP_SCHED_MASK_WR_POOL_LSB +: SCHED_PW];
            end
            `SNIC_DP_SCHED_RANGE: begin
                sch_base_reg <= csr_wdata[`SNIC_DP_SCHED_RANGE_BASE_LSB +: SCHED_AW];
                sch_last_reg <= csr_wdata[`SNIC_DP_SCHED_RANGE_LAST_LSB +: SCHED_AW];
            end
            `SNIC_DP_SCHED_LOOP: begin
                sch_loop_reg <= csr_wdata[`SNIC_DP_SCHED_LOOP_LOOP_LSB +: SCHED_AW];
                sch_ptr_reg <= csr_wdata[`SNIC_DP_SCHED_LOOP_PTR_LSB +: SCHED_AW];
            end
            `SNIC_DP_SCHED_COMMIT: begin
                sch_commit_reg <= 1'b1;
                sch_c_pool_reg <= csr_wdata[`SNIC_DP_SCHED_COMMIT_POOL_LSB +: SCHED_PW];
                sch_c_mode_reg <= csr_wdata[`SNIC_DP_SCHED_COMMIT_MODE_LSB +: `SNIC_SCHED_MODE_W];
                sch_c_fb_reg <= csr_wdata[`SNIC_DP_SCHED_COMMIT_FALLBACK_LSB];
                sch_c_hp_reg <= csr_wdata[`SNIC_DP_SCHED_COMMIT_HASH_PORT_LSB];
                sch_c_setptr_reg <= csr_wdata[`SNIC_DP_SCHED_COMMIT_SET_PTR_LSB];
            end
            `SNIC_DP_SCHED_PTR: sch_ptr_pool_reg <= csr_wdata[`SNIC_DP_SCHED_PTR_POOL_LSB +: SCHED_PW];
            `SNIC_DP_SCHED_REQ_CLIENT: sch_req_client_reg <= csr_wdata;
            `SNIC_DP_LOAD_CFG: begin
                ld_weight_reg <= csr_wdata[`SNIC_DP_LOAD_CFG_WEIGHT_LSB +: 16];
                ld_rank_reg <= csr_wdata[`SNIC_DP_LOAD_CFG_RANK_LSB +: 6];
                ld_live_reg <= csr_wdata[`SNIC_DP_LOAD_CFG_LIVE_LSB];
            end
            `SNIC_DP_LOAD_UPPER: ld_upper_reg <= csr_wdata[LOAD_CW+1:0];
            `SNIC_DP_LOAD_LOWER: ld_lower_reg <= csr_wdata[LOAD_CW+1:0];
            `SNIC_DP_LOAD_COUNTS: begin
                ld_act_reg <= csr_wdata[`SNIC_DP_LOAD_COUNTS_ACTIVE_LSB +: LOAD_CW];
                ld_inact_reg <= csr_wdata[`SNIC_DP_LOAD_COUNTS_INACTIVE_LSB +: LOAD_CW];
                ld_ovl_reg <= csr_wdata[`SNIC_DP_LOAD_COUNTS_OVERLOADED_LSB];
            end
            `SNIC_DP_LOAD_OP: begin
                if (ld_busy) begin
                    ld_refused_reg <= ld_refused_reg + 1'b1;
                end else begin
                    ld_op_valid_reg <= 1'b1;
                    ld_code_reg <= csr_wdata[`SNIC_DP_LOAD_OP_CODE_LSB +: `SNIC_LOAD_OP_W];
                    ld_flag_reg <= csr_wdata[`SNIC_DP_LOAD_OP_FLAG_LSB];
                    ld_op_pool_reg <= csr_wdata[`SNIC_DP_LOAD_OP_POOL_LSB +: SCHED_PW];
                    ld_slot_reg <= csr_wdata[`SNIC_DP_LOAD_OP_SLOT_LSB +: 6];
                    ld_done_reg <= 1'b0;
                    ld_under_reg <= 1'b0;
                end
            end
            `SNIC_DP_FREE_LOW: free_low_restart_reg <= 1'b1;
            `SNIC_DP_TXGEN_DST_MAC_LO: txg_dmac_reg[31:0] <= csr_wdata;
            `SNIC_DP_TXGEN_DST_MAC_HI: txg_dmac_reg[47:32] <= csr_wdata[15:0];
            `SNIC_DP_TXGEN_SRC_MAC_LO: txg_smac_reg[31:0] <= csr_wdata;
            `SNIC_DP_TXGEN_SRC_MAC_HI: txg_smac_reg[47:32] <= csr_wdata[15:0];
            `SNIC_DP_TXGEN_SRC_IP: txg_sip_reg <= csr_wdata;
            `SNIC_DP_TXGEN_DST_IP: txg_dip_reg <= csr_wdata;
            `SNIC_DP_TXGEN_PORTS: txg_ports_reg <= csr_wdata;
            `SNIC_DP_TXGEN_SEQ: txg_seq_reg <= csr_wdata;
            `SNIC_DP_TXGEN_ACK: txg_ack_reg <= csr_wdata;
            `SNIC_DP_TXGEN_CTL: txg_ctl_reg <= csr_wdata;
            `SNIC_DP_TXGEN_OPTS: txg_opts_reg <= csr_wdata;
            `SNIC_DP_TXGEN_TSVAL: txg_tsval_reg <= csr_wdata;
            `SNIC_DP_TXGEN_TSECR: txg_tsecr_reg <= csr_wdata;
            `SNIC_DP_TXGEN_GO: begin
                if (txg_valid_reg || hr_valid_reg) begin
                    txg_refused_reg <= txg_refused_reg + 1'b1;
                end else begin
                    txg_valid_reg <= 1'b1;
                    txg_port_reg <= csr_wdata[`SNIC_DP_TXGEN_GO_PORT_LSB];
                end
            end
            `SNIC_DP_HEAD_REPLAY: begin
                if (txg_valid_reg || hr_valid_reg) begin
                    txg_refused_reg <= txg_refused_reg + 1'b1;
                end else begin
                    hr_valid_reg <= 1'b1;
                    hr_buf_reg <= csr_wdata[`SNIC_DP_HEAD_REPLAY_ID_LSB +: HB_IW];
                    hr_max_reg <= csr_wdata[`SNIC_DP_HEAD_REPLAY_MAX_LEN_LSB +: 16];
                end
            end
            `SNIC_DP_ABSORB_CTRL: abs_en_reg <= csr_wdata[`SNIC_DP_ABSORB_CTRL_ENABLE_LSB];
            `SNIC_DP_AGE_CTRL: begin
                age_en_reg <= csr_wdata[`SNIC_DP_AGE_CTRL_ENABLE_LSB];
                age_free_reg <= csr_wdata[`SNIC_DP_AGE_CTRL_FREE_LSB];
                age_interval_reg <= csr_wdata[`SNIC_DP_AGE_CTRL_INTERVAL_LSB +: 16];
            end
            `SNIC_DP_AGE_LIMIT: age_limit_reg <= csr_wdata;
            `SNIC_DP_FIN_CTRL: fin_evt_reg <= csr_wdata[`SNIC_DP_FIN_CTRL_EVENTS_LSB];
            `SNIC_DP_FIN_COUNT_IDX: fin_idx_reg <= csr_wdata[RS_W-1:0];
            `SNIC_DP_AGE_POP: age_pop_reg <= age_q_valid;
            `SNIC_DP_ABSORB_POP: abq_pop_reg <= abq_valid;
            `SNIC_DP_PUNT_HIGH: punt_high_restart_reg <= 1'b1;
            `SNIC_DP_TRACE_CTRL: trace_en_reg <= csr_wdata[`SNIC_DP_TRACE_CTRL_ENABLE_LSB];
            `SNIC_DP_SETUP_HIST_IDX: hist_idx_reg <= csr_wdata[4:0];
            `SNIC_DP_TRACE_RD_IDX: trace_idx_reg <= csr_wdata[`SNIC_TRACE_DEPTH_LOG2-1:0];
            `SNIC_DP_LOAD_POOL: begin
                ld_pool_wr_reg <= 1'b1;
                ld_d_pool_reg <= csr_wdata[`SNIC_DP_LOAD_POOL_POOL_LSB +: SCHED_PW];
                ld_d_mode_reg <= csr_wdata[`SNIC_DP_LOAD_POOL_MODE_LSB +: `SNIC_LOAD_MODE_W];
                ld_d_beats_reg <= csr_wdata[`SNIC_DP_LOAD_POOL_BEATS_M1_LSB +: 5];
            end
            `SNIC_DP_SCHED_REQ: begin
                sch_req_valid_reg <= 1'b1;
                sch_req_reg <= csr_wdata[26:0];
                sch_req_tag_reg <= !sch_req_tag_reg;
                sch_rsp_done_reg <= 1'b0;
            end
            `SNIC_DP_COOKIE_KEY_LO: key_stage_reg[31:0] <= csr_wdata;
            `SNIC_DP_COOKIE_KEY_HI: key_stage_reg[63:32] <= csr_wdata;
            `SNIC_DP_COOKIE_KEY_WR: begin
                key_wr_reg <= 1'b1;
                key_slot_reg <= csr_wdata[`SNIC_DP_COOKIE_KEY_WR_SLOT_LSB];
            end

            `SNIC_FLOW_KEY_SRC_IP: ft_key_reg[95:64] <= csr_wdata;
            `SNIC_FLOW_KEY_DST_IP: ft_key_reg[63:32] <= csr_wdata;
            `SNIC_FLOW_KEY_PORTS: ft_key_reg[31:0] <= csr_wdata;
            `SNIC_FLOW_VALUE: ft_value_reg <= csr_wdata[16:0];
            `SNIC_FLOW_CMD: begin
                if (!flow_busy_reg) begin
                    flow_busy_reg <= 1'b1;
                    ft_cmd_valid_reg <= 1'b1;
                    ft_cmd_op_reg <= csr_wdata[1:0];
                end
            end
            `SNIC_FLOW_STATE_SLOT: fs_slot_reg <= csr_wdata[SLOT_BITS-1:0];
            `SNIC_FLOW_STATE_CMD: begin
                if (!fs_busy_reg) begin
                    fs_busy_reg <= 1'b1;
                    fs_cmd_valid_reg <= 1'b1;
                    fs_cmd_op_reg <= csr_wdata[1:0];
                end
            end

            `SNIC_L7_RULE: l7_rule_reg <= csr_wdata[7:0];
            `SNIC_L7_WORD: l7_word_reg <= csr_wdata[7:0];
            `SNIC_L7_DATA: begin
                if (!l7_wr_valid_reg) begin
                    l7_data_reg <= csr_wdata;
                    l7_wr_valid_reg <= 1'b1;
                end
            end
            `SNIC_L7_SWITCH: l7_switch_reg <= csr_wdata[0];
            `SNIC_L7_BUF_PTR: l7buf_ptr_reg <= csr_wdata[7:0];
            `SNIC_L7_BUF_DATA: begin
                if (!l7c_busy_reg && !l7c_start_reg) begin
                    l7buf_wr_reg <= 1'b1;
                    l7buf_wr_word_reg <= l7buf_ptr_reg;
                    l7buf_wr_data_reg <= csr_wdata;
                    l7buf_ptr_reg <= l7buf_ptr_reg + 1'b1;
                end
            end
            `SNIC_L7_CMD: begin
                if (!l7c_busy_reg && !l7c_start_reg && csr_wdata[15:0] != 16'd0) begin
                    l7c_start_reg <= 1'b1;
                    l7c_len_reg <= csr_wdata[15:0];
                    l7c_tag_reg <= csr_wdata[31:16];
                    l7c_gen_reg <= l7c_gen_next_reg;
                    l7c_gen_next_reg <= 8'd0;
                    l7_commands_reg <= l7_commands_reg + 1'b1;
                end
            end
            `SNIC_L7_CMD_GEN: l7c_gen_next_reg <= csr_wdata[7:0];

            `SNIC_PUNT_CONS: begin
                punt_cons_wr_reg <= 1'b1;
                punt_cons_val_reg <= csr_wdata[PUNT_SB:0];
            end
            `SNIC_PUNT_RD_PTR: begin
                punt_rd_desc_reg <= csr_wdata[31];
                punt_rd_slot_reg <= csr_wdata[16 +: PUNT_SB];
                punt_rd_word_reg <= csr_wdata[PUNT_WB-1:0];
            end

            `SNIC_INJECT_SEL: inj_sel_reg <= csr_wdata[0];
            `SNIC_INJECT_WR_PTR: inj_ptr_reg <= csr_wdata[INJ_WB-1:0];
            `SNIC_INJECT_WR_DATA: begin
                inj_wr_valid_reg[inj_sel_reg] <= 1'b1;
                inj_wr_word_reg <= inj_ptr_reg;
                inj_wr_data_reg <= csr_wdata;
                inj_ptr_reg <= inj_ptr_reg + 1'b1;
            end
            `SNIC_INJECT_COMMIT_LEN: inj_len_reg <= csr_wdata[17:0];
            `SNIC_INJECT_COMMIT_OFF: inj_off_reg <= csr_wdata;
            `SNIC_INJECT_COMMIT: begin
                if (inj_commit_reg == 2'b00) begin
                    inj_commit_reg[inj_sel_reg] <= 1'b1;
                    inj_end_reg <= csr_wdata[15:0];
                    inj_ptr_reg <= {INJ_WB{1'b0}};
                end
            end

            `SNIC_EVQ_POP: evq_pop_reg <= 1'b1;

            `SNIC_STATS_CTRL: begin
                st_snap_reg <= csr_wdata[0];
                st_clear_on_snap_reg <= csr_wdata[1];
                st_clear_all_reg <= csr_wdata[2];
            end
            `SNIC_STATS_RD_IDX: begin
                st_rd_idx_reg <= csr_wdata[STAT_IB-1:0];
                st_rd_busy_reg <= 1'b1;
            end
            default: ;
        endcase
        if (ra >= `SNIC_DP_VIP_ADDR && ra < `SNIC_DP_VIP_ADDR + 8 * VIP_N) begin
            if (ra[2]) begin
                vip_en_reg[ra[5:3]] <= csr_wdata[31];
                vip_port_reg[16*ra[5:3] +: 16] <= csr_wdata[15:0];
            end else begin
                vip_addr_reg[32*ra[5:3] +: 32] <= csr_wdata;
            end
        end
        if (ra >= `SNIC_DP_LOCAL_ADDR && ra < `SNIC_DP_LOCAL_ADDR + 8 * LOCAL_N) begin
            if (ra[2]) begin
                local_en_reg[ra[4:3]] <= csr_wdata[31];
            end else begin
                local_addr_reg[32*ra[4:3] +: 32] <= csr_wdata;
            end
        end
        if (ra >= `SNIC_FLOW_STATE_STATIC && ra < `SNIC_FLOW_STATE_STATIC + 4 * `SNIC_FLOW_STATE_STATIC_COUNT) begin
            fs_static_reg[32*(ra[5:2]) +: 32] <= csr_wdata;
        end
        if (ra >= `SNIC_FLOW_STATE_DYN && ra < `SNIC_FLOW_STATE_DYN + 4 * `SNIC_FLOW_STATE_DYN_COUNT) begin
            fs_dyn_reg[32*(ra[5:2]) +: 32] <= csr_wdata;
        end
        // the aging scanner's timeout table (DP.AGE_TIMEOUT[n] at 0x240 + 4n: n is ra[5:2])
        if (ra >= `SNIC_DP_AGE_TIMEOUT && ra < `SNIC_DP_AGE_TIMEOUT + 4 * `SNIC_DP_AGE_TIMEOUT_COUNT) begin
            age_to_wr_reg <= 1'b1;
            age_to_idx_reg <= ra[2 +: `SNIC_TIMEOUT_CLASS_W];
            age_to_ticks_reg <= csr_wdata;
        end
    end

    if (rst) begin
        hit_reg <= 1'b0;
        age_en_reg <= 1'b0;
        age_free_reg <= 1'b0;
        age_interval_reg <= `SNIC_AGE_DEFAULT_INTERVAL;
        age_limit_reg <= 32'd0;
        fastpath_reg <= 1'b1;
        punt_policy_reg <= PP_RESET[7:0];
        mac_c_reg <= 48'd0;
        mac_s_reg <= 48'd0;
        vip_en_reg <= {VIP_N{1'b0}};
        local_en_reg <= {LOCAL_N{1'b0}};
        ft_cmd_valid_reg <= 1'b0;
        flow_busy_reg <= 1'b0;
        fs_cmd_valid_reg <= 1'b0;
        fs_busy_reg <= 1'b0;
        l7_wr_valid_reg <= 1'b0;
        inj_commit_reg <= 2'b00;
        inj_ptr_reg <= {INJ_WB{1'b0}};
        st_rd_busy_reg <= 1'b0;
        st_clear_on_snap_reg <= 1'b0;
        l7_commands_reg <= 32'd0;
        l7c_start_reg <= 1'b0;
        ack_en_reg <= 1'b0;
        free_push_reg <= 1'b0;
        free_flush_reg <= 1'b0;
        sch_tbl_wr_reg <= 1'b0;
        sch_mask_wr_reg <= 1'b0;
        sch_commit_reg <= 1'b0;
        sch_req_valid_reg <= 1'b0;
        sch_rsp_done_reg <= 1'b0;
        sch_picks_reg <= 32'd0;
        sch_nones_reg <= 32'd0;
        sch_punts_reg <= 32'd0;
        ld_op_valid_reg <= 1'b0;
        ld_pool_wr_reg <= 1'b0;
        ld_done_reg <= 1'b0;
        ld_under_reg <= 1'b0;
        ld_picks_reg <= 32'd0;
        ld_nones_reg <= 32'd0;
        ld_punts_reg <= 32'd0;
        ld_unders_reg <= 32'd0;
        ld_refused_reg <= 32'd0;
        txg_valid_reg <= 1'b0;
        txg_refused_reg <= 32'd0;
        hr_valid_reg <= 1'b0;
        abs_en_reg <= 1'b0;
        fin_evt_reg <= 1'b1;
        fin_idx_reg <= {RS_W{1'b0}};
    end
end

// ---- high-water marks: the free list's lowest level, the punt ring's most frames ---------
wire [PUNT_SB:0] punt_waiting = punt_prod - punt_cons;
wire [15:0] free_level16 = {{14-FREE_AW{1'b0}}, av_free_level};
wire [15:0] punt_waiting16 = {{15-PUNT_SB{1'b0}}, punt_waiting};
always @(posedge clk) begin
    if (free_low_restart_reg) begin
        free_low_reg <= free_level16;
        free_low_armed_reg <= 1'b1;
    end else if (free_level16 < free_low_reg) begin
        free_low_reg <= free_level16;
    end
    if (punt_high_restart_reg || punt_waiting16 > punt_high_reg) punt_high_reg <= punt_waiting16;
    if (rst) begin
        free_low_reg <= 16'd0;
        free_low_armed_reg <= 1'b0;
        punt_high_reg <= 16'd0;
    end
end

endmodule

`resetall
