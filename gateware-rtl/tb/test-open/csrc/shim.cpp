// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated tcp_tx_gen builds and synack_absorb: one call is one clock
// cycle. The inputs of the cycle are applied, the outputs are read before the rising edge
// (the values the edge samples: a handshake is valid && ready there), then the edge is taken.

#include <cstdint>
#include <memory>

#include "verilated.h"

#include "Vsynack_absorb.h"
#include "Vtcp_tx_gen512.h"
#include "Vtcp_tx_gen64.h"
#include "splicenic_tb.h"

namespace {

constexpr uint64_t MAC_MASK = (uint64_t(1) << 48) - 1;

// repr(C) mirrors in src/lib.rs.
struct GenIn {
    uint64_t dst_mac;
    uint64_t src_mac;
    uint32_t rst;
    uint32_t valid;
    uint32_t src_ip;
    uint32_t dst_ip;
    uint32_t sport;
    uint32_t dport;
    uint32_t seq;
    uint32_t ack;
    uint32_t flags;
    uint32_t window;
    uint32_t syn_opts;
    uint32_t mss;
    uint32_t sack;
    uint32_t ts;
    uint32_t tsval;
    uint32_t tsecr;
    uint32_t ws;
    uint32_t ws_shift;
    uint32_t tready;
    uint32_t pay_len;
    uint32_t pay_sum;
};

struct GenOut {
    uint8_t tdata[64];
    uint64_t tkeep;
    uint32_t ready;
    uint32_t tvalid;
    uint32_t tlast;
    uint32_t tuser;
    uint32_t sent;
};

class GenBase {
public:
    virtual ~GenBase() = default;
    virtual void step(const GenIn& in, GenOut& out) = 0;
};

template <class M, size_t BYTES>
class Gen : public GenBase {
public:
    Gen() : t_("txgen") {
        t_.m->clk = 0;
        t_.m->eval();
    }

    void step(const GenIn& in, GenOut& out) override {
        M* m = t_.m.get();
        m->rst = in.rst & 1;
        m->s_valid = in.valid & 1;
        m->s_dst_mac = in.dst_mac & MAC_MASK;
        m->s_src_mac = in.src_mac & MAC_MASK;
        m->s_src_ip = in.src_ip;
        m->s_dst_ip = in.dst_ip;
        m->s_sport = in.sport & 0xffff;
        m->s_dport = in.dport & 0xffff;
        m->s_seq = in.seq;
        m->s_ack = in.ack;
        m->s_flags = in.flags & 0xff;
        m->s_window = in.window & 0xffff;
        m->s_syn_opts = in.syn_opts & 1;
        m->s_mss = in.mss & 0xffff;
        m->s_sack = in.sack & 1;
        m->s_ts = in.ts & 1;
        m->s_tsval = in.tsval;
        m->s_tsecr = in.tsecr;
        m->s_ws = in.ws & 1;
        m->s_ws_shift = in.ws_shift & 0xf;
        m->s_pay_len = in.pay_len & 0xffff;
        m->s_pay_sum = in.pay_sum & 0xffff;
        m->m_axis_tready = in.tready & 1;
        m->clk = 0;
        m->eval();
        for (size_t i = 0; i < 64; ++i) {
            out.tdata[i] = i < BYTES ? tb_get_byte(m->m_axis_tdata, i) : 0;
        }
        out.tkeep = uint64_t(m->m_axis_tkeep);
        out.ready = m->s_ready;
        out.tvalid = m->m_axis_tvalid;
        out.tlast = m->m_axis_tlast;
        out.tuser = m->m_axis_tuser;
        out.sent = m->stat_sent;
        m->clk = 1;
        m->eval();
    }

private:
    TbModel<M> t_;
};

struct AbIn {
    uint8_t opts[20];
    uint32_t rst;
    uint32_t valid;
    uint32_t client_isn;
    uint32_t card_isn;
    uint32_t card_tsval;
    uint32_t client_win;
    uint32_t client_mss;
    uint32_t mss_to_client;
    uint32_t sack;
    uint32_t ts;
    uint32_t client_ws;
    uint32_t client_ws_shift;
    uint32_t server_ws_shift;
    uint32_t real_server;
    uint32_t client_fin;
    uint32_t flags;
    uint32_t seq;
    uint32_t ack;
    uint32_t m_ready;
};

struct AbOut {
    uint32_t entry[4];
    uint32_t ready;
    uint32_t m_valid;
    uint32_t verdict;
    uint32_t ack;
    uint32_t window;
    uint32_t mss;
    uint32_t chunk;
};

class Absorb {
public:
    Absorb() : t_("absorb") {
        t_.m->clk = 0;
        t_.m->eval();
    }

    void step(const AbIn& in, AbOut& out) {
        Vsynack_absorb* m = t_.m.get();
        m->rst = in.rst & 1;
        m->s_valid = in.valid & 1;
        m->s_client_isn = in.client_isn;
        m->s_card_isn = in.card_isn;
        m->s_card_tsval = in.card_tsval;
        m->s_client_win = in.client_win & 0xffff;
        m->s_client_mss = in.client_mss & 0xffff;
        m->s_mss_to_client = in.mss_to_client & 0xffff;
        m->s_sack = in.sack & 1;
        m->s_ts = in.ts & 1;
        m->s_client_ws = in.client_ws & 1;
        m->s_client_ws_shift = in.client_ws_shift & 0xf;
        m->s_server_ws_shift = in.server_ws_shift & 0xf;
        m->s_real_server = in.real_server & 0xff;
        m->s_client_fin = in.client_fin & 1;
        m->s_flags = in.flags & 0xff;
        m->s_seq = in.seq;
        m->s_ack = in.ack;
        tb_set_bytes(m->s_opts, in.opts, 20);
        m->m_ready = in.m_ready & 1;
        m->clk = 0;
        m->eval();
        for (size_t w = 0; w < 4; ++w) {
            out.entry[w] = m->m_entry[w];
        }
        out.ready = m->s_ready;
        out.m_valid = m->m_valid;
        out.verdict = m->m_verdict;
        out.ack = m->m_ack;
        out.window = m->m_window;
        out.mss = m->m_mss;
        out.chunk = m->m_chunk;
        m->clk = 1;
        m->eval();
    }

private:
    TbModel<Vsynack_absorb> t_;
};

}  // namespace

extern "C" {

// variant 0: DATA_WIDTH 64; 1: DATA_WIDTH 512.
void* txgen_new(uint32_t variant) {
    switch (variant) {
        case 0:
            return static_cast<GenBase*>(new Gen<Vtcp_tx_gen64, 8>());
        case 1:
            return static_cast<GenBase*>(new Gen<Vtcp_tx_gen512, 64>());
        default:
            return nullptr;
    }
}

void txgen_free(void* h) { delete static_cast<GenBase*>(h); }

int txgen_step(void* h, const GenIn* in, GenOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<GenBase*>(h)->step(*in, *out);
    return 0;
}

void* absorb_new() { return new Absorb(); }

void absorb_free(void* h) { delete static_cast<Absorb*>(h); }

int absorb_step(void* h, const AbIn* in, AbOut* out) {
    if (!h || !in || !out) return -1;
    static_cast<Absorb*>(h)->step(*in, *out);
    return 0;
}

}  // extern "C"
