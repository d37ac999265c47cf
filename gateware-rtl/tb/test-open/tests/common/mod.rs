//! The reference shared by the frame tests: the firmware's own frame builder.

use splicenic_fw_logic::flowmgr::tcpopts::Handshake;
use splicenic_fw_logic::splicer::frame::{fill_checksums, TcpOut};
use splicenic_tb_open::TxRequest;

/// The firmware's frame of `r` with `payload`, checksums filled in.
pub fn firmware_frame(r: &TxRequest, payload: &[u8]) -> Vec<u8> {
    let hs = Handshake {
        client_mss: r.mss,
        mss_to_client: r.mss,
        mss_to_server: r.mss,
        client_wscale: r.ws,
        server_wscale: r.ws,
        sack: r.sack,
        timestamps: r.ts,
    };
    // the SYN form is the firmware's tcpopts::build (through the handshake's SYN-ACK
    // options, which take any TSecr); the ACK form its ts_option: NOP NOP TS
    let syn_opts = hs.synack_to_client(r.tsval, r.tsecr);
    let mut ack_opts = [1u8, 1, 8, 10, 0, 0, 0, 0, 0, 0, 0, 0];
    ack_opts[4..8].copy_from_slice(&r.tsval.to_be_bytes());
    ack_opts[8..12].copy_from_slice(&r.tsecr.to_be_bytes());
    let opts: &[u8] = match (r.syn_opts, r.ts) {
        (true, _) => syn_opts.as_slice(),
        (false, true) => &ack_opts,
        (false, false) => &[],
    };
    let out = TcpOut {
        src_mac: r.src_mac,
        dst_mac: r.dst_mac,
        src_ip: r.src_ip,
        dst_ip: r.dst_ip,
        src_port: r.sport,
        dst_port: r.dport,
        seq: r.seq,
        ack: r.ack,
        flags: r.flags,
        window: r.window,
        opts,
        payload,
    };
    let mut buf = vec![0u8; 128 + payload.len()];
    let (len, ofl) = out.write(&mut buf).expect("firmware builds the frame");
    fill_checksums(&mut buf, &ofl);
    buf.truncate(len);
    buf
}
