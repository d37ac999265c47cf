// SPDX-License-Identifier: MIT OR Apache-2.0
// C interface to the Verilated eth_tcp_parser (DATA_WIDTH 64 and 512). One call pushes a
// batch of frames in as AXI-Stream beats, clocks the model, and collects every header
// result and every output frame. A cycle limit turns a stall into an error code.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "splicenic_records.h"
#include "splicenic_tb.h"

#include "Vclassifier.h"
#include "Vparser512.h"
#include "Vparser64.h"

namespace {

enum : int { SNIC_OK = 0, SNIC_TIMEOUT = -1, SNIC_BAD_ARG = -3, SNIC_PROTOCOL = -4 };

constexpr int kResetCycles = 4;

template <class T>
inline void set_keep(T& sig, size_t n) { sig = T(tb_keep_mask(n)); }
inline bool keep_bit(uint64_t k, size_t i) { return (k >> i) & 1; }

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 1) {}
    uint32_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return uint32_t(s >> 11);
    }
    // true with probability pct/100
    bool chance(uint32_t pct) { return next() % 100 < pct; }
};

}  // namespace

extern "C" {

// Mirrors `ffi::SnicHdr` in src/lib.rs.
struct SnicHdr {
    uint32_t reason, ok, other, malformed;
    uint32_t vlan, vlan_tci, eth_type;
    uint32_t ip_version, ip_ihl, ip_tos, ip_length, ip_id, ip_flags, ip_frag_offset;
    uint32_t ip_ttl, ip_protocol, ip_checksum, ip_src, ip_dst;
    uint32_t tcp_src_port, tcp_dst_port, tcp_seq, tcp_ack, tcp_data_offset, tcp_flags;
    uint32_t tcp_window, tcp_checksum, tcp_urgent, tcp_opt_len;
    uint32_t l3_offset, l4_offset, payload_offset, payload_len, frame_len;
    uint32_t frame_tuser, latency;
    uint8_t eth_dst[8];
    uint8_t eth_src[8];
    uint8_t tcp_options[40];
};

// Mirrors `ffi::SnicRunCfg`.
struct SnicRunCfg {
    uint64_t max_cycles;
    uint32_t in_valid_pct;   // 100: tvalid high whenever a beat is pending
    uint32_t out_ready_pct;  // 100: m_axis_tready always high
    uint32_t hdr_ready_pct;  // 100: m_hdr_ready always high
    uint32_t seed;
};

// Mirrors `ffi::SnicRunStats`.
struct SnicRunStats {
    uint64_t cycles;
    uint64_t in_beats;
    uint64_t first_in_cycle;
    uint64_t last_in_cycle;
    uint64_t out_beats;
    uint64_t hdrs;
    uint64_t out_frames;
    uint64_t max_latency;
    uint64_t first_out_cycle;
    uint64_t events[16];
};

}  // extern "C"

namespace {

class Parser {
public:
    virtual ~Parser() = default;
    virtual int run(const uint8_t* data, const uint32_t* lens, const uint8_t* mac_err, uint32_t n,
                    const SnicRunCfg* cfg, SnicHdr* hdrs, uint8_t* out_data, size_t out_cap,
                    uint32_t* out_lens, SnicRunStats* st) = 0;
    virtual void reset() = 0;
};

template <class M, size_t KW>
class ParserImpl final : public Parser {
public:
    ParserImpl() : ctx_(new VerilatedContext) {
        ctx_->debug(0);
        ctx_->randReset(0);
        m_.reset(new M(ctx_.get(), "parser"));
        reset();
    }
    ~ParserImpl() override { m_->final(); }

    void reset() override {
        m_->rst = 1;
        m_->s_axis_tvalid = 0;
        m_->m_axis_tready = 0;
        m_->m_hdr_ready = 0;
        for (int i = 0; i < kResetCycles; ++i) tick();
        m_->rst = 0;
        tick();
    }

    int run(const uint8_t* data, const uint32_t* lens, const uint8_t* mac_err, uint32_t n,
            const SnicRunCfg* cfg, SnicHdr* hdrs, uint8_t* out_data, size_t out_cap,
            uint32_t* out_lens, SnicRunStats* st) override {
        std::memset(st, 0, sizeof(*st));
        Rng rng(cfg->seed);
        std::vector<size_t> starts(n);
        size_t total = 0;
        for (uint32_t i = 0; i < n; ++i) {
            starts[i] = total;
            total += lens[i];
        }
        if (total > out_cap) return SNIC_BAD_ARG;
        std::vector<uint64_t> last_accept(n, 0);
        uint32_t in_frame = 0;   // frame being sent
        size_t in_off = 0;       // byte offset inside it
        bool valid = false;      // a beat is being offered (held until accepted)
        uint32_t hdr_i = 0, out_i = 0;
        size_t out_pos = 0, out_frame_len = 0;
        bool first_in = true;
        uint64_t cycle = 0;
        while (hdr_i < n || out_i < n) {
            if (cycle >= cfg->max_cycles) {
                st->cycles = cycle;
                st->hdrs = hdr_i;
                st->out_frames = out_i;
                return SNIC_TIMEOUT;
            }
            // drive inputs
            if (!valid && in_frame < n) valid = cfg->in_valid_pct >= 100 || rng.chance(cfg->in_valid_pct);
            size_t beat_len = 0;
            bool last = false;
            if (valid) {
                size_t len = lens[in_frame];
                beat_len = len - in_off < KW ? len - in_off : KW;
                last = in_off + KW >= len;
                tb_set_bytes(m_->s_axis_tdata, data + starts[in_frame] + in_off, beat_len);
                set_keep(m_->s_axis_tkeep, beat_len);
                m_->s_axis_tlast = last;
                m_->s_axis_tuser = mac_err[in_frame] && last;
            }
            m_->s_axis_tvalid = valid;
            m_->m_axis_tready = cfg->out_ready_pct >= 100 || rng.chance(cfg->out_ready_pct);
            m_->m_hdr_ready = cfg->hdr_ready_pct >= 100 || rng.chance(cfg->hdr_ready_pct);
            m_->clk = 0;
            m_->eval();
            // sample handshakes before the rising edge
            bool s_fire = valid && m_->s_axis_tready;
            if (m_->m_axis_tvalid && m_->m_axis_tready) {
                if (out_i >= n) return SNIC_PROTOCOL;
                for (size_t i = 0; i < KW; ++i) {
                    if (!keep_bit(m_->m_axis_tkeep, i)) continue;
                    if (out_pos >= out_cap) return SNIC_PROTOCOL;
                    out_data[out_pos++] = tb_get_byte(m_->m_axis_tdata, i);
                    ++out_frame_len;
                }
                if (st->out_beats == 0) st->first_out_cycle = cycle;
                ++st->out_beats;
                if (m_->m_axis_tlast) {
                    out_lens[out_i] = uint32_t(out_frame_len);
                    hdrs[out_i].frame_tuser = m_->m_axis_tuser;
                    out_frame_len = 0;
                    ++out_i;
                }
            }
            if (m_->m_hdr_valid && m_->m_hdr_ready) {
                if (hdr_i >= n) return SNIC_PROTOCOL;
                collect(hdrs[hdr_i]);
                uint64_t lat = cycle - last_accept[hdr_i];
                hdrs[hdr_i].latency = uint32_t(lat);
                if (lat > st->max_latency) st->max_latency = lat;
                ++hdr_i;
            }
            for (int b = 0; b < 16; ++b) {
                if ((m_->stat_event >> b) & 1) ++st->events[b];
            }
            m_->clk = 1;
            m_->eval();
            if (s_fire) {
                ++st->in_beats;
                if (first_in) {
                    st->first_in_cycle = cycle;
                    first_in = false;
                }
                st->last_in_cycle = cycle;
                in_off += beat_len;
                valid = false;
                if (last) {
                    last_accept[in_frame] = cycle;
                    ++in_frame;
                    in_off = 0;
                }
            }
            ++cycle;
        }
        // let the last stat pulse out
        m_->m_axis_tready = 1;
        m_->m_hdr_ready = 1;
        m_->s_axis_tvalid = 0;
        for (int i = 0; i < 2; ++i) {
            m_->clk = 0;
            m_->eval();
            for (int b = 0; b < 16; ++b) {
                if ((m_->stat_event >> b) & 1) ++st->events[b];
            }
            m_->clk = 1;
            m_->eval();
        }
        st->cycles = cycle;
        st->hdrs = hdr_i;
        st->out_frames = out_i;
        return SNIC_OK;
    }

private:
    void tick() {
        m_->clk = 0;
        m_->eval();
        m_->clk = 1;
        m_->eval();
    }

    void collect(SnicHdr& h) {
        uint32_t tuser = h.frame_tuser;  // set earlier by the frame path
        std::memset(&h, 0, sizeof(h));
        h.frame_tuser = tuser;
        h.reason = m_->m_hdr_reason;
        h.ok = m_->m_hdr_ok;
        h.other = m_->m_hdr_other;
        h.malformed = m_->m_hdr_malformed;
        for (int i = 0; i < 6; ++i) {
            h.eth_dst[i] = uint8_t(m_->m_hdr_eth_dst >> (8 * (5 - i)));
            h.eth_src[i] = uint8_t(m_->m_hdr_eth_src >> (8 * (5 - i)));
        }
        h.vlan = m_->m_hdr_vlan;
        h.vlan_tci = m_->m_hdr_vlan_tci;
        h.eth_type = m_->m_hdr_eth_type;
        h.ip_version = m_->m_hdr_ip_version;
        h.ip_ihl = m_->m_hdr_ip_ihl;
        h.ip_tos = m_->m_hdr_ip_tos;
        h.ip_length = m_->m_hdr_ip_length;
        h.ip_id = m_->m_hdr_ip_id;
        h.ip_flags = m_->m_hdr_ip_flags;
        h.ip_frag_offset = m_->m_hdr_ip_frag_offset;
        h.ip_ttl = m_->m_hdr_ip_ttl;
        h.ip_protocol = m_->m_hdr_ip_protocol;
        h.ip_checksum = m_->m_hdr_ip_checksum;
        h.ip_src = m_->m_hdr_ip_src;
        h.ip_dst = m_->m_hdr_ip_dst;
        h.tcp_src_port = m_->m_hdr_tcp_src_port;
        h.tcp_dst_port = m_->m_hdr_tcp_dst_port;
        h.tcp_seq = m_->m_hdr_tcp_seq;
        h.tcp_ack = m_->m_hdr_tcp_ack;
        h.tcp_data_offset = m_->m_hdr_tcp_data_offset;
        h.tcp_flags = m_->m_hdr_tcp_flags;
        h.tcp_window = m_->m_hdr_tcp_window;
        h.tcp_checksum = m_->m_hdr_tcp_checksum;
        h.tcp_urgent = m_->m_hdr_tcp_urgent;
        h.tcp_opt_len = m_->m_hdr_tcp_opt_len;
        for (size_t i = 0; i < 40; ++i) h.tcp_options[i] = tb_get_byte(m_->m_hdr_tcp_options, i);
        h.l3_offset = m_->m_hdr_l3_offset;
        h.l4_offset = m_->m_hdr_l4_offset;
        h.payload_offset = m_->m_hdr_payload_offset;
        h.payload_len = m_->m_hdr_payload_len;
        h.frame_len = m_->m_hdr_frame_len;
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<M> m_;
};

}  // namespace

extern "C" {

// width: 64 or 512. Returns nullptr for any other width.
void* snic_parser_new(uint32_t width) {
    if (width == 64) return static_cast<Parser*>(new ParserImpl<Vparser64, 8>());
    if (width == 512) return static_cast<Parser*>(new ParserImpl<Vparser512, 64>());
    return nullptr;
}

void snic_parser_free(void* p) { delete static_cast<Parser*>(p); }

void snic_parser_reset(void* p) {
    if (p) static_cast<Parser*>(p)->reset();
}

int snic_parser_run(void* p, const uint8_t* data, const uint32_t* lens, const uint8_t* mac_err,
                    uint32_t n, const SnicRunCfg* cfg, SnicHdr* hdrs, uint8_t* out_data,
                    size_t out_cap, uint32_t* out_lens, SnicRunStats* stats) {
    if (!p || !cfg || !stats || (n > 0 && (!data || !lens || !mac_err || !hdrs || !out_lens)))
        return SNIC_BAD_ARG;
    for (uint32_t i = 0; i < n; ++i) {
        if (lens[i] == 0) return SNIC_BAD_ARG;  // AXI-Stream frames carry at least one byte
    }
    return static_cast<Parser*>(p)->run(data, lens, mac_err, n, cfg, hdrs, out_data, out_cap,
                                         out_lens, stats);
}

}  // extern "C"

// ---------------------------------------------------------------------------------------
// tcp_classifier (VIP_ENTRIES 8, LOCAL_ENTRIES 4)

extern "C" {

// Mirrors `ffi::SnicClsIn`.
struct SnicClsIn {
    uint32_t reason, eth_type, ip_protocol, ip_dst, tcp_dst_port, tcp_flags, payload_len;
};

// Mirrors `ffi::SnicClsOut`.
struct SnicClsOut {
    uint32_t cls, why, kind, index;
};

// Mirrors `ffi::SnicClsCfg`.
struct SnicClsCfg {
    uint32_t vip_enable;
    uint32_t vip_addr[8];
    uint32_t vip_port[8];
    uint32_t local_enable;
    uint32_t local_addr[4];
    uint32_t punt;
};

int snic_classifier_run(const SnicClsCfg* cfg, const SnicClsIn* in, uint32_t n, SnicClsOut* out,
                        uint32_t valid_pct, uint32_t ready_pct, uint32_t seed,
                        uint64_t max_cycles, uint64_t* cycles_out) {
    if (!cfg || !cycles_out || (n > 0 && (!in || !out))) return SNIC_BAD_ARG;
    VerilatedContext ctx;
    ctx.debug(0);
    ctx.randReset(0);
    Vclassifier m(&ctx, "classifier");
    Rng rng(seed);
    m.cfg_vip_enable = cfg->vip_enable & 0xff;
    for (int i = 0; i < 8; ++i) m.cfg_vip_addr[i] = cfg->vip_addr[i];
    for (int i = 0; i < 4; ++i)
        m.cfg_vip_port[i] = (cfg->vip_port[2 * i] & 0xffff) | (cfg->vip_port[2 * i + 1] << 16);
    m.cfg_local_enable = cfg->local_enable & 0xf;
    for (int i = 0; i < 4; ++i) m.cfg_local_addr[i] = cfg->local_addr[i];
    m.cfg_punt = cfg->punt & 0xff;
    m.rst = 1;
    m.s_hdr_valid = 0;
    m.m_cls_ready = 0;
    for (int i = 0; i < 3; ++i) {
        m.clk = 0;
        m.eval();
        m.clk = 1;
        m.eval();
    }
    m.rst = 0;
    uint32_t in_i = 0, out_i = 0;
    bool valid = false;
    uint64_t cycle = 0;
    while (out_i < n) {
        if (cycle >= max_cycles) {
            *cycles_out = cycle;
            m.final();
            return SNIC_TIMEOUT;
        }
        if (!valid && in_i < n) valid = valid_pct >= 100 || rng.chance(valid_pct);
        if (valid) {
            const SnicClsIn& h = in[in_i];
            m.s_hdr_reason = h.reason & ((1u << SPLICENIC_PARSER_REASON_WIDTH) - 1);
            m.s_hdr_eth_type = h.eth_type & 0xffff;
            m.s_hdr_ip_protocol = h.ip_protocol & 0xff;
            m.s_hdr_ip_dst = h.ip_dst;
            m.s_hdr_tcp_dst_port = h.tcp_dst_port & 0xffff;
            m.s_hdr_tcp_flags = h.tcp_flags & 0x1ff;
            m.s_hdr_payload_len = h.payload_len & 0xffff;
        }
        m.s_hdr_valid = valid;
        m.m_cls_ready = ready_pct >= 100 || rng.chance(ready_pct);
        m.clk = 0;
        m.eval();
        bool s_fire = valid && m.s_hdr_ready;
        if (m.m_cls_valid && m.m_cls_ready) {
            if (out_i >= n) return SNIC_PROTOCOL;
            out[out_i].cls = m.m_cls_class;
            out[out_i].why = m.m_cls_why;
            out[out_i].kind = m.m_cls_kind;
            out[out_i].index = m.m_cls_index;
            ++out_i;
        }
        m.clk = 1;
        m.eval();
        if (s_fire) {
            valid = false;
            ++in_i;
        }
        ++cycle;
    }
    *cycles_out = cycle;
    m.final();
    return SNIC_OK;
}

}  // extern "C"
