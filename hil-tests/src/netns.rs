//! Network-namespace plumbing shared by the real-peer topology ([`crate::topo`]) and the
//! software baseline ([`crate::baseline`]): commands inside namespaces, namespaces that are
//! torn down with everything in them, and the nginx backends both put behind the VIP.

use anyhow::{bail, Context, Result};
use std::io::Read;
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run a command; its output whatever the exit status.
pub fn run(args: &[&str]) -> Result<Output> {
    Command::new(args[0])
        .args(&args[1..])
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {args:?}"))
}

/// Run a command that must succeed; its stdout.
pub fn must(args: &[&str]) -> Result<String> {
    let out = run(args)?;
    if !out.status.success() {
        bail!(
            "{args:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Output of a finished command in a namespace.
#[derive(Debug)]
pub struct ExecOutput {
    pub ok: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl ExecOutput {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Run `cmd` in namespace `ns`, killed after `timeout`.
pub fn exec(ns: &str, cmd: &[&str], timeout: Duration) -> Result<ExecOutput> {
    let mut child = Command::new("ip")
        .args(["netns", "exec", ns])
        .args(cmd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("running {cmd:?} in {ns}"))?;
    let mut so = child.stdout.take().context("no stdout pipe")?;
    let mut se = child.stderr.take().context("no stderr pipe")?;
    let ro = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let re = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = se.read_to_end(&mut v);
        v
    });
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        if t0.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let stdout = ro.join().unwrap_or_default();
    let mut stderr = String::from_utf8_lossy(&re.join().unwrap_or_default()).into_owned();
    if status.is_none() {
        stderr.push_str(&format!("\n(killed after {timeout:?})"));
    }
    Ok(ExecOutput {
        ok: status.is_some_and(|s| s.success()),
        stdout,
        stderr,
    })
}

/// Namespaces made for one run, deleted (with their links) by [`Namespaces::delete_all`].
#[derive(Debug, Default)]
pub struct Namespaces(Vec<String>);

impl Namespaces {
    /// Create `ns` with loopback up and IPv6 off (no IPv6 chatter on the links).
    pub fn add(&mut self, ns: &str) -> Result<()> {
        must(&["ip", "netns", "add", ns])?;
        self.0.push(ns.to_string());
        let _ = exec(
            ns,
            &["sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1"],
            Duration::from_secs(10),
        );
        must(&["ip", "-n", ns, "link", "set", "lo", "up"])?;
        Ok(())
    }

    /// The namespaces, in creation order.
    pub fn names(&self) -> &[String] {
        &self.0
    }

    /// SIGKILL every process still running in the namespaces.
    pub fn kill_all(&self) {
        for ns in &self.0 {
            if let Ok(out) = run(&["ip", "netns", "pids", ns]) {
                for pid in String::from_utf8_lossy(&out.stdout).split_whitespace() {
                    if let Ok(pid) = pid.parse::<i32>() {
                        // SAFETY: kill has no memory preconditions; the pid is a process in
                        // one of our own namespaces.
                        unsafe { libc::kill(pid, libc::SIGKILL) };
                    }
                }
            }
        }
    }

    /// Delete the namespaces, newest first (and with them the veths and bridges in them).
    pub fn delete_all(&mut self) {
        for ns in self.0.drain(..).rev() {
            let _ = run(&["ip", "netns", "del", &ns]);
        }
    }
}

/// Wire a backend namespace `ns` to the bridge `br` of `lan_ns`: a veth pair (`vb` on the
/// bridge, `vp` in `ns` with `ip`/24), both up.
pub fn attach_to_bridge(
    lan_ns: &str,
    br: &str,
    (vb, vp): (&str, &str),
    ns: &str,
    ip: Ipv4Addr,
) -> Result<()> {
    must(&[
        "ip", "-n", lan_ns, "link", "add", vb, "type", "veth", "peer", "name", vp, "netns", ns,
    ])?;
    must(&["ip", "-n", lan_ns, "link", "set", vb, "master", br])?;
    must(&["ip", "-n", lan_ns, "link", "set", vb, "up"])?;
    must(&[
        "ip",
        "-n",
        ns,
        "addr",
        "add",
        &format!("{ip}/24"),
        "dev",
        vp,
    ])?;
    must(&["ip", "-n", ns, "link", "set", vp, "up"])?;
    Ok(())
}

/// Kill and reap child processes.
pub fn kill_children(children: &mut Vec<Child>) {
    for c in children.iter_mut() {
        let _ = c.kill();
        let _ = c.wait();
    }
    children.clear();
}

/// One nginx backend: its name (the `X-Backend` header), namespace, address and prefix
/// directory (config, docroot, logs).
#[derive(Debug, Clone)]
pub struct NginxSite {
    pub name: String,
    pub ns: String,
    pub ip: Ipv4Addr,
    pub dir: PathBuf,
}

/// Wait until something listens on `addr` (`IP:PORT` as `ss -ltn` prints it) in `ns`, at
/// most `timeout`; `log` is quoted in the error.
pub fn wait_listen(ns: &str, addr: &str, timeout: Duration, log: Option<&Path>) -> Result<()> {
    let t0 = Instant::now();
    loop {
        let ss = exec(ns, &["ss", "-ltnH"], Duration::from_secs(10))?;
        if ss.text().contains(addr) {
            return Ok(());
        }
        if t0.elapsed() > timeout {
            let log = log
                .and_then(|l| std::fs::read_to_string(l).ok())
                .unwrap_or_default();
            bail!(
                "nothing listens on {addr} in {ns} after {timeout:?}: {}",
                log.trim()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Start nginx (Debian nginx-light) for every site on `port`, serving `/id` (the name),
/// `/api/x` (`api <name>`) and `/static/blob` (`blob`) with an `X-Backend: <name>` header,
/// logs in `<dir>/logs`; waits until each listens. The children are returned even when a
/// later site fails (pushed into `children`), so the caller can stop them.
pub fn start_nginx(
    sites: &[NginxSite],
    port: u16,
    blob: &[u8],
    children: &mut Vec<Child>,
) -> Result<()> {
    for b in sites {
        let root = b.dir.join("www");
        for d in [
            root.join("static"),
            root.join("api"),
            b.dir.join("logs"),
            b.dir.join("tmp"),
        ] {
            std::fs::create_dir_all(&d).with_context(|| format!("creating {}", d.display()))?;
        }
        std::fs::write(root.join("id"), format!("{}\n", b.name))?;
        std::fs::write(root.join("api/x"), format!("api {}\n", b.name))?;
        std::fs::write(root.join("static/blob"), blob)?;
        let d = b.dir.display();
        let conf = format!(
            "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
             error_log {d}/logs/error.log info;\nevents {{ worker_connections 64; }}\n\
             http {{\n  access_log {d}/logs/access.log;\n  client_body_temp_path {d}/tmp;\n\
             \x20 proxy_temp_path {d}/tmp;\n  fastcgi_temp_path {d}/tmp;\n\
             \x20 uwsgi_temp_path {d}/tmp;\n  scgi_temp_path {d}/tmp;\n\
             \x20 default_type application/octet-stream;\n  keepalive_timeout 300s;\n\
             \x20 send_timeout 300s;\n  client_header_timeout 300s;\n\
             \x20 server {{\n    listen {ip}:{port};\n    root {d}/www;\n\
             \x20   add_header X-Backend {name} always;\n  }}\n}}\n",
            ip = b.ip,
            name = b.name,
        );
        let conf_path = b.dir.join("nginx.conf");
        std::fs::write(&conf_path, conf)
            .with_context(|| format!("writing {}", conf_path.display()))?;
        let err = std::fs::File::create(b.dir.join("logs/stderr"))?;
        let child = Command::new("ip")
            .args(["netns", "exec", &b.ns, "nginx", "-c"])
            .arg(&conf_path)
            .arg("-p")
            .arg(&b.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(err)
            .spawn()
            .with_context(|| format!("starting nginx in {} (apt-get install nginx-light)", b.ns))?;
        children.push(child);
    }
    for b in sites {
        wait_listen(
            &b.ns,
            &format!("{}:{port}", b.ip),
            Duration::from_secs(20),
            Some(&b.dir.join("logs/stderr")),
        )
        .with_context(|| format!("nginx of {}", b.name))?;
    }
    Ok(())
}
