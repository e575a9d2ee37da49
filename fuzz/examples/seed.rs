//! Builds the seed corpora from `samples/` and the README; run by `fuzz/seed.sh`.
//!
//! `decode`: every sample shrunk to at most 320 px on its longest side, re-encoded as PNG,
//! JPEG, WebP (lossless), BMP and GIF. `pipeline`: a blank 32-byte damage header followed by
//! each sample shrunk to at most 640 px (PNG), big enough for the grid to be read.
//! `text`: the samples' ground truth and the first lines of every `../shared/data/puzzles`
//! file are written by the shell script, not here.

use std::fs;
use std::io::Cursor;
use std::path::PathBuf;

use image::{imageops::FilterType, DynamicImage, ImageFormat};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(samples), Some(corpus)) = (args.next(), args.next()) else {
        return Err("usage: seed SAMPLES_DIR CORPUS_DIR".into());
    };
    let (decode_dir, pipeline_dir) = (corpus.join("decode"), corpus.join("pipeline"));
    fs::create_dir_all(&decode_dir)?;
    fs::create_dir_all(&pipeline_dir)?;
    let mut entries: Vec<PathBuf> = fs::read_dir(&samples)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        let Ok(format) = ImageFormat::from_path(&path) else {
            continue;
        };
        let image = image::open(&path)?;
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("sample");
        let small = shrink(&image, 320);
        for (ext, format) in [
            ("png", ImageFormat::Png),
            ("jpg", ImageFormat::Jpeg),
            ("webp", ImageFormat::WebP),
            ("bmp", ImageFormat::Bmp),
            ("gif", ImageFormat::Gif),
        ] {
            let img = if format == ImageFormat::Jpeg || format == ImageFormat::Bmp {
                DynamicImage::ImageRgb8(small.to_rgb8())
            } else {
                small.clone()
            };
            fs::write(
                decode_dir.join(format!("{stem}.{ext}")),
                encode(&img, format)?,
            )?;
        }
        let mut seed = vec![0u8; 32];
        seed.extend(encode(&shrink(&image, 640), ImageFormat::Png)?);
        fs::write(pipeline_dir.join(format!("{stem}.bin")), seed)?;
        println!("{} ({format:?})", path.display());
    }
    Ok(())
}

fn shrink(image: &DynamicImage, longest: u32) -> DynamicImage {
    if image.width().max(image.height()) <= longest {
        return image.clone();
    }
    image.resize(longest, longest, FilterType::Triangle)
}

fn encode(image: &DynamicImage, format: ImageFormat) -> Result<Vec<u8>, image::ImageError> {
    let mut bytes = Cursor::new(Vec::new());
    image.write_to(&mut bytes, format)?;
    Ok(bytes.into_inner())
}
