// SPDX-License-Identifier: MIT OR Apache-2.0
// Shared by the C++ shims of the Verilated test benches: one model in its own
// VerilatedContext (so several models run in parallel threads), and one clock cycle.
#pragma once

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
