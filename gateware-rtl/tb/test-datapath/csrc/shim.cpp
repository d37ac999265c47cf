// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated splice_datapath (DATA_WIDTH 64 and 512): CSR bus accesses,
// frames queued on the two RX ports (driven back to back, one beat per cycle while the
// port is ready), frames collected from the two TX ports (always ready), and per-port beat
// and cycle counts for throughput and latency figures.

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "splicenic_tb.h"

#include "Vsplice_dp64.h"
#include "Vsplice_dp512.h"

namespace {

enum : long { DP_EMPTY = -2, DP_BAD_ARG = -3, DP_SMALL_BUF = -4 };

struct DpPortStats {
    uint64_t rx_beats;
    uint64_t rx_first_cycle;
    uint64_t rx_last_cycle;
    uint64_t rx_frames;
    uint64_t tx_beats;
    uint64_t tx_first_cycle;
    uint64_t tx_last_cycle;
    uint64_t tx_frames;
};

struct RxFrame {
    std::vector<uint8_t> data;
    bool err;
};

struct TxFrame {
    std::vector<uint8_t> data;
    uint64_t first_cycle;
};

class Dp {
public:
    virtual ~Dp() = default;
    virtual void tick(uint64_t n) = 0;
    virtual uint32_t csr(bool we, uint32_t addr, uint32_t data) = 0;
    std::deque<RxFrame> rx[2];
    std::deque<TxFrame> tx[2];
    DpPortStats st[2]{};
    uint64_t cycles = 0;
    uint32_t tx_stall_permille = 0;
    // Wire-rate pacing of the RX ports: a frame starts no earlier than the previous one's
    // wire time after it (its bytes, padded to 60, plus FCS 4, preamble 8 and gap 12), at
    // KEEP bytes per cycle. `pace_bytes[p]`: the byte time (cycles * KEEP) of the next start.
    bool pace = false;
    uint64_t pace_bytes[2] = {0, 0};
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    bool chance(uint32_t permille) {
        if (permille == 0) return false;
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        return (rng % 1000) < permille;
    }
};

template <class M, size_t KEEP>
class DpImpl final : public Dp {
public:
    DpImpl() : tb_("dp") {
        M& m = *tb_.m;
        m.clk = 0;
        m.rst = 1;
        m.csr_stb = 0;
        m.s_axis_c_tvalid = 0;
        m.s_axis_s_tvalid = 0;
        m.m_axis_c_tready = 1;
        m.m_axis_s_tready = 1;
        m.eval();
        for (int i = 0; i < 4; i++) tb_.cycle();
        m.rst = 0;
        m.eval();
        for (int p = 0; p < 2; p++) {
            st[p].rx_first_cycle = UINT64_MAX;
            st[p].tx_first_cycle = UINT64_MAX;
        }
    }

    void tick(uint64_t n) override {
        for (uint64_t i = 0; i < n; i++) step();
    }

    uint32_t csr(bool we, uint32_t addr, uint32_t data) override {
        M& m = *tb_.m;
        m.csr_stb = 1;
        m.csr_we = we;
        m.csr_addr = addr;
        m.csr_wdata = data;
        m.csr_wstrb = 0xF;
        m.csr_master = 0;
        step();
        m.csr_stb = 0;
        uint32_t v = m.csr_rdata;
        bool hit = m.csr_hit;
        step();
        return hit ? v : 0xBADADD00u;
    }

private:
    TbModel<M> tb_;
    size_t off_[2] = {0, 0};

    template <class D, class K, class V, class L, class U>
    void drive(int p, D& tdata, K& tkeep, V& tvalid, L& tlast, U& tuser) {
        if (rx[p].empty()) {
            tvalid = 0;
            return;
        }
        if (pace && off_[p] == 0 && cycles * KEEP < pace_bytes[p]) {
            tvalid = 0;
            return;
        }
        const RxFrame& f = rx[p].front();
        size_t n = f.data.size() - off_[p];
        if (n > KEEP) n = KEEP;
        tb_set_bytes(tdata, f.data.data() + off_[p], n);
        tkeep = static_cast<K>(tb_keep_mask(n));
        tlast = off_[p] + n == f.data.size();
        tuser = f.err;
        tvalid = 1;
    }

    void advance(int p) {
        RxFrame& f = rx[p].front();
        size_t n = f.data.size() - off_[p];
        if (n > KEEP) n = KEEP;
        if (off_[p] == 0) {
            uint64_t now = cycles * KEEP;
            size_t wire = (f.data.size() < 60 ? 60 : f.data.size()) + 4 + 8 + 12;
            // a start within a cycle of the pace keeps the fraction (10.5-cycle frames at
            // 64 bits stay 10.5 cycles apart); a later one (the port held it) re-anchors
            pace_bytes[p] = (now >= pace_bytes[p] + KEEP ? now : pace_bytes[p]) + wire;
        }
        off_[p] += n;
        st[p].rx_beats++;
        if (st[p].rx_first_cycle == UINT64_MAX) st[p].rx_first_cycle = cycles;
        st[p].rx_last_cycle = cycles;
        if (off_[p] == f.data.size()) {
            rx[p].pop_front();
            off_[p] = 0;
            st[p].rx_frames++;
        }
    }

    template <class D, class K>
    void take(int p, const D& tdata, const K& tkeep, bool last) {
        if (cur_[p].data.empty()) cur_[p].first_cycle = cycles;
        uint64_t keep = uint64_t(tkeep);
        for (size_t i = 0; i < KEEP; i++) {
            if ((keep >> i) & 1) cur_[p].data.push_back(tb_get_byte(tdata, i));
        }
        st[p].tx_beats++;
        if (st[p].tx_first_cycle == UINT64_MAX) st[p].tx_first_cycle = cycles;
        st[p].tx_last_cycle = cycles;
        if (last) {
            tx[p].push_back(std::move(cur_[p]));
            cur_[p] = TxFrame{};
            st[p].tx_frames++;
        }
    }

    void step() {
        M& m = *tb_.m;
        drive(0, m.s_axis_c_tdata, m.s_axis_c_tkeep, m.s_axis_c_tvalid, m.s_axis_c_tlast,
              m.s_axis_c_tuser);
        drive(1, m.s_axis_s_tdata, m.s_axis_s_tkeep, m.s_axis_s_tvalid, m.s_axis_s_tlast,
              m.s_axis_s_tuser);
        m.m_axis_c_tready = !chance(tx_stall_permille);
        m.m_axis_s_tready = !chance(tx_stall_permille);
        m.eval();
        bool rxc = m.s_axis_c_tvalid && m.s_axis_c_tready;
        bool rxs = m.s_axis_s_tvalid && m.s_axis_s_tready;
        if (m.m_axis_c_tvalid && m.m_axis_c_tready)
            take(0, m.m_axis_c_tdata, m.m_axis_c_tkeep, m.m_axis_c_tlast);
        if (m.m_axis_s_tvalid && m.m_axis_s_tready)
            take(1, m.m_axis_s_tdata, m.m_axis_s_tkeep, m.m_axis_s_tlast);
        if (rxc) advance(0);
        if (rxs) advance(1);
        tb_.cycle();
        cycles++;
    }

    TxFrame cur_[2];
};

}  // namespace

extern "C" {

void* snic_dp_new(int width) {
    if (width == 64) return static_cast<Dp*>(new DpImpl<Vsplice_dp64, 8>());
    if (width == 512) return static_cast<Dp*>(new DpImpl<Vsplice_dp512, 64>());
    return nullptr;
}

void snic_dp_free(void* dp) { delete static_cast<Dp*>(dp); }

void snic_dp_tick(void* dp, uint64_t n) { static_cast<Dp*>(dp)->tick(n); }

uint64_t snic_dp_cycles(const void* dp) { return static_cast<const Dp*>(dp)->cycles; }

uint32_t snic_dp_read(void* dp, uint32_t addr) { return static_cast<Dp*>(dp)->csr(false, addr, 0); }

void snic_dp_write(void* dp, uint32_t addr, uint32_t value) {
    static_cast<Dp*>(dp)->csr(true, addr, value);
}

long snic_dp_push(void* dp, int port, const uint8_t* data, size_t len, int err) {
    if (port < 0 || port > 1 || len == 0) return DP_BAD_ARG;
    static_cast<Dp*>(dp)->rx[port].push_back(RxFrame{std::vector<uint8_t>(data, data + len), err != 0});
    return 0;
}

size_t snic_dp_rx_pending(const void* dp, int port) {
    if (port < 0 || port > 1) return 0;
    return static_cast<const Dp*>(dp)->rx[port].size();
}

// Oldest frame sent on a TX port: length, or DP_EMPTY.
long snic_dp_tx_len(const void* dp, int port) {
    if (port < 0 || port > 1) return DP_BAD_ARG;
    const auto& q = static_cast<const Dp*>(dp)->tx[port];
    return q.empty() ? DP_EMPTY : long(q.front().data.size());
}

long snic_dp_tx_pop(void* dp, int port, uint8_t* buf, size_t cap, uint64_t* first_cycle) {
    if (port < 0 || port > 1) return DP_BAD_ARG;
    auto& q = static_cast<Dp*>(dp)->tx[port];
    if (q.empty()) return DP_EMPTY;
    const TxFrame& f = q.front();
    if (cap < f.data.size()) return DP_SMALL_BUF;
    std::memcpy(buf, f.data.data(), f.data.size());
    *first_cycle = f.first_cycle;
    long n = long(f.data.size());
    q.pop_front();
    return n;
}

void snic_dp_port_stats(const void* dp, int port, DpPortStats* out) {
    if (port < 0 || port > 1) return;
    *out = static_cast<const Dp*>(dp)->st[port];
}

void snic_dp_reset_stats(void* dp) {
    Dp* d = static_cast<Dp*>(dp);
    for (int p = 0; p < 2; p++) {
        d->st[p] = DpPortStats{};
        d->st[p].rx_first_cycle = UINT64_MAX;
        d->st[p].tx_first_cycle = UINT64_MAX;
    }
}

void snic_dp_set_tx_stall(void* dp, uint32_t permille) { static_cast<Dp*>(dp)->tx_stall_permille = permille; }

void snic_dp_set_wire_pace(void* dp, int on) { static_cast<Dp*>(dp)->pace = on != 0; }

}  // extern "C"
