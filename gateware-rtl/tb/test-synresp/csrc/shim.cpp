// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated syn_responder builds: one call is one clock cycle. The
// inputs of the cycle are applied, the outputs are read before the rising edge (the values
// the edge samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vsyn_responder64.h"
#ifdef SYNRESP_W512
#include "Vsyn_responder512.h"
#endif
#include "splicenic_tb.h"

namespace {

// repr(C) mirrors in src/lib.rs.
struct SrIn {
    uint64_t eth_src;
    uint64_t cfg_mac;
    uint64_t key_wr_data;
    uint8_t opt[40];
    uint32_t rst;
    uint32_t syn_valid;
    uint32_t ip_src;
    uint32_t ip_dst;
    uint32_t sport;
    uint32_t dport;
    uint32_t seq;
    uint32_t opt_len;
    uint32_t tready;
    uint32_t cfg_mss;
    uint32_t offer_ws;
    uint32_t offer_sack;
    uint32_t offer_ts;
    uint32_t now;
    uint32_t key_wr_en;
    uint32_t key_wr_slot;
    uint32_t cur_epoch;
    uint32_t prev_valid;
};

struct SrOut {
    uint8_t tdata[64];
    uint64_t tkeep;
    uint32_t syn_ready;
    uint32_t tvalid;
    uint32_t tlast;
    uint32_t tuser;
    uint32_t answered;
};

constexpr uint64_t MAC_MASK = (uint64_t(1) << 48) - 1;

class Base {
public:
    virtual ~Base() = default;
    virtual void step(const SrIn& in, SrOut& out) = 0;
};

template <class M, size_t BYTES>
class Tb : public Base {
public:
    Tb() : t_("synresp") {
        t_.m->clk = 0;
        t_.m->eval();
    }

    void step(const SrIn& in, SrOut& out) override {
        M* m = t_.m.get();
        m->rst = in.rst & 1;
        m->s_syn_valid = in.syn_valid & 1;
        m->s_syn_eth_src = in.eth_src & MAC_MASK;
        m->s_syn_ip_src = in.ip_src;
        m->s_syn_ip_dst = in.ip_dst;
        m->s_syn_sport = in.sport & 0xffff;
        m->s_syn_dport = in.dport & 0xffff;
        m->s_syn_seq = in.seq;
        m->s_syn_opt_len = in.opt_len & 0x3f;
        tb_set_bytes(m->s_syn_opt, in.opt, 40);
        m->m_axis_tready = in.tready & 1;
        m->cfg_mac = in.cfg_mac & MAC_MASK;
        m->cfg_mss = in.cfg_mss & 0xffff;
        m->cfg_offer_ws = in.offer_ws & 1;
        m->cfg_offer_sack = in.offer_sack & 1;
        m->cfg_offer_ts = in.offer_ts & 1;
        m->cfg_now = in.now;
        m->key_wr_en = in.key_wr_en & 1;
        m->key_wr_slot = in.key_wr_slot & 1;
        m->key_wr_data = in.key_wr_data;
        m->cfg_cur_epoch = in.cur_epoch & 1;
        m->cfg_prev_valid = in.prev_valid & 1;
        m->clk = 0;
        m->eval();
        for (size_t i = 0; i < 64; ++i) {
            out.tdata[i] = i < BYTES ? tb_get_byte(m->m_axis_tdata, i) : 0;
        }
        out.tkeep = uint64_t(m->m_axis_tkeep);
        out.syn_ready = m->s_syn_ready;
        out.tvalid = m->m_axis_tvalid;
        out.tlast = m->m_axis_tlast;
        out.tuser = m->m_axis_tuser;
        out.answered = m->stat_answered;
        m->clk = 1;
        m->eval();
    }

private:
    TbModel<M> t_;
};

}  // namespace

extern "C" {

// variant 0: DATA_WIDTH 64, UNITS 2; 1: DATA_WIDTH 512, UNITS 8 (when built).
void* synresp_new(uint32_t variant) {
    switch (variant) {
        case 0:
            return static_cast<Base*>(new Tb<Vsyn_responder64, 8>());
#ifdef SYNRESP_W512
        case 1:
            return static_cast<Base*>(new Tb<Vsyn_responder512, 64>());
#endif
        default:
            return nullptr;
    }
}

void synresp_free(void* h) { delete static_cast<Base*>(h); }

int synresp_step(void* h, const SrIn* in, SrOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Base*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
