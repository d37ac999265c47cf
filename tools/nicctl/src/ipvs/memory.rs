//! A reference implementation of what ipvsadm's table commands do, on an in-memory table.
//!
//! It mirrors the kernel's checks and libipvs's messages (`ipvs_strerror`): adding a service
//! that exists fails with "Service already exists", a server command on a missing service
//! with "Service not defined", and so on. The card's implementation must agree with it; the
//! tests use it to check that `-S` output restores to the same table.

#[cfg(test)]
use std::net::SocketAddrV4;

#[cfg(test)]
use super::args::{IpvsCommand, ServerSpec, ServiceSpec};
#[cfg(test)]
use super::model::{Counters, Rates, ServerEntry, ServiceEntry, Snapshot, Timeouts};

/// Why a command was refused (libipvs's messages).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// `-A` of an existing service.
    #[error("Service already exists")]
    ServiceExists,
    /// `-E`, `-D` or `-Z` of a missing service.
    #[error("No such service")]
    NoSuchService,
    /// `-a`, `-e` or `-d` on a missing service.
    #[error("Service not defined")]
    ServiceNotDefined,
    /// `-a` of an existing server.
    #[error("Destination already exists")]
    DestinationExists,
    /// `-e` or `-d` of a missing server.
    #[error("No such destination")]
    NoSuchDestination,
    /// `-y` above `-x` (the reference table's check; `nicctl ipvsadm` refuses it while
    /// parsing, `ArgsError::ThresholdOrder`).
    #[cfg(test)]
    #[error("Numerical result out of range (lower threshold is higher than upper threshold)")]
    ThresholdOrder,
}

#[cfg(test)]
/// The table: services in insertion order, each with its servers in insertion order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MemTable {
    /// Virtual services.
    pub services: Vec<ServiceEntry>,
    /// Connection timeouts.
    pub timeouts: Timeouts,
}

#[cfg(test)]
impl MemTable {
    /// An empty table with the default timeouts.
    pub fn new() -> Self {
        Self::default()
    }

    /// The table as a [`Snapshot`] with no connections and the given table size.
    pub fn snapshot(&self, table_size: u32) -> Snapshot {
        Snapshot {
            services: self.services.clone(),
            conns: Vec::new(),
            timeouts: self.timeouts,
            table_size,
        }
    }

    fn service_mut(&mut self, vip: SocketAddrV4) -> Option<&mut ServiceEntry> {
        self.services.iter_mut().find(|s| s.vip == vip)
    }
}

#[cfg(test)]
/// Carry out `cmd` on `table`. Commands that change nothing (`-L`, `-S`, `-R`, `-h`, `-v`)
/// succeed without effect.
pub fn apply(table: &mut MemTable, cmd: &IpvsCommand) -> Result<(), ApplyError> {
    match cmd {
        IpvsCommand::AddService(spec) => {
            if table.service_mut(spec.vip).is_some() {
                return Err(ApplyError::ServiceExists);
            }
            let mut svc = ServiceEntry::new(spec.vip, spec.sched);
            set_service(&mut svc, spec);
            table.services.push(svc);
        }
        IpvsCommand::EditService(spec) => {
            let svc = table
                .service_mut(spec.vip)
                .ok_or(ApplyError::NoSuchService)?;
            set_service(svc, spec);
        }
        IpvsCommand::DeleteService(vip) => {
            let before = table.services.len();
            table.services.retain(|s| s.vip != *vip);
            if table.services.len() == before {
                return Err(ApplyError::NoSuchService);
            }
        }
        IpvsCommand::Clear => table.services.clear(),
        IpvsCommand::AddServer(spec) => {
            check_thresholds(spec)?;
            let svc = table
                .service_mut(spec.service)
                .ok_or(ApplyError::ServiceNotDefined)?;
            if svc.servers.iter().any(|d| d.addr == spec.server) {
                return Err(ApplyError::DestinationExists);
            }
            let mut d = ServerEntry::new(spec.server, spec.weight);
            set_server(&mut d, spec);
            svc.servers.push(d);
        }
        IpvsCommand::EditServer(spec) => {
            check_thresholds(spec)?;
            let svc = table
                .service_mut(spec.service)
                .ok_or(ApplyError::ServiceNotDefined)?;
            let d = svc
                .servers
                .iter_mut()
                .find(|d| d.addr == spec.server)
                .ok_or(ApplyError::NoSuchDestination)?;
            set_server(d, spec);
        }
        IpvsCommand::DeleteServer { service, server } => {
            let svc = table
                .service_mut(*service)
                .ok_or(ApplyError::ServiceNotDefined)?;
            let before = svc.servers.len();
            svc.servers.retain(|d| d.addr != *server);
            if svc.servers.len() == before {
                return Err(ApplyError::NoSuchDestination);
            }
        }
        IpvsCommand::Zero(None) => table.services.iter_mut().for_each(zero),
        IpvsCommand::Zero(Some(vip)) => {
            zero(table.service_mut(*vip).ok_or(ApplyError::NoSuchService)?);
        }
        IpvsCommand::Set(t) => {
            // 0 leaves a timeout unchanged.
            let cur = &mut table.timeouts;
            for (new, old) in [
                (t.tcp, &mut cur.tcp),
                (t.tcpfin, &mut cur.tcpfin),
                (t.udp, &mut cur.udp),
            ] {
                if new != 0 {
                    *old = new;
                }
            }
        }
        IpvsCommand::List(_)
        | IpvsCommand::Save { .. }
        | IpvsCommand::Restore
        | IpvsCommand::Help
        | IpvsCommand::Version => {}
    }
    Ok(())
}

#[cfg(test)]
/// `-A`/`-E` replace every setting of the service.
fn set_service(svc: &mut ServiceEntry, spec: &ServiceSpec) {
    svc.sched = spec.sched;
    svc.persistent = spec.persistent;
    svc.sched_flags = spec.sched_flags;
}

#[cfg(test)]
/// `-a`/`-e` replace every setting of the server, except that no `--mac` keeps the MAC.
fn set_server(d: &mut ServerEntry, spec: &ServerSpec) {
    d.weight = spec.weight;
    d.upper = spec.upper;
    d.lower = spec.lower;
    if spec.mac.is_some() {
        d.mac = spec.mac;
    }
}

#[cfg(test)]
fn check_thresholds(spec: &ServerSpec) -> Result<(), ApplyError> {
    if spec.lower > spec.upper {
        return Err(ApplyError::ThresholdOrder);
    }
    Ok(())
}

#[cfg(test)]
fn zero(svc: &mut ServiceEntry) {
    svc.stats = Counters::default();
    svc.rates = Rates::default();
    for d in &mut svc.servers {
        d.stats = Counters::default();
        d.rates = Rates::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipvs::args::{parse, parse_restore};
    use crate::ipvs::format::save;
    use crate::ipvs::model::Scheduler;

    fn run(t: &mut MemTable, line: &str) -> Result<(), ApplyError> {
        let args: Vec<&str> = line.split_whitespace().collect();
        apply(t, &parse(&args).expect(line))
    }

    #[test]
    fn service_errors_match_ipvsadm() {
        let mut t = MemTable::new();
        run(&mut t, "-A -t 10.0.0.1:80").unwrap();
        assert_eq!(
            run(&mut t, "-A -t 10.0.0.1:80 -s rr"),
            Err(ApplyError::ServiceExists)
        );
        assert_eq!(
            run(&mut t, "-E -t 10.0.0.9:80"),
            Err(ApplyError::NoSuchService)
        );
        assert_eq!(
            run(&mut t, "-D -t 10.0.0.9:80"),
            Err(ApplyError::NoSuchService)
        );
        assert_eq!(
            run(&mut t, "-Z -t 10.0.0.9:80"),
            Err(ApplyError::NoSuchService)
        );
        assert_eq!(
            ApplyError::ServiceExists.to_string(),
            "Service already exists"
        );
        assert_eq!(ApplyError::NoSuchService.to_string(), "No such service");
        run(&mut t, "-D -t 10.0.0.1:80").unwrap();
        assert!(t.services.is_empty());
    }

    #[test]
    fn server_errors_match_ipvsadm() {
        let mut t = MemTable::new();
        assert_eq!(
            run(&mut t, "-a -t 10.0.0.1:80 -r 192.168.1.10"),
            Err(ApplyError::ServiceNotDefined)
        );
        run(&mut t, "-A -t 10.0.0.1:80").unwrap();
        run(&mut t, "-a -t 10.0.0.1:80 -r 192.168.1.10").unwrap();
        assert_eq!(
            run(&mut t, "-a -t 10.0.0.1:80 -r 192.168.1.10:80 -w 5"),
            Err(ApplyError::DestinationExists)
        );
        // Another port is another destination.
        run(&mut t, "-a -t 10.0.0.1:80 -r 192.168.1.10:8080").unwrap();
        assert_eq!(
            run(&mut t, "-e -t 10.0.0.1:80 -r 192.168.1.11"),
            Err(ApplyError::NoSuchDestination)
        );
        assert_eq!(
            run(&mut t, "-d -t 10.0.0.1:80 -r 192.168.1.11"),
            Err(ApplyError::NoSuchDestination)
        );
        assert_eq!(
            run(&mut t, "-d -t 10.0.0.2:80 -r 192.168.1.10"),
            Err(ApplyError::ServiceNotDefined)
        );
        assert_eq!(
            ApplyError::DestinationExists.to_string(),
            "Destination already exists"
        );
        assert_eq!(
            ApplyError::NoSuchDestination.to_string(),
            "No such destination"
        );
        run(&mut t, "-d -t 10.0.0.1:80 -r 192.168.1.10").unwrap();
        let addrs: Vec<String> = t.services[0]
            .servers
            .iter()
            .map(|d| d.addr.to_string())
            .collect();
        assert_eq!(addrs, ["192.168.1.10:8080"]);
    }

    #[test]
    fn edit_replaces_every_setting_but_the_mac() {
        let mut t = MemTable::new();
        run(&mut t, "-A -t 10.0.0.1:80 -s rr -p 600 -M 255.255.0.0").unwrap();
        run(&mut t, "-E -t 10.0.0.1:80").unwrap();
        assert_eq!(t.services[0].sched, Scheduler::Wlc);
        assert_eq!(t.services[0].persistent, None);
        run(
            &mut t,
            "-a -t 10.0.0.1:80 -r 192.168.1.10 -w 5 -x 10 -y 5 --mac 02:00:00:00:00:01",
        )
        .unwrap();
        run(&mut t, "-e -t 10.0.0.1:80 -r 192.168.1.10 -w 3").unwrap();
        let d = &t.services[0].servers[0];
        assert_eq!((d.weight, d.upper, d.lower), (3, 0, 0));
        assert_eq!(
            d.mac.map(|m| m.to_string()).as_deref(),
            Some("02:00:00:00:00:01")
        );
    }

    #[test]
    fn set_zero_and_clear() {
        let mut t = MemTable::new();
        run(&mut t, "--set 0 60 0").unwrap();
        assert_eq!(
            t.timeouts,
            Timeouts {
                tcp: 900,
                tcpfin: 60,
                udp: 300
            }
        );
        run(&mut t, "-A -t 10.0.0.1:80").unwrap();
        run(&mut t, "-a -t 10.0.0.1:80 -r 192.168.1.10").unwrap();
        t.services[0].stats.conns = 5;
        t.services[0].servers[0].rates.cps = 2;
        run(&mut t, "-Z").unwrap();
        assert_eq!(t.services[0].stats, Counters::default());
        assert_eq!(t.services[0].servers[0].rates, Rates::default());
        run(&mut t, "-L -n").unwrap();
        run(&mut t, "-C").unwrap();
        assert!(t.services.is_empty());
    }

    #[test]
    fn threshold_order_is_checked() {
        let mut t = MemTable::new();
        run(&mut t, "-A -t 10.0.0.1:80").unwrap();
        let spec = ServerSpec {
            service: "10.0.0.1:80".parse().unwrap(),
            server: "192.168.1.1:80".parse().unwrap(),
            weight: 1,
            upper: 5,
            lower: 6,
            mac: None,
        };
        assert_eq!(
            apply(&mut t, &IpvsCommand::AddServer(spec)),
            Err(ApplyError::ThresholdOrder)
        );
    }

    #[test]
    fn save_restore_round_trip() {
        let text = "\
-A -t 10.0.0.2:443 -s sh -b sh-fallback,sh-port
-a -t 10.0.0.2:443 -r 192.168.1.21:443 -m -w 1
-a -t 10.0.0.2:443 -r 192.168.1.20:443 -m -w 2
-A -t 10.0.0.1:80 -s wlc -p 360 -M 255.255.255.0
-a -t 10.0.0.1:80 -r 192.168.1.11:8080 -m -w 0 --mac 02:00:5e:10:00:01
-a -t 10.0.0.1:80 -r 192.168.1.10:8080 -m -w 1 -x 100 -y 50
-A -t 10.0.0.1:8080 -s rr -p 600
-A -t 10.0.0.3:80 -s mh -b mh-port
-A -t 10.0.0.4:0 -s lblc -p 30 -M 255.0.0.0
-a -t 10.0.0.4:0 -r 192.168.2.1:0 -m -w 65535 -x 7 -y 7
";
        let mut t = MemTable::new();
        for c in parse_restore(text).unwrap() {
            apply(&mut t, &c).unwrap();
        }
        let saved = save(&t.snapshot(4096));
        let mut t2 = MemTable::new();
        for c in parse_restore(&saved).unwrap() {
            apply(&mut t2, &c).unwrap();
        }
        assert_eq!(save(&t2.snapshot(4096)), saved);
        // Same services and settings (order may differ: -S sorts).
        assert_eq!(t2.services.len(), t.services.len());
        for s in &t.services {
            let s2 = t2.services.iter().find(|x| x.vip == s.vip).unwrap();
            assert_eq!(
                (s2.sched, s2.persistent, s2.sched_flags),
                (s.sched, s.persistent, s.sched_flags)
            );
            assert_eq!(s2.servers.len(), s.servers.len());
            for d in &s.servers {
                assert!(s2.servers.contains(d), "{d:?}");
            }
        }
    }
}
