// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated head_buf: one call is one clock cycle. The inputs of the
// cycle are applied, the outputs are read before the rising edge (the values the edge
// samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vhead_buf.h"

namespace {

// repr(C) mirrors in src/lib.rs.
struct HbIn {
    uint64_t data;
    uint32_t rst;
    uint32_t alloc_req;
    uint32_t free_en;
    uint32_t free_id;
    uint32_t valid;
    uint32_t buf;
    uint32_t off;
    uint32_t len;
    uint32_t last;
    uint32_t rd_start;
    uint32_t rd_buf;
    uint32_t m_ready;
    uint32_t max_clear;
};

struct HbOut {
    uint64_t m_data;
    uint32_t alloc_valid;
    uint32_t alloc_ok;
    uint32_t alloc_id;
    uint32_t free_bad;
    uint32_t ready;
    uint32_t res_valid;
    uint32_t res_buf;
    uint32_t res_len;
    uint32_t res_added;
    uint32_t res_hole;
    uint32_t res_cut;
    uint32_t res_bad;
    uint32_t rd_idle;
    uint32_t rd_len;
    uint32_t rd_sum;
    uint32_t m_valid;
    uint32_t m_keep;
    uint32_t m_last;
    uint32_t in_use;
    uint32_t in_use_max;
};

class Tb {
public:
    Tb() : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        m_.reset(new Vhead_buf(ctx_.get(), "head"));
        m_->clk = 0;
        m_->eval();
    }
    ~Tb() { m_->final(); }

    void step(const HbIn& in, HbOut& out) {
        m_->rst = in.rst & 1;
        m_->alloc_req = in.alloc_req & 1;
        m_->free_en = in.free_en & 1;
        m_->free_id = in.free_id;
        m_->s_valid = in.valid & 1;
        m_->s_buf = in.buf;
        m_->s_off = in.off & 0xffff;
        m_->s_len = in.len & 0xffff;
        m_->s_data = in.data;
        m_->s_last = in.last & 1;
        m_->rd_start = in.rd_start & 1;
        m_->rd_buf = in.rd_buf;
        m_->m_ready = in.m_ready & 1;
        m_->in_use_max_clear = in.max_clear & 1;
        m_->clk = 0;
        m_->eval();
        out.alloc_valid = m_->alloc_valid;
        out.alloc_ok = m_->alloc_ok;
        out.alloc_id = m_->alloc_id;
        out.free_bad = m_->free_bad;
        out.ready = m_->s_ready;
        out.res_valid = m_->res_valid;
        out.res_buf = m_->res_buf;
        out.res_len = m_->res_len;
        out.res_added = m_->res_added;
        out.res_hole = m_->res_hole;
        out.res_cut = m_->res_cut;
        out.res_bad = m_->res_bad;
        out.rd_idle = m_->rd_idle;
        out.rd_len = m_->rd_len;
        out.rd_sum = m_->rd_sum;
        out.m_valid = m_->m_valid;
        out.m_data = m_->m_data;
        out.m_keep = m_->m_keep;
        out.m_last = m_->m_last;
        out.in_use = m_->in_use;
        out.in_use_max = m_->in_use_max;
        m_->clk = 1;
        m_->eval();
    }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vhead_buf> m_;
};

}  // namespace

extern "C" {

void* head_new() { return new Tb(); }

void head_free(void* h) { delete static_cast<Tb*>(h); }

int head_step(void* h, const HbIn* in, HbOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
