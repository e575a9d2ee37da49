//! Turns the glyph templates of `templates/<font>/<digit>.png` and the handwritten ones of
//! `templates/handwritten/<set>/<digit>.png` into comparison features at build time (with the
//! crate's own `frame` code), so the tool reads screenshots from any working directory and
//! decodes no template when it starts: `OUT_DIR/templates.rs` holds each template's digit and
//! its norms when blurred (see `frame::blurred_norm`), and includes `OUT_DIR/features.bin`,
//! the features as f32 in the target's byte order, the handwritten ones first.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "src/pipeline/cells/frame.rs"]
#[allow(dead_code)]
mod frame;

#[path = "src/pipeline/recognize/template_files.rs"]
mod template_files;

fn main() {
    // Read at run time: a build script compiled for another checkout must not look there.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("templates");
    println!("cargo:rerun-if-changed={}", root.display());
    println!("cargo:rerun-if-changed=src/pipeline/cells/frame.rs");
    println!("cargo:rerun-if-changed=src/pipeline/recognize/template_files.rs");
    let hand = Templates::of(&sets_in(&root.join(HANDWRITTEN)));
    let print = Templates::of(&sets_in(&root));
    assert!(
        !print.digits.is_empty(),
        "no glyph templates found in {}: the recognizer needs templates/<font>/<digit>.png",
        root.display()
    );
    let features = [hand.features, print.features].concat();
    let digits = [hand.digits.clone(), print.digits].concat();
    let norms = [hand.norms, print.norms].concat();
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("features.bin"), &features).expect("OUT_DIR is writable");
    let mut code = String::from("/// Each bundled template's digit, in the order of `FEATURES`.\n");
    writeln!(code, "pub static DIGITS: &[u8] = &{digits:?};").expect("a String");
    code.push_str(
        "/// How many of the first templates are handwritten (matched for entries only).\n",
    );
    writeln!(
        code,
        "pub static HANDWRITTEN: usize = {};",
        hand.digits.len()
    )
    .expect("a String");
    code.push_str(
        "/// The bundled templates' features, f32 in the target's byte order, one frame each.\n",
    );
    code.push_str(
        "pub static FEATURES: &Aligned<[u8]> = \
         &Aligned(*include_bytes!(concat!(env!(\"OUT_DIR\"), \"/features.bin\")));\n",
    );
    code.push_str(
        "/// Each bundled template's `frame::blurred_norm` at each of `frame::BLUR_LEVELS`.\n",
    );
    writeln!(
        code,
        "pub static BLUR_NORMS: &[[f32; {}]] = &{norms:?};",
        norms[0].len()
    )
    .expect("a String");
    std::fs::write(out.join("templates.rs"), code).expect("OUT_DIR is writable");
}

/// The folder under `templates/` holding handwritten sets, matched for a player's entries only.
const HANDWRITTEN: &str = "handwritten";

/// The template sets (one folder each) directly in `dir`, sorted; none when it is missing.
fn sets_in(dir: &Path) -> Vec<PathBuf> {
    let mut sets: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|dir| {
            dir.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir() && !p.ends_with(HANDWRITTEN))
                .collect()
        })
        .unwrap_or_default();
    sets.sort();
    sets
}

/// Templates made into features: each one's digit, feature bytes and blurred norms.
struct Templates {
    digits: Vec<u8>,
    features: Vec<u8>,
    norms: Vec<[f32; frame::BLUR_LEVELS.len()]>,
}

impl Templates {
    fn of(sets: &[PathBuf]) -> Templates {
        let mut out = Templates {
            digits: Vec::new(),
            features: Vec::new(),
            norms: Vec::new(),
        };
        for set in sets {
            println!("cargo:rerun-if-changed={}", set.display());
            let files =
                template_files::in_set(set).unwrap_or_else(|e| panic!("{}: {e}", set.display()));
            for (file, digit) in files {
                let (ink, w, h) = ink_of(&file);
                let (ink, w, h) = frame::trim(&ink, w, h);
                let feature = frame::fit(&ink, w, h);
                out.features
                    .extend(feature.iter().flat_map(|&v| target_bytes(v)));
                out.norms
                    .push(frame::BLUR_LEVELS.map(|sigma| frame::blurred_norm(&feature, sigma)));
                out.digits.push(digit);
            }
        }
        out
    }
}

/// `v`'s bytes in the byte order of the target being built (which the build script, run on the
/// host, may not share), so the tool reads the features in place.
fn target_bytes(v: f32) -> [u8; 4] {
    match std::env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() {
        Ok("big") => v.to_be_bytes(),
        _ => v.to_le_bytes(),
    }
}

/// A template's pixels as ink (255 = ink): the PNG is 8-bit grey, a dark glyph on white.
fn ink_of(file: &Path) -> (Vec<u8>, u32, u32) {
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder
        .read_info()
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let info = reader.info();
    assert!(
        info.color_type == png::ColorType::Grayscale && info.bit_depth == png::BitDepth::Eight,
        "{}: templates must be 8-bit greyscale PNGs (see templates/README.md)",
        file.display()
    );
    let (w, h) = (info.width, info.height);
    let mut buf = vec![0u8; reader.output_buffer_size().expect("a small template")];
    let frame = reader
        .next_frame(&mut buf)
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    buf.truncate(frame.buffer_size());
    // Rows may be padded past the width: keep `w` samples of each line.
    let ink = buf
        .chunks_exact(frame.line_size)
        .flat_map(|row| row[..w as usize].iter().map(|&v| 255 - v))
        .collect();
    (ink, w, h)
}
