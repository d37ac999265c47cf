// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated card_top: clocking, AXI4-Lite host accesses and the
// Ethernet port queues run here in C++, many cycles per call.

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"
#include "verilated_fst_c.h"

#include "Vcard_pico.h"
#ifdef SNIC_HAVE_VEXRISCV
#include "Vcard_vex.h"
#endif

namespace {

// Half of the 6.4 ns clock period in trace time units (1 ps).
constexpr uint64_t kHalfPeriodPs = 3200;
// A bus access that takes longer than this is reported, never waited on forever.
constexpr uint64_t kBusTimeoutCycles = 10000;
constexpr int kResetCycles = 8;

enum : int { SNIC_OK = 0, SNIC_TIMEOUT = -1, SNIC_EMPTY = -2, SNIC_BAD_ARG = -3 };

struct RxQueue {
    std::deque<std::vector<uint8_t>> frames;
    size_t offset = 0;
};

struct TxQueue {
    std::vector<uint8_t> current;
    std::deque<std::vector<uint8_t>> frames;
};

class Card {
public:
    virtual ~Card() = default;
    virtual void tick(uint64_t n) = 0;
    virtual int read32(uint32_t addr, uint32_t* out) = 0;
    virtual int write32(uint32_t addr, uint32_t value) = 0;
    uint64_t cycles = 0;
    RxQueue rx[2];
    TxQueue tx[2];
};

template <class M>
class CardImpl final : public Card {
public:
    explicit CardImpl(const char* trace_path) : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        if (trace_path) ctx_->traceEverOn(true);
        m_.reset(new M(ctx_.get(), "card"));
        if (trace_path) {
            fst_.reset(new VerilatedFstC);
            m_->trace(fst_.get(), 99);
            fst_->open(trace_path);
        }
        M& m = *m_;
        m.clk = 0;
        m.rst = 1;
        m.s_axil_awvalid = 0;
        m.s_axil_wvalid = 0;
        m.s_axil_bready = 0;
        m.s_axil_arvalid = 0;
        m.s_axil_rready = 0;
        m.s_axil_awprot = 0;
        m.s_axil_arprot = 0;
        m.s_axis_c_tvalid = 0;
        m.s_axis_s_tvalid = 0;
        m.m_axis_c_tready = 1;
        m.m_axis_s_tready = 1;
        m.eval();
        dump();
        for (int i = 0; i < kResetCycles; i++) cycle();
        m.rst = 0;
        m.eval();
        cycles = 0;
    }

    ~CardImpl() override {
        m_->final();
        if (fst_) fst_->close();
    }

    void tick(uint64_t n) override {
        for (uint64_t i = 0; i < n; i++) cycle();
    }

    int write32(uint32_t addr, uint32_t value) override {
        M& m = *m_;
        m.s_axil_awaddr = addr;
        m.s_axil_awvalid = 1;
        m.s_axil_wdata = value;
        m.s_axil_wstrb = 0xF;
        m.s_axil_wvalid = 1;
        m.s_axil_bready = 1;
        m.eval();
        for (uint64_t t = 0; t < kBusTimeoutCycles; t++) {
            bool aw = m.s_axil_awvalid && m.s_axil_awready;
            bool w = m.s_axil_wvalid && m.s_axil_wready;
            bool b = m.s_axil_bvalid && m.s_axil_bready;
            cycle();
            if (aw) m.s_axil_awvalid = 0;
            if (w) m.s_axil_wvalid = 0;
            if (b) {
                m.s_axil_bready = 0;
                m.eval();
                return SNIC_OK;
            }
            m.eval();
        }
        m.s_axil_awvalid = 0;
        m.s_axil_wvalid = 0;
        m.s_axil_bready = 0;
        m.eval();
        return SNIC_TIMEOUT;
    }

    int read32(uint32_t addr, uint32_t* out) override {
        M& m = *m_;
        m.s_axil_araddr = addr;
        m.s_axil_arvalid = 1;
        m.s_axil_rready = 1;
        m.eval();
        for (uint64_t t = 0; t < kBusTimeoutCycles; t++) {
            bool ar = m.s_axil_arvalid && m.s_axil_arready;
            bool r = m.s_axil_rvalid && m.s_axil_rready;
            uint32_t data = m.s_axil_rdata;
            cycle();
            if (ar) m.s_axil_arvalid = 0;
            if (r) {
                *out = data;
                m.s_axil_rready = 0;
                m.eval();
                return SNIC_OK;
            }
            m.eval();
        }
        m.s_axil_arvalid = 0;
        m.s_axil_rready = 0;
        m.eval();
        return SNIC_TIMEOUT;
    }

private:
    void dump() {
        if (fst_) fst_->dump(ctx_->time());
    }

    // Drive one RX port from its queue; returns the number of bytes in the beat.
    template <class D, class K, class V, class L, class U>
    static void drive_rx(RxQueue& q, D& tdata, K& tkeep, V& tvalid, L& tlast, U& tuser) {
        if (q.frames.empty()) {
            tvalid = 0;
            return;
        }
        const std::vector<uint8_t>& f = q.frames.front();
        uint64_t data = 0;
        uint32_t keep = 0;
        size_t n = f.size() - q.offset;
        if (n > 8) n = 8;
        for (size_t i = 0; i < n; i++) {
            data |= uint64_t(f[q.offset + i]) << (8 * i);
            keep |= 1u << i;
        }
        tdata = data;
        tkeep = keep;
        tvalid = 1;
        tlast = (q.offset + n >= f.size()) ? 1 : 0;
        tuser = 0;
    }

    static void advance_rx(RxQueue& q) {
        size_t len = q.frames.front().size();
        q.offset += 8;
        if (q.offset >= len) {
            q.frames.pop_front();
            q.offset = 0;
        }
    }

    static void take_tx(TxQueue& q, uint64_t data, uint32_t keep, bool last) {
        for (int i = 0; i < 8; i++) {
            if (keep & (1u << i)) q.current.push_back(uint8_t(data >> (8 * i)));
        }
        if (last) {
            q.frames.push_back(std::move(q.current));
            q.current.clear();
        }
    }

    // One clock cycle. Handshakes are sampled before the rising edge; new inputs are
    // applied before the falling-edge evaluation.
    void cycle() {
        M& m = *m_;
        bool rx_active = !rx[0].frames.empty() || !rx[1].frames.empty();
        bool rxc = m.s_axis_c_tvalid && m.s_axis_c_tready;
        bool rxs = m.s_axis_s_tvalid && m.s_axis_s_tready;
        bool txc = m.m_axis_c_tvalid && m.m_axis_c_tready;
        bool txs = m.m_axis_s_tvalid && m.m_axis_s_tready;
        if (txc) take_tx(tx[0], m.m_axis_c_tdata, m.m_axis_c_tkeep, m.m_axis_c_tlast);
        if (txs) take_tx(tx[1], m.m_axis_s_tdata, m.m_axis_s_tkeep, m.m_axis_s_tlast);

        m.clk = 1;
        m.eval();
        ctx_->timeInc(kHalfPeriodPs);
        dump();

        if (rxc) advance_rx(rx[0]);
        if (rxs) advance_rx(rx[1]);
        if (rx_active || m.s_axis_c_tvalid || m.s_axis_s_tvalid) {
            drive_rx(rx[0], m.s_axis_c_tdata, m.s_axis_c_tkeep, m.s_axis_c_tvalid,
                     m.s_axis_c_tlast, m.s_axis_c_tuser);
            drive_rx(rx[1], m.s_axis_s_tdata, m.s_axis_s_tkeep, m.s_axis_s_tvalid,
                     m.s_axis_s_tlast, m.s_axis_s_tuser);
        }
        m.clk = 0;
        m.eval();
        ctx_->timeInc(kHalfPeriodPs);
        dump();
        cycles++;
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<M> m_;
    std::unique_ptr<VerilatedFstC> fst_;
};

}  // namespace

extern "C" {

int snic_sim_has_cpu(int cpu) {
    if (cpu == 0) return 1;
#ifdef SNIC_HAVE_VEXRISCV
    if (cpu == 1) return 1;
#endif
    return 0;
}

// cpu: 0 = PicoRV32, 1 = VexRiscv. trace_path may be null. Returns null on failure.
void* snic_sim_new(int cpu, const char* trace_path) {
    try {
        if (cpu == 0) return static_cast<Card*>(new CardImpl<Vcard_pico>(trace_path));
#ifdef SNIC_HAVE_VEXRISCV
        if (cpu == 1) return static_cast<Card*>(new CardImpl<Vcard_vex>(trace_path));
#endif
    } catch (...) {
    }
    return nullptr;
}

void snic_sim_free(void* card) { delete static_cast<Card*>(card); }

void snic_sim_tick(void* card, uint64_t n) { static_cast<Card*>(card)->tick(n); }

uint64_t snic_sim_cycles(const void* card) { return static_cast<const Card*>(card)->cycles; }

int snic_sim_read32(void* card, uint32_t addr, uint32_t* out) {
    return static_cast<Card*>(card)->read32(addr, out);
}

int snic_sim_write32(void* card, uint32_t addr, uint32_t value) {
    return static_cast<Card*>(card)->write32(addr, value);
}

// Returns the number of words done before a timeout, or n.
size_t snic_sim_read_block(void* card, uint32_t addr, uint32_t* out, size_t n) {
    Card* c = static_cast<Card*>(card);
    for (size_t i = 0; i < n; i++) {
        if (c->read32(addr + uint32_t(4 * i), &out[i]) != SNIC_OK) return i;
    }
    return n;
}

size_t snic_sim_write_block(void* card, uint32_t addr, const uint32_t* data, size_t n) {
    Card* c = static_cast<Card*>(card);
    for (size_t i = 0; i < n; i++) {
        if (c->write32(addr + uint32_t(4 * i), data[i]) != SNIC_OK) return i;
    }
    return n;
}

int snic_sim_push_frame(void* card, int port, const uint8_t* data, size_t len) {
    if ((port != 0 && port != 1) || len == 0) return SNIC_BAD_ARG;
    static_cast<Card*>(card)->rx[port].frames.emplace_back(data, data + len);
    return SNIC_OK;
}

// Length of the oldest frame sent by a TX port, or SNIC_EMPTY.
long snic_sim_tx_len(const void* card, int port) {
    if (port != 0 && port != 1) return SNIC_BAD_ARG;
    const TxQueue& q = static_cast<const Card*>(card)->tx[port];
    if (q.frames.empty()) return SNIC_EMPTY;
    return long(q.frames.front().size());
}

// Pop the oldest TX frame into buf (cap must be at least snic_sim_tx_len).
long snic_sim_pop_frame(void* card, int port, uint8_t* buf, size_t cap) {
    if (port != 0 && port != 1) return SNIC_BAD_ARG;
    TxQueue& q = static_cast<Card*>(card)->tx[port];
    if (q.frames.empty()) return SNIC_EMPTY;
    const std::vector<uint8_t>& f = q.frames.front();
    if (f.size() > cap) return SNIC_BAD_ARG;
    if (!f.empty()) std::memcpy(buf, f.data(), f.size());
    long n = long(f.size());
    q.frames.pop_front();
    return n;
}

// Frames still waiting in an RX queue (not yet taken by the card).
size_t snic_sim_rx_pending(const void* card, int port) {
    if (port != 0 && port != 1) return 0;
    return static_cast<const Card*>(card)->rx[port].frames.size();
}

}  // extern "C"
