//! Per-stage times of the image pipeline on a phone-sized screenshot (1170x2532), against
//! decode + encode of the same image measured in the same run: the work beyond decoding and
//! encoding should cost less than those two together.
//!
//! `cargo bench --bench pipeline` (criterion; results in target/criterion).

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use image::ImageFormat;
use sudoku_snap::budget::Budget;
use sudoku_snap::stages;
use sudoku_snap::{Options, Snap};

const PHONE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/phone-1170x2532.png");

fn stages(c: &mut Criterion) {
    let path = Path::new(PHONE);
    let bytes = std::fs::read(path).expect("samples/phone-1170x2532.png");
    let picture = stages::decode_bytes(&bytes, path, u64::MAX).unwrap();
    let image = picture.rgb().clone();
    assert_eq!(image.dimensions(), (1170, 2532));
    let snap = Snap::new(Options::default()).unwrap();
    let reading = snap.read(&image, path).unwrap();
    let solved = stages::solve_reading(
        &reading.givens,
        &reading.evidence,
        &reading.rivals,
        2,
        &Budget::unlimited(),
    );
    let solution = match solved.verdict {
        Ok(sudoku_snap::puzzle::solve::Verdict::Unique(s)) => s,
        other => panic!("the phone sample must solve: {other:?}"),
    };
    let located = stages::locate(&image).ok().unwrap();
    let rectified = stages::rectify(&image, &located.quad).unwrap();

    let mut g = c.benchmark_group("phone-1170x2532");
    g.sample_size(20);
    g.bench_function("decode", |b| {
        b.iter(|| stages::decode_bytes(black_box(&bytes), path, u64::MAX).unwrap())
    });
    g.bench_function("encode-png", |b| {
        b.iter(|| stages::encode(black_box(&picture), ImageFormat::Png, 90).unwrap())
    });
    g.bench_function("reference: decode+encode", |b| {
        b.iter(|| {
            let img = stages::decode_bytes(black_box(&bytes), path, u64::MAX).unwrap();
            stages::encode(&img, ImageFormat::Png, 90).unwrap()
        })
    });
    g.bench_function("locate", |b| {
        b.iter(|| stages::locate(black_box(&image)).ok().unwrap())
    });
    g.bench_function("rectify", |b| {
        b.iter(|| stages::rectify(black_box(&image), &located.quad).unwrap())
    });
    g.bench_function("cells", |b| {
        b.iter(|| {
            let mut cells = stages::slice(black_box(&rectified), &image);
            stages::tell_authors(&mut cells);
            cells
        })
    });
    g.bench_function("read (locate+rectify+cells+recognize)", |b| {
        b.iter(|| snap.read(black_box(&image), path).unwrap())
    });
    g.bench_function("solve", |b| {
        b.iter(|| {
            stages::solve_read(
                black_box(&reading.givens),
                &reading.evidence,
                2,
                &Budget::unlimited(),
            )
        })
    });
    g.bench_function("render", |b| {
        b.iter_batched(
            || image.clone(),
            |mut img| {
                stages::draw_answer(
                    &mut img,
                    &reading.rectified,
                    &reading.cells,
                    &solution,
                    None,
                )
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.bench_function("pipeline beyond decode+encode", |b| {
        b.iter_batched(
            || image.clone(),
            |mut img| {
                let r = snap.read(&img, path).unwrap();
                let s = stages::solve_read(&r.givens, &r.evidence, 2, &Budget::unlimited());
                let Ok(sudoku_snap::puzzle::solve::Verdict::Unique(sol)) = s.verdict else {
                    panic!()
                };
                stages::draw_answer(&mut img, &r.rectified, &r.cells, &sol, None)
            },
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, stages);
criterion_main!(benches);
