//! [`Bar`] backend for a real card through VFIO (`vfio-pci`).
//!
//! BAR0 is mapped into this process (`mmap` of the VFIO device file at the region's offset)
//! and accessed with [`core::ptr::read_volatile`] / [`core::ptr::write_volatile`] of `u32`.
//! Plain volatile pointer accesses are used rather than a typed register overlay
//! (`volatile-register`, a PAC `RegisterBlock`): every offset is checked against the mapped
//! size at run time with [`check_access`], which a static overlay would not add, and the
//! [`Bar`] trait is offset-based anyway.
//!
//! `vfio-ioctls` is used without its hypervisor features; its `region_read/write` only log
//! failures, so region flags and sizes are checked here and all MMIO goes through the
//! mapping.

use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memmap2::{MmapOptions, MmapRaw};
use vfio_bindings::bindings::vfio::{
    VFIO_PCI_BAR0_REGION_INDEX, VFIO_PCI_CONFIG_REGION_INDEX, VFIO_REGION_INFO_FLAG_MMAP,
    VFIO_REGION_INFO_FLAG_READ, VFIO_REGION_INFO_FLAG_WRITE,
};
use vfio_ioctls::{VfioContainer, VfioDevice};

use crate::bar::{check_access, Bar, BarError};
use crate::error::DriverError;

const SYSFS_PCI: &str = "/sys/bus/pci/devices";
const VFIO_CONTAINER: &str = "/dev/vfio/vfio";
/// PCI configuration space: command register offset and its memory-space-enable bit.
const PCI_COMMAND: u64 = 0x04;
const PCI_COMMAND_MEMORY: u16 = 0x2;

/// Normalise a PCI address to `DDDD:BB:DD.F` (lower-case hex), accepting `BB:DD.F` too.
pub fn parse_pci_address(s: &str) -> Result<String, DriverError> {
    let bad = || DriverError::BadPciAddress(s.to_string());
    let parts: Vec<&str> = s.split(':').collect();
    let (domain, bus, devfn) = match parts.as_slice() {
        [d, b, df] => (*d, *b, *df),
        [b, df] => ("0000", *b, *df),
        _ => return Err(bad()),
    };
    let (dev, func) = devfn.split_once('.').ok_or_else(bad)?;
    let hex = |t: &str, max_len: usize, max: u32| -> Result<u32, DriverError> {
        if t.is_empty() || t.len() > max_len || !t.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let v = u32::from_str_radix(t, 16).map_err(|_| bad())?;
        if v > max {
            return Err(bad());
        }
        Ok(v)
    };
    let domain = hex(domain, 4, 0xffff)?;
    let bus = hex(bus, 2, 0xff)?;
    let dev = hex(dev, 2, 0x1f)?;
    let func = hex(func, 1, 0x7)?;
    Ok(format!("{domain:04x}:{bus:02x}:{dev:02x}.{func:x}"))
}

/// Check that `addr` names a device bound to vfio-pci and that VFIO is usable, without
/// opening anything. Returns the normalised address and its sysfs path.
pub fn preflight(pci_addr: &str) -> Result<(String, PathBuf), DriverError> {
    preflight_in(pci_addr, Path::new(SYSFS_PCI), Path::new(VFIO_CONTAINER))
}

fn preflight_in(
    pci_addr: &str,
    sysfs: &Path,
    container: &Path,
) -> Result<(String, PathBuf), DriverError> {
    let addr = parse_pci_address(pci_addr)?;
    let path = sysfs.join(&addr);
    if !path.exists() {
        return Err(DriverError::NoPciDevice { addr, path });
    }
    let driver = std::fs::read_link(path.join("driver"))
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    if driver.as_deref() != Some("vfio-pci") {
        return Err(DriverError::NotVfioBound { addr, driver });
    }
    if !container.exists() {
        return Err(DriverError::VfioUnavailable);
    }
    Ok((addr, path))
}

/// BAR0 of a card opened through VFIO and mapped into this process.
pub struct VfioBar {
    addr: String,
    map: MmapRaw,
    size: u64,
    // Kept alive for as long as the mapping exists; dropped after it (field order).
    _device: VfioDevice,
    _container: Arc<VfioContainer>,
}

impl std::fmt::Debug for VfioBar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VfioBar")
            .field("addr", &self.addr)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl VfioBar {
    /// Open the card at `pci_addr` (`DDDD:BB:DD.F` or `BB:DD.F`) and map its BAR0.
    pub fn open(pci_addr: &str) -> Result<VfioBar, DriverError> {
        let (addr, sysfs_path) = preflight(pci_addr)?;
        let vfio = |source| DriverError::Vfio {
            addr: addr.clone(),
            source,
        };
        let container = Arc::new(VfioContainer::new(None).map_err(vfio)?);
        let device = VfioDevice::new(&sysfs_path, container.clone(), false).map_err(vfio)?;

        let bar = VFIO_PCI_BAR0_REGION_INDEX;
        let flags = device.get_region_flags(bar);
        let size = device.get_region_size(bar);
        let offset = device.get_region_offset(bar);
        let unusable = |reason: String| DriverError::BarUnusable {
            addr: addr.clone(),
            reason,
        };
        let need = VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
        if flags & need != need {
            return Err(unusable(format!(
                "region flags {flags:#x} lack read/write access"
            )));
        }
        if flags & VFIO_REGION_INFO_FLAG_MMAP == 0 {
            return Err(unusable(format!(
                "region flags {flags:#x}: the region cannot be mmapped"
            )));
        }
        if size == 0 || size % 4 != 0 {
            return Err(unusable(format!(
                "region size {size:#x} is not a positive multiple of 4"
            )));
        }
        let len = usize::try_from(size)
            .map_err(|_| unusable(format!("region size {size:#x} exceeds the address space")))?;

        enable_memory_decode(&device);

        let map = MmapOptions::new()
            .offset(offset)
            .len(len)
            .map_raw(&device)
            .map_err(|source| DriverError::BarMap {
                addr: addr.clone(),
                source,
            })?;
        if map.len() != len {
            return Err(unusable(format!(
                "mapping is {} bytes, the region {len}",
                map.len()
            )));
        }
        Ok(VfioBar {
            addr,
            map,
            size,
            _device: device,
            _container: container,
        })
    }

    /// The normalised PCI address.
    pub fn pci_address(&self) -> &str {
        &self.addr
    }

    fn ptr(&self, offset: u64) -> *mut u32 {
        // Callers have checked `offset + 4 <= size` and alignment; `size` fits in usize.
        self.map
            .as_mut_ptr()
            .wrapping_add(offset as usize)
            .cast::<u32>()
    }
}

/// Set PCI_COMMAND.MEMORY so BAR0 decodes (some platforms leave it clear for a device bound
/// to vfio-pci). Best effort: a failure here shows up as all-ones reads and a wrong magic.
fn enable_memory_decode(device: &VfioDevice) {
    let cfg = device.get_region_offset(VFIO_PCI_CONFIG_REGION_INDEX);
    let Ok(pos) = libc::off_t::try_from(cfg + PCI_COMMAND) else {
        return;
    };
    let fd = device.as_raw_fd();
    let mut cmd = [0u8; 2];
    // SAFETY: `fd` is the open VFIO device file owned by `device`; the buffer is valid for
    // 2 bytes of writes.
    let n = unsafe { libc::pread(fd, cmd.as_mut_ptr().cast(), 2, pos) };
    if n != 2 {
        return;
    }
    let value = u16::from_le_bytes(cmd);
    if value & PCI_COMMAND_MEMORY == 0 {
        let new = (value | PCI_COMMAND_MEMORY).to_le_bytes();
        // SAFETY: as above; the buffer is valid for 2 bytes of reads.
        let _ = unsafe { libc::pwrite(fd, new.as_ptr().cast(), 2, pos) };
    }
}

impl Bar for VfioBar {
    fn size(&self) -> u64 {
        self.size
    }

    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        check_access(offset, 4, self.size)?;
        // SAFETY: the mapping covers `size` bytes of BAR0 and lives as long as `self`;
        // `offset` is 4-aligned and `offset + 4 <= size` (checked above); the mapping is
        // page-aligned, so the pointer is aligned for u32. Device memory must be accessed
        // with volatile operations, which this is.
        Ok(unsafe { self.ptr(offset).read_volatile() })
    }

    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        check_access(offset, 4, self.size)?;
        // SAFETY: as in `read32`; the region has the WRITE flag (checked in `open`).
        unsafe { self.ptr(offset).write_volatile(value) };
        Ok(())
    }

    fn describe(&self) -> String {
        format!("VFIO {}", self.addr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pci_addresses_parse_and_normalise() {
        assert_eq!(parse_pci_address("0000:03:00.0").unwrap(), "0000:03:00.0");
        assert_eq!(parse_pci_address("03:00.1").unwrap(), "0000:03:00.1");
        assert_eq!(parse_pci_address("0001:AF:1f.7").unwrap(), "0001:af:1f.7");
        for bad in [
            "",
            "bogus",
            "03:00",
            "0000:03:00.8",
            "0000:03:20.0",
            "00000:03:00.0",
            "0:3:0.0.0",
            "g0:00.0",
        ] {
            let e = parse_pci_address(bad).unwrap_err();
            assert!(matches!(e, DriverError::BadPciAddress(_)), "{bad}: {e}");
        }
        assert!(parse_pci_address("x")
            .unwrap_err()
            .to_string()
            .contains("DDDD:BB:DD.F"));
    }

    #[test]
    fn missing_device_is_named() {
        let e = VfioBar::open("0000:99:00.0").unwrap_err();
        assert!(matches!(e, DriverError::NoPciDevice { .. }), "{e}");
        assert!(e.to_string().contains("no PCI device 0000:99:00.0"), "{e}");
    }

    /// A fake sysfs tree in a temporary directory (the driver symlink is what is checked).
    #[test]
    fn wrong_driver_and_missing_vfio_are_explained() {
        let root = std::env::temp_dir().join(format!("snic-sysfs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dev = root.join("devices/0000:03:00.0");
        std::fs::create_dir_all(&dev).unwrap();
        std::fs::create_dir_all(root.join("drivers/ixgbe")).unwrap();
        std::os::unix::fs::symlink(root.join("drivers/ixgbe"), dev.join("driver")).unwrap();
        let sys = root.join("devices");
        let e = preflight_in("03:00.0", &sys, Path::new("/nonexistent")).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("bound to ixgbe"), "{msg}");
        assert!(msg.contains("driver_override"), "{msg}");

        std::fs::remove_file(dev.join("driver")).unwrap();
        let e = preflight_in("03:00.0", &sys, Path::new("/nonexistent")).unwrap_err();
        assert!(e.to_string().contains("bound to no driver"), "{e}");

        std::fs::create_dir_all(root.join("drivers/vfio-pci")).unwrap();
        std::os::unix::fs::symlink(root.join("drivers/vfio-pci"), dev.join("driver")).unwrap();
        let e = preflight_in("03:00.0", &sys, &root.join("no-vfio")).unwrap_err();
        assert!(matches!(e, DriverError::VfioUnavailable), "{e}");
        assert!(e.to_string().contains("/dev/vfio/vfio missing"), "{e}");

        let (addr, path) = preflight_in("03:00.0", &sys, &root).unwrap();
        assert_eq!(addr, "0000:03:00.0");
        assert_eq!(path, dev);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
