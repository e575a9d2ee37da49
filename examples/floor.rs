//! The floor of "picture in, picture out": decode a picture and encode it again with the same
//! `image` crate and features the tool uses, nothing else. `benches/whole.sh` times the tool
//! against this program, each as a whole process.
//!
//!     cargo run --release --example floor -- IN OUT
//!
//! OUT's extension picks the format, as the tool's `-o` does.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: floor IN OUT");
        return ExitCode::from(2);
    };
    let result = image::open(input).and_then(|picture| picture.save(output));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("floor: {input}: {e}");
            ExitCode::FAILURE
        }
    }
}
