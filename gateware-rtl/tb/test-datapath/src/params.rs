/// Flow-table buckets of the test bench's data path (parameter FLOW_BUCKETS; a small table
/// keeps the reset sweep short).
pub const FLOW_BUCKETS: u32 = 1024;
/// Ways per bucket (parameter FLOW_WAYS).
pub const FLOW_WAYS: u32 = 4;
/// Flow slots (parameter FLOW_SLOTS).
pub const FLOW_SLOTS: u32 = 4096;
