//! Control-plane commands on `Card`: read-back, zeroing, connections, the rule-set record and the capture.

use super::*;

impl FlowManager<'_> {
    /// SVC_GET: virtual service `index` (0..8), `None` when it is not set up.
    pub fn service_get(&mut self, index: u8) -> Result<Option<ServiceInfo>, DriverError> {
        check(index < SERVICES, "SVC_GET", "index", index, "0..8")?;
        let d = self.call_ok(cmd::SVC_GET, &[u32::from(index)], SVC_GET_WORDS)?;
        decode_service(index, &d)
    }

    /// POOL_GET: pool `pool` (0..8), `None` when it is not set up.
    pub fn pool_get(&mut self, pool: u8) -> Result<Option<PoolInfo>, DriverError> {
        check_pool("POOL_GET", "pool", pool)?;
        let d = self.call_ok(cmd::POOL_GET, &[u32::from(pool)], POOL_GET_WORDS)?;
        decode_pool(pool, &d)
    }

    /// SERVER_GET: real server `rs` (0..64) with its counts, `None` when the index holds no
    /// server.
    pub fn server_get(&mut self, rs: u8) -> Result<Option<ServerInfo>, DriverError> {
        check_rs("SERVER_GET", rs)?;
        let d = self.call_ok(cmd::SERVER_GET, &[u32::from(rs)], SERVER_GET_WORDS)?;
        decode_server(rs, &d)
    }

    /// CONFIG_MAP: which services, pools and real servers are set up (one request).
    pub fn config_map(&mut self) -> Result<ConfigMap, DriverError> {
        let d = self.call_ok(cmd::CONFIG_MAP, &[], CONFIG_MAP_WORDS)?;
        ConfigMap::from_words(&d).ok_or_else(|| short_response("CONFIG_MAP", &d))
    }

    /// Every virtual service set up (CONFIG_MAP, then SVC_GET for each).
    pub fn services(&mut self) -> Result<Vec<ServiceInfo>, DriverError> {
        let map = self.config_map()?;
        let mut out = Vec::new();
        for i in map.service_indexes() {
            out.extend(self.service_get(i)?);
        }
        Ok(out)
    }

    /// Every pool set up (CONFIG_MAP, then POOL_GET for each).
    pub fn pools(&mut self) -> Result<Vec<PoolInfo>, DriverError> {
        let map = self.config_map()?;
        let mut out = Vec::new();
        for p in map.pool_indexes() {
            out.extend(self.pool_get(p)?);
        }
        Ok(out)
    }

    /// Every real server set up (CONFIG_MAP, then SERVER_GET for each).
    pub fn servers(&mut self) -> Result<Vec<ServerInfo>, DriverError> {
        let map = self.config_map()?;
        let mut out = Vec::new();
        for rs in map.server_indexes() {
            out.extend(self.server_get(rs)?);
        }
        Ok(out)
    }

    /// TIMEOUT_GET: the timeout of every IPVS TCP state and of the card's LINGER class, in
    /// [`TcpTimeoutState::ALL`] order (12 words).
    pub fn timeouts(&mut self) -> Result<Vec<(TcpTimeoutState, Duration)>, DriverError> {
        let n = TcpTimeoutState::ALL.len();
        let d = self.call_ok(cmd::TIMEOUT_GET, &[], n)?;
        Ok(TcpTimeoutState::ALL
            .into_iter()
            .zip(d)
            .map(|(s, ms)| (s, Duration::from_millis(ms.into())))
            .collect())
    }

    /// ZERO: restarts the flow manager's event counters from 0 (`ipvsadm -Z`): the
    /// FLOW_STATS totals and cycle sums, the cycle profile (FLOW_PROFILE), and each real
    /// server's connections total. Gauges (slots in use, setups pending, active and inactive
    /// connections) are kept.
    pub fn zero_counters(&mut self) -> Result<(), DriverError> {
        self.call_ok(cmd::ZERO, &[], 0).map(drop)
    }

    /// FLOW_LIST: flow slots in use from `cursor` on (at most 15 per call) and the cursor
    /// to continue from (`None` when the scan is done).
    pub fn flow_list_page(&mut self, cursor: u32) -> Result<(Vec<u16>, Option<u32>), DriverError> {
        let d = self.call_ok(cmd::FLOW_LIST, &[cursor], 1)?;
        let next = (d[0] != FLOW_LIST_DONE).then_some(d[0]);
        if let Some(n) = next {
            if n <= cursor {
                return Err(bad_response(
                    "FLOW_LIST",
                    format!("cursor went from {cursor} to {n}"),
                ));
            }
        }
        Ok((d[1..].iter().map(|&s| s as u16).collect(), next))
    }

    /// FLOW_GET: flow `slot`, `None` when the slot is free (the flow ended).
    pub fn flow_get(&mut self, slot: u16) -> Result<Option<FlowInfo>, DriverError> {
        match self.call_ok(cmd::FLOW_GET, &[u32::from(slot)], FLOW_GET_WORDS) {
            Ok(d) => FlowInfo::from_words(slot, &d).map(Some),
            Err(DriverError::MailboxStatus { status: s, .. }) if s == status::NOT_FOUND => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Every connection on the card (`ipvsadm -Lnc`): FLOW_LIST pages, then FLOW_GET for
    /// each slot. A flow that ends between the two is skipped. `progress` gets the number
    /// of flows read so far after each one.
    pub fn flows(&mut self, mut progress: impl FnMut(usize)) -> Result<Vec<FlowInfo>, DriverError> {
        let mut out = Vec::new();
        let mut cursor = Some(0);
        while let Some(c) = cursor {
            let (slots, next) = self.flow_list_page(c)?;
            for slot in slots {
                if let Some(f) = self.flow_get(slot)? {
                    out.push(f);
                    progress(out.len());
                }
            }
            cursor = next;
        }
        Ok(out)
    }

    /// RULESET_INFO: the rule-set record's length, generation, hash and state.
    pub fn ruleset_record_info(&mut self) -> Result<RulesetInfo, DriverError> {
        let d = self.call_ok(cmd::RULESET_INFO, &[], RULESET_INFO_WORDS)?;
        RulesetInfo::from_words(&d)
    }

    /// Stores `record` (at most [`RULESET_RECORD_MAX`] bytes) as the card's rule-set record:
    /// RULESET_PUT from offset 0, then RULESET_COMMIT with its length and FNV-1a hash. The
    /// previous record is gone from the first PUT on.
    pub fn ruleset_record_put(&mut self, record: &[u8]) -> Result<(), DriverError> {
        self.ruleset_record_put_by(record, 0)
    }

    /// [`FlowManager::ruleset_record_put`] with a tag naming who loaded the rules (RULESET_INFO
    /// reports it).
    pub fn ruleset_record_put_by(
        &mut self,
        record: &[u8],
        loaded_by: u32,
    ) -> Result<(), DriverError> {
        check(
            record.len() <= RULESET_RECORD_MAX,
            "RULESET_PUT",
            "record length",
            record.len() as u64,
            "0..=16384 bytes",
        )?;
        for req in ruleset_put_requests(record) {
            self.call_ok(cmd::RULESET_PUT, &req, 0)?;
        }
        self.call_ok(
            cmd::RULESET_COMMIT,
            &[record.len() as u32, record_hash(record), loaded_by],
            0,
        )
        .map(drop)
    }

    /// The card's rule-set record, its hash checked; `None` when none was stored. A record
    /// replaced while it is read is read again (up to three times); while a host is writing
    /// one the firmware answers BUSY ([`DriverError::MailboxStatus`]).
    pub fn ruleset_record_get(&mut self) -> Result<Option<Vec<u8>>, DriverError> {
        const CMD: &str = "RULESET_GET";
        for _ in 0..3 {
            let info = self.ruleset_record_info()?;
            if info.state == RulesetState::Empty {
                return Ok(None);
            }
            let words = (info.len as usize).div_ceil(4);
            let mut data = Vec::with_capacity(words);
            // At least one RULESET_GET: it answers BUSY while a record is being written.
            loop {
                let d = self.call_ok(cmd::RULESET_GET, &[data.len() as u32], 0)?;
                if d.is_empty() {
                    break;
                }
                data.extend(d);
                if data.len() >= words {
                    break;
                }
            }
            let again = self.ruleset_record_info()?;
            if again != info || data.len() != words {
                continue;
            }
            let mut bytes: Vec<u8> = data.iter().flat_map(|w| w.to_le_bytes()).collect();
            bytes.truncate(info.len as usize);
            if record_hash(&bytes) != info.hash {
                return Err(bad_response(
                    CMD,
                    format!(
                        "record hash {:#010x}, expected {:#010x}",
                        record_hash(&bytes),
                        info.hash
                    ),
                ));
            }
            return Ok(Some(bytes));
        }
        Err(bad_response(
            CMD,
            "the record kept changing while it was read",
        ))
    }

    /// CAPTURE_SET: copy every punted frame (both ports) into the card's capture ring, at
    /// most `snaplen` bytes of each (0 = whole frames, up to 65535), or stop.
    pub fn capture_set(&mut self, enable: bool, snaplen: u32) -> Result<(), DriverError> {
        check(
            snaplen <= MAX_SNAPLEN,
            "CAPTURE_SET",
            "snaplen",
            snaplen,
            "0..=65535",
        )?;
        self.call_ok(cmd::CAPTURE_SET, &[u32::from(enable), snaplen], 0)
            .map(drop)
    }

    /// CAPTURE_INFO: the capture ring's place and positions, checked against the DMEM
    /// window.
    pub fn capture_info(&mut self) -> Result<CaptureInfo, DriverError> {
        const CMD: &str = "CAPTURE_INFO";
        let d = self.call_ok(cmd::CAPTURE_INFO, &[], CAPTURE_INFO_WORDS)?;
        let i = CaptureInfo::from_words(&d).ok_or_else(|| short_response(CMD, &d))?;
        let in_dmem = i.addr >= DMEM_BASE
            && u64::from(i.addr - DMEM_BASE) + u64::from(i.size)
                <= u64::from(self.card.info.dmem_size);
        if !in_dmem || !i.size.is_power_of_two() || i.size < 4 || i.addr % 4 != 0 {
            return Err(bad_response(
                CMD,
                format!(
                    "ring at {:#x}, {} bytes, is not a power-of-two word range in DMEM",
                    i.addr, i.size
                ),
            ));
        }
        Ok(i)
    }

    /// A capture cursor at the current write position: [`FlowManager::capture_read`] returns the
    /// frames captured from now on.
    pub fn capture_reader(&mut self) -> Result<CaptureCursor, DriverError> {
        let i = self.capture_info()?;
        Ok(CaptureCursor {
            pos: i.write_pos,
            record: i.captured,
            lost: 0,
        })
    }

    /// Reads `len` bytes of the capture ring from position `pos` through the DMEM window.
    fn capture_bytes(
        &mut self,
        i: &CaptureInfo,
        pos: u32,
        len: u32,
    ) -> Result<Vec<u8>, DriverError> {
        let mut words = vec![0u32; len as usize / 4];
        let start = pos % i.size;
        let first = (i.size - start).min(len) as usize / 4;
        let base = self.card.info.dmem_window + u64::from(i.addr - DMEM_BASE);
        self.card
            .bar
            .read_block(base + u64::from(start), &mut words[..first])?;
        if first < words.len() {
            self.card.bar.read_block(base, &mut words[first..])?;
        }
        Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
    }

    /// The frames captured since `cursor`, oldest first, read from the ring through the DMEM
    /// window (CAPTURE_INFO before and after the read). Frames the firmware overwrote before
    /// they were read are counted in `cursor.lost` and skipped.
    pub fn capture_read(
        &mut self,
        cursor: &mut CaptureCursor,
    ) -> Result<Vec<CapturedFrame>, DriverError> {
        let first = self.capture_info()?;
        // The writer lapped the reader: skip to the oldest whole record.
        let skip_to = |c: &mut CaptureCursor, i: &CaptureInfo| {
            if before(c.pos, i.tail) {
                c.lost += u64::from(i.overwritten.wrapping_sub(c.record));
                c.pos = i.tail;
                c.record = i.overwritten;
            }
        };
        if before(first.write_pos, cursor.pos) {
            // Ahead of the writer: the firmware restarted (positions start at 0 again).
            cursor.pos = first.tail;
            cursor.record = first.overwritten;
        }
        skip_to(cursor, &first);
        let from = cursor.pos;
        let end = first.write_pos;
        if !before(from, end) {
            return Ok(Vec::new());
        }
        let bytes = self.capture_bytes(&first, from, end.wrapping_sub(from))?;
        // Records the writer overwrote while the host read them are lost too.
        let second = self.capture_info()?;
        skip_to(cursor, &second);
        if !before(cursor.pos, end) {
            return Ok(Vec::new());
        }
        match parse_records(&bytes, from, cursor.pos, end) {
            Some((frames, pos)) => {
                cursor.pos = pos;
                cursor.record = cursor.record.wrapping_add(frames.len() as u32);
                Ok(frames)
            }
            None => {
                // Not expected (the firmware answers only between records): resynchronise.
                cursor.lost += u64::from(second.captured.wrapping_sub(cursor.record));
                cursor.pos = second.write_pos;
                cursor.record = second.captured;
                Ok(Vec::new())
            }
        }
    }
}

/// A response shorter than the decoder needs (`call_ok` already checks the length, so this
/// is a guard only).
pub(super) fn short_response(cmd: &str, d: &[u32]) -> DriverError {
    DriverError::MailboxResponse {
        cmd: cmd.into(),
        reason: format!("{} data words are too few", d.len()),
    }
}

/// The TCP state with IPVS name `name` (`ESTABLISHED`, `syn_recv`, ...; case-insensitive).
pub fn tcp_timeout_state_from_name(name: &str) -> Option<TcpTimeoutState> {
    TcpTimeoutState::ALL
        .into_iter()
        .find(|s| s.name().eq_ignore_ascii_case(name))
}
