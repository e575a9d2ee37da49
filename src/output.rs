//! How the tool writes files: which paths it may write (never an input of the run, never a
//! folder, device, FIFO or socket; see [`check_output`]), and the atomic writes that put a
//! whole file there or nothing (a temporary file beside it, renamed into place).

pub use crate::pipeline::encode::{
    check_folder, check_not_input, check_output, check_picture_target, check_suffix, format_for,
    remove_stale_temps, remove_stale_temps_beside, remove_stale_temps_in, temp_file_in,
    write_atomic, write_atomic_to, write_bytes_atomic, write_bytes_atomic_to, Inputs,
};
