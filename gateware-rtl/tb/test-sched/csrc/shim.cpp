// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated sched_unit: one call is one clock cycle. The inputs of the
// cycle are applied, the outputs are read before the rising edge (the values the edge
// samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vsched_unit.h"

namespace {

// repr(C) mirrors in src/lib.rs.
struct SuIn {
    uint64_t elig_mask;
    uint32_t rst;
    uint32_t req_valid;
    uint32_t req_pool;
    uint32_t client_ip;
    uint32_t client_port;
    uint32_t dst_ip;
    uint32_t tag;
    uint32_t rsp_ready;
    uint32_t tbl_wr_en;
    uint32_t tbl_wr_addr;
    uint32_t tbl_wr_data;
    uint32_t elig_wr_en;
    uint32_t elig_wr_pool;
    uint32_t pool_wr_en;
    uint32_t pool_wr_pool;
    uint32_t pool_wr_mode;
    uint32_t pool_wr_fallback;
    uint32_t pool_wr_hash_port;
    uint32_t pool_wr_base;
    uint32_t pool_wr_last;
    uint32_t pool_wr_loop;
    uint32_t pool_wr_set_ptr;
    uint32_t pool_wr_ptr;
    uint32_t ptr_rd_pool;
};

struct SuOut {
    uint32_t req_ready;
    uint32_t rsp_valid;
    uint32_t rsp_tag;
    uint32_t rsp_pool;
    uint32_t rsp_status;
    uint32_t rsp_server;
    uint32_t ptr_rd_value;
};

class Tb {
public:
    Tb() : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        m_.reset(new Vsched_unit(ctx_.get(), "sched"));
        m_->clk = 0;
        m_->eval();
    }
    ~Tb() { m_->final(); }

    void step(const SuIn& in, SuOut& out) {
        m_->rst = in.rst & 1;
        m_->s_req_valid = in.req_valid & 1;
        m_->s_req_pool = in.req_pool;
        m_->s_req_client_ip = in.client_ip;
        m_->s_req_client_port = in.client_port & 0xffff;
        m_->s_req_dst_ip = in.dst_ip & 0xff;
        m_->s_req_tag = in.tag & 0xffff;
        m_->m_rsp_ready = in.rsp_ready & 1;
        m_->tbl_wr_en = in.tbl_wr_en & 1;
        m_->tbl_wr_addr = in.tbl_wr_addr;
        m_->tbl_wr_data = in.tbl_wr_data & 0xff;
        m_->elig_wr_en = in.elig_wr_en & 1;
        m_->elig_wr_pool = in.elig_wr_pool;
        m_->elig_wr_mask = in.elig_mask;
        m_->pool_wr_en = in.pool_wr_en & 1;
        m_->pool_wr_pool = in.pool_wr_pool;
        m_->pool_wr_mode = in.pool_wr_mode;
        m_->pool_wr_fallback = in.pool_wr_fallback & 1;
        m_->pool_wr_hash_port = in.pool_wr_hash_port & 1;
        m_->pool_wr_base = in.pool_wr_base;
        m_->pool_wr_last = in.pool_wr_last;
        m_->pool_wr_loop = in.pool_wr_loop;
        m_->pool_wr_set_ptr = in.pool_wr_set_ptr & 1;
        m_->pool_wr_ptr = in.pool_wr_ptr;
        m_->ptr_rd_pool = in.ptr_rd_pool;
        m_->clk = 0;
        m_->eval();
        out.req_ready = m_->s_req_ready;
        out.rsp_valid = m_->m_rsp_valid;
        out.rsp_tag = m_->m_rsp_tag;
        out.rsp_pool = m_->m_rsp_pool;
        out.rsp_status = m_->m_rsp_status;
        out.rsp_server = m_->m_rsp_server;
        out.ptr_rd_value = m_->ptr_rd_value;
        m_->clk = 1;
        m_->eval();
    }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vsched_unit> m_;
};

}  // namespace

extern "C" {

void* sched_new() { return new Tb(); }

void sched_free(void* h) { delete static_cast<Tb*>(h); }

int sched_step(void* h, const SuIn* in, SuOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
