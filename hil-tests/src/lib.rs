//! SpliceNIC rigs: the simulated rig (default) and, later, lab rigs described by a rig file.
