//! Embeds the glyph templates of `templates/<font>/<digit>.png` into the binary, so the tool
//! reads screenshots from any working directory.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read at run time: a build script compiled for another checkout must not look there.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("templates");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut fonts: Vec<_> = std::fs::read_dir(&root)
        .map(|dir| {
            dir.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    fonts.sort();
    let mut code = String::from("/// Bundled templates: (font, digit, PNG bytes).\npub static BUNDLED: &[(&str, u8, &[u8])] = &[\n");
    for font in &fonts {
        println!("cargo:rerun-if-changed={}", font.display());
        let name = font.file_name().unwrap().to_string_lossy();
        for digit in 1..=9 {
            let file = font.join(format!("{digit}.png"));
            if file.is_file() {
                writeln!(
                    code,
                    "    ({name:?}, {digit}, include_bytes!({:?})),",
                    file.display().to_string()
                )
                .unwrap();
            }
        }
    }
    code.push_str("];\n");
    assert!(
        code.contains("include_bytes!"),
        "no glyph templates found in {}: the recognizer needs templates/<font>/<digit>.png",
        root.display()
    );
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("templates.rs");
    std::fs::write(out, code).unwrap();
}
