// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated aging_scan: one call is one clock cycle. The inputs of the
// cycle are applied, the outputs are read before the rising edge (the values the edge
// samples: a handshake is valid && ready there), then the edge is taken. The flow-state
// response carries static word 0 and the two dynamic fields the scanner reads (last_seen,
// dynamic bits 31:0; teardown, bits 263:256); every other bit is 0.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vaging_scan.h"
#include "splicenic_tb.h"

namespace {

// repr(C) mirrors in src/lib.rs.
struct ScIn {
    uint32_t rst;
    uint32_t enable;
    uint32_t interval;
    uint32_t limit;
    uint32_t now;
    uint32_t wr_en;
    uint32_t wr_idx;
    uint32_t wr_ticks;
    uint32_t fs_ready;
    uint32_t rsp_valid;
    uint32_t rsp_w0;
    uint32_t rsp_last_seen;
    uint32_t rsp_teardown;
    uint32_t pop;
};

struct ScOut {
    uint32_t fs_valid;
    uint32_t fs_slot;
    uint32_t q_valid;
    uint32_t q_slot;
    uint32_t q_class;
    uint32_t q_level;
    uint32_t pos;
    uint32_t sweeps;
    uint32_t expired;
};

class Tb {
public:
    Tb() : t_("aging_scan") {
        t_.m->clk = 0;
        t_.m->eval();
    }

    void step(const ScIn& in, ScOut& out) {
        Vaging_scan* m = t_.m.get();
        m->rst = in.rst & 1;
        m->cfg_enable = in.enable & 1;
        m->cfg_interval = in.interval & 0xffff;
        m->cfg_limit = in.limit;
        m->cfg_now = in.now;
        m->cfg_to_wr_en = in.wr_en & 1;
        m->cfg_to_wr_idx = in.wr_idx & 0xf;
        m->cfg_to_wr_ticks = in.wr_ticks;
        m->m_fs_ready = in.fs_ready & 1;
        m->fs_rsp_valid = in.rsp_valid & 1;
        for (size_t i = 0; i < sizeof(m->fs_rsp_static) / sizeof(uint32_t); ++i) m->fs_rsp_static[i] = 0;
        for (size_t i = 0; i < sizeof(m->fs_rsp_dyn) / sizeof(uint32_t); ++i) m->fs_rsp_dyn[i] = 0;
        m->fs_rsp_static[0] = in.rsp_w0;
        m->fs_rsp_dyn[0] = in.rsp_last_seen;
        m->fs_rsp_dyn[8] = in.rsp_teardown & 0xff;
        m->q_pop = in.pop & 1;
        // the free in hardware (cfg_free) is off here: it is tested against the real flow
        // table and flow state in test-datapath's aging tests
        m->cfg_free = 0;
        m->m_ft_ready = 0;
        m->ft_rsp_valid = 0;
        m->clk = 0;
        m->eval();
        out.fs_valid = m->m_fs_valid;
        out.fs_slot = m->m_fs_slot;
        out.q_valid = m->q_valid;
        out.q_slot = m->q_slot;
        out.q_class = m->q_class;
        out.q_level = m->q_level;
        out.pos = m->stat_pos;
        out.sweeps = m->stat_sweeps;
        out.expired = m->stat_expired;
        m->clk = 1;
        m->eval();
    }

private:
    TbModel<Vaging_scan> t_;
};

}  // namespace

extern "C" {

void* scan_new() { return new Tb(); }

void scan_free(void* h) { delete static_cast<Tb*>(h); }

int scan_step(void* h, const ScIn* in, ScOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Tb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
