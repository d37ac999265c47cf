//! `rig-check FILE`: parse a rig file (docs/rig.md, "Lab rig") and print the rig it
//! describes, or the error naming the field; exit status 1 on error. `cargo xtask hil
//! --rig FILE` runs it before the scenarios.

use splicenic_hil::rig::{LabCard, Rig, RigKind};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file] = args.as_slice() else {
        eprintln!("usage: rig-check FILE");
        return ExitCode::from(2);
    };
    let rig = match Rig::load(Path::new(file)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{rig}");
    let a = &rig.addrs;
    println!(
        "  VIP {}:{}, client {}, card local {}, backends from {} port {}",
        a.vip, a.vip_port, a.client, a.local, a.backend_first, a.backend_port
    );
    if let RigKind::Lab(lab) = &rig.kind {
        // What can be checked without taking the card: the interfaces and the PCI device.
        let mut ok = true;
        for (field, dev) in [
            ("ports.client", &lab.client_if),
            ("ports.server", &lab.server_if),
        ] {
            if !Path::new("/sys/class/net").join(dev).exists() {
                eprintln!(
                    "error: rig file {file}: {field}: no interface `{dev}` on this host (ip link)"
                );
                ok = false;
            }
        }
        match &lab.card {
            LabCard::Pci(pci) => {
                if let Err(e) = splicenic_driver::vfio::preflight(pci) {
                    eprintln!("error: rig file {file}: card.pci: {e}");
                    ok = false;
                }
            }
            LabCard::Socket(p) => {
                if std::os::unix::net::UnixStream::connect(p).is_err() {
                    eprintln!(
                        "error: rig file {file}: card.socket: no simulated card answers on {} (nicctl sim start --socket {} --tap-client ... --tap-server ...)",
                        p.display(),
                        p.display()
                    );
                    ok = false;
                }
            }
        }
        if !ok {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
