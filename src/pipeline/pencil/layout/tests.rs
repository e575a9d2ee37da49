use super::*;
use image::GrayImage;

/// A mark 0.2 of the cell tall and 0.12 wide centred at (x, y), fractions of the cell.
fn mark(x: f32, y: f32) -> Mark {
    Mark {
        centre: (x, y),
        bounds: [x - 0.06, y - 0.1, x + 0.06, y + 0.1],
        ink: GrayImage::new(6, 10),
        pixels: 20.0,
    }
}

fn digits(ds: &[u8]) -> Vec<Digit> {
    ds.iter().map(|&d| Digit::new(d).unwrap()).collect()
}

/// Digit d's place in the 3x3 layout, as apps draw it: the middle of its ninth, or nearer the
/// cell's middle (the screenshot benchmark puts the outer marks at 0.2 and 0.8).
fn place(d: u8, outer: f32) -> (f32, f32) {
    let at = |k: u8| [outer, 0.5, 1.0 - outer][k as usize];
    (at((d - 1) % 3), at((d - 1) / 3))
}

#[test]
fn a_marks_place_in_the_3x3_layout_says_its_digit() {
    for outer in [1.0 / 6.0, 0.2, 0.23] {
        for d in 1..=9 {
            let (x, y) = place(d, outer);
            assert_eq!(
                grid_places(&[mark(x, y)]),
                Some(digits(&[d])),
                "{d} at {outer}"
            );
        }
        let marks: Vec<Mark> = [1, 5, 6, 9]
            .iter()
            .map(|&d| {
                let (x, y) = place(d, outer);
                mark(x, y)
            })
            .collect();
        assert_eq!(grid_places(&marks), Some(digits(&[1, 5, 6, 9])));
    }
}

#[test]
fn a_mark_between_two_ninths_or_two_in_one_are_no_3x3_layout() {
    // Halfway between the places of 1 and 2: the place does not say which.
    assert_eq!(grid_places(&[mark(1.0 / 3.0, 0.2)]), None);
    // Two marks in the ninth of 5: a row of marks written across the middle.
    assert_eq!(grid_places(&[mark(0.45, 0.5), mark(0.56, 0.5)]), None);
    // 4 and 6 in one row of ninths, but at different heights.
    assert_eq!(grid_places(&[mark(0.2, 0.45), mark(0.8, 0.56)]), None);
}

#[test]
fn a_row_of_marks_is_told_from_a_3x3_layout() {
    // "2569" across the middle, as apps write candidates in a row.
    let row: Vec<Mark> = [0.29, 0.43, 0.57, 0.71]
        .iter()
        .map(|&x| mark(x, 0.5))
        .collect();
    assert!(is_row(&row));
    assert_eq!(grid_places(&row), None);
    // 1, 5 and 9 on the diagonal of a 3x3 layout are no row.
    let diagonal: Vec<Mark> = [1, 5, 9]
        .iter()
        .map(|&d| {
            let (x, y) = place(d, 0.2);
            mark(x, y)
        })
        .collect();
    assert!(!is_row(&diagonal));
    let cells = [row.as_slice(), diagonal.as_slice(), diagonal.as_slice()];
    assert_eq!(picture_layout(cells.into_iter()), Some(Layout::Grid));
}
