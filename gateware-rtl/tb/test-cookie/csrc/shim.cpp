// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated syn_cookie: one call is one clock cycle. The inputs of the
// cycle are applied, the outputs are read before the rising edge (the values the edge
// samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vsyn_cookie.h"

namespace {

// repr(C) mirrors in src/lib.rs.
struct CkIn {
    uint64_t key_wr_data;
    uint32_t rst;
    uint32_t req_valid;
    uint32_t op;
    uint32_t client_ip;
    uint32_t vip;
    uint32_t client_port;
    uint32_t vip_port;
    uint32_t client_isn;
    uint32_t cookie;
    uint32_t mss;
    uint32_t tag;
    uint32_t rsp_ready;
    uint32_t key_wr_en;
    uint32_t key_wr_slot;
    uint32_t cur_epoch;
    uint32_t prev_valid;
};

struct CkOut {
    uint32_t req_ready;
    uint32_t rsp_valid;
    uint32_t rsp_op;
    uint32_t rsp_isn;
    uint32_t rsp_status;
    uint32_t rsp_mss;
    uint32_t rsp_tag;
};

class Tb {
public:
    Tb() : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        m_.reset(new Vsyn_cookie(ctx_.get(), "cookie"));
        m_->clk = 0;
        m_->eval();
    }
    ~Tb() { m_->final(); }

    void step(const CkIn& in, CkOut& out) {
        m_->rst = in.rst & 1;
        m_->s_req_valid = in.req_valid & 1;
        m_->s_req_op = in.op & 1;
        m_->s_req_client_ip = in.client_ip;
        m_->s_req_vip = in.vip;
        m_->s_req_client_port = in.client_port & 0xffff;
        m_->s_req_vip_port = in.vip_port & 0xffff;
        m_->s_req_client_isn = in.client_isn;
        m_->s_req_cookie = in.cookie;
        m_->s_req_mss = in.mss & 3;
        m_->s_req_tag = in.tag & 0xff;
        m_->m_rsp_ready = in.rsp_ready & 1;
        m_->key_wr_en = in.key_wr_en & 1;
        m_->key_wr_slot = in.key_wr_slot & 1;
        m_->key_wr_data = in.key_wr_data;
        m_->cfg_cur_epoch = in.cur_epoch & 1;
        m_->cfg_prev_valid = in.prev_valid & 1;
        m_->clk = 0;
        m_->eval();
        out.req_ready = m_->s_req_ready;
        out.rsp_valid = m_->m_rsp_valid;
        out.rsp_op = m_->m_rsp_op;
        out.rsp_isn = m_->m_rsp_isn;
        out.rsp_status = m_->m_rsp_status;
        out.rsp_mss = m_->m_rsp_mss;
        out.rsp_tag = m_->m_rsp_tag;
        m_->clk = 1;
        m_->eval();
    }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vsyn_cookie> m_;
};

}  // namespace

extern "C" {

void* cookie_new() { return new Tb(); }

void cookie_free(void* h) { delete static_cast<Tb*>(h); }

int cookie_step(void* h, const CkIn* in, CkOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
