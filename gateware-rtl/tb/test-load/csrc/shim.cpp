// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated load_sched: one call is one clock cycle. The inputs of the
// cycle are applied, the outputs are read before the rising edge (the values the edge
// samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vload_sched.h"

namespace {

// repr(C) mirrors in src/lib.rs.
struct LsIn {
    uint32_t rst;
    uint32_t op_valid;
    uint32_t op_code;
    uint32_t op_pool;
    uint32_t op_slot;
    uint32_t op_flag;
    uint32_t op_tag;
    uint32_t op_live;
    uint32_t op_weight;
    uint32_t op_rank;
    uint32_t op_upper;
    uint32_t op_lower;
    uint32_t op_active;
    uint32_t op_inactive;
    uint32_t op_overloaded;
    uint32_t rsp_ready;
    uint32_t pool_wr_en;
    uint32_t pool_wr_pool;
    uint32_t pool_wr_mode;
    uint32_t pool_wr_beats_m1;
};

struct LsOut {
    uint32_t op_ready;
    uint32_t rsp_valid;
    uint32_t rsp_tag;
    uint32_t rsp_status;
    uint32_t rsp_server;
    uint32_t rsp_active;
    uint32_t rsp_inactive;
    uint32_t rsp_overloaded;
    uint32_t rsp_live;
    uint32_t rsp_weight;
    uint32_t rsp_rank;
    uint32_t rsp_upper;
    uint32_t rsp_lower;
    uint32_t ev_pick;
    uint32_t ev_none;
    uint32_t ev_punt;
    uint32_t ev_underflow;
};

class Tb {
public:
    Tb() : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        m_.reset(new Vload_sched(ctx_.get(), "load"));
        m_->clk = 0;
        m_->eval();
    }
    ~Tb() { m_->final(); }

    void step(const LsIn& in, LsOut& out) {
        m_->rst = in.rst & 1;
        m_->s_op_valid = in.op_valid & 1;
        m_->s_op_code = in.op_code & 7;
        m_->s_op_pool = in.op_pool & 7;
        m_->s_op_slot = in.op_slot & 63;
        m_->s_op_flag = in.op_flag & 1;
        m_->s_op_tag = in.op_tag & 0xffff;
        m_->s_op_live = in.op_live & 1;
        m_->s_op_weight = in.op_weight & 0xffff;
        m_->s_op_rank = in.op_rank & 63;
        m_->s_op_upper = in.op_upper;
        m_->s_op_lower = in.op_lower;
        m_->s_op_active = in.op_active;
        m_->s_op_inactive = in.op_inactive;
        m_->s_op_overloaded = in.op_overloaded & 1;
        m_->m_rsp_ready = in.rsp_ready & 1;
        m_->pool_wr_en = in.pool_wr_en & 1;
        m_->pool_wr_pool = in.pool_wr_pool & 7;
        m_->pool_wr_mode = in.pool_wr_mode & 7;
        m_->pool_wr_beats_m1 = in.pool_wr_beats_m1 & 31;
        m_->clk = 0;
        m_->eval();
        out.op_ready = m_->s_op_ready;
        out.rsp_valid = m_->m_rsp_valid;
        out.rsp_tag = m_->m_rsp_tag;
        out.rsp_status = m_->m_rsp_status;
        out.rsp_server = m_->m_rsp_server;
        out.rsp_active = m_->m_rsp_active;
        out.rsp_inactive = m_->m_rsp_inactive;
        out.rsp_overloaded = m_->m_rsp_overloaded;
        out.rsp_live = m_->m_rsp_live;
        out.rsp_weight = m_->m_rsp_weight;
        out.rsp_rank = m_->m_rsp_rank;
        out.rsp_upper = m_->m_rsp_upper;
        out.rsp_lower = m_->m_rsp_lower;
        out.ev_pick = m_->ev_pick;
        out.ev_none = m_->ev_none;
        out.ev_punt = m_->ev_punt;
        out.ev_underflow = m_->ev_underflow;
        m_->clk = 1;
        m_->eval();
    }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vload_sched> m_;
};

}  // namespace

extern "C" {

void* load_new() { return new Tb(); }

void load_free(void* h) { delete static_cast<Tb*>(h); }

int load_step(void* h, const LsIn* in, LsOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
