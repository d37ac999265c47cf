// SPDX-License-Identifier: MIT OR Apache-2.0
// Shared by the C++ shims of the Verilated test benches: one model in its own
// VerilatedContext (so several models run in parallel threads), and one clock cycle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "verilated.h"

template <class M>
struct TbModel {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<M> m;

    explicit TbModel(const char* name) : ctx(new VerilatedContext) {
        ctx->debug(0);
        ctx->randReset(0);
        m.reset(new M(ctx.get(), name));
    }
    ~TbModel() { m->final(); }
    TbModel(const TbModel&) = delete;
    TbModel& operator=(const TbModel&) = delete;

    // One rising and one falling edge of `clk`.
    void cycle() {
        m->clk = 1;
        m->eval();
        m->clk = 0;
        m->eval();
    }
};

// Byte access to Verilator port values, byte 0 in bits 7:0 (the AXI-Stream lane order).
// Scalar ports (CData/SData/IData/QData) and wide ports (VlWide<N>).
template <class T>
inline void tb_set_bytes(T& sig, const uint8_t* b, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < sizeof(T); i++) v |= uint64_t(b[i]) << (8 * i);
    sig = T(v);
}
template <std::size_t N>
inline void tb_set_bytes(VlWide<N>& sig, const uint8_t* b, size_t n) {
    for (std::size_t w = 0; w < N; w++) {
        uint32_t v = 0;
        for (size_t j = 0; j < 4; j++) {
            size_t i = 4 * w + j;
            if (i < n) v |= uint32_t(b[i]) << (8 * j);
        }
        sig[w] = v;
    }
}
template <class T>
inline uint8_t tb_get_byte(const T& sig, size_t i) {
    return uint8_t(uint64_t(sig) >> (8 * i));
}
template <std::size_t N>
inline uint8_t tb_get_byte(const VlWide<N>& sig, size_t i) {
    return uint8_t(sig[i / 4] >> (8 * (i % 4)));
}
// tkeep value with the n lowest lanes set (n up to 64).
inline uint64_t tb_keep_mask(size_t n) { return n >= 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1); }
