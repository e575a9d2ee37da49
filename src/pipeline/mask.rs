//! Binary masks of ink, shared by the stages that split a cell's ink into pieces
//! ([`cells`](super::cells) for digits, [`pencil`](super::pencil) for marks).

/// A box (x0, y0, x1, y1), inclusive, in mask pixels.
pub(crate) type Box4 = (u32, u32, u32, u32);

/// The 8-connected components of `mask` (`w` x `h`, row-major), in scan order: each one's box
/// and how many of its pixels lie in the rectangle `inner` (x0, y0, x1, y1, exclusive ends).
pub(crate) fn components(mask: &[bool], w: u32, h: u32, inner: Box4) -> Vec<(Box4, usize)> {
    let mut seen = vec![false; mask.len()];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (sx, sy) = (start as u32 % w, start as u32 / w);
        let mut b = (sx, sy, sx, sy);
        let mut within = 0;
        while let Some(i) = stack.pop() {
            let (x, y) = (i as u32 % w, i as u32 / w);
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            within += usize::from(x >= inner.0 && x < inner.2 && y >= inner.1 && y < inner.3);
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let j = (ny * w + nx) as usize;
                    if mask[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        out.push((b, within));
    }
    out
}

/// Each pixel's 8-connected component of `mask` (`w` x `h`, row-major), numbered from 0 in
/// scan order like [`components`]; `u32::MAX` off the mask.
pub(crate) fn component_labels(mask: &[bool], w: u32, h: u32) -> Vec<u32> {
    let mut labels = vec![u32::MAX; mask.len()];
    let mut stack = Vec::new();
    let mut next = 0;
    for start in 0..mask.len() {
        if !mask[start] || labels[start] != u32::MAX {
            continue;
        }
        labels[start] = next;
        stack.push(start);
        while let Some(i) = stack.pop() {
            let (x, y) = (i as u32 % w, i as u32 / w);
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let j = (ny * w + nx) as usize;
                    if mask[j] && labels[j] == u32::MAX {
                        labels[j] = next;
                        stack.push(j);
                    }
                }
            }
        }
        next += 1;
    }
    labels
}

/// The boxes of the 8-connected components of `mask`, in scan order.
pub(crate) fn component_boxes(mask: &[bool], w: u32, h: u32) -> Vec<Box4> {
    components(mask, w, h, (0, 0, 0, 0))
        .into_iter()
        .map(|(b, _)| b)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_neighbours_join_and_apart_pieces_do_not() {
        #[rustfmt::skip]
        let mask = [
            true,  false, false, true,
            false, true,  false, false,
            false, false, false, true,
        ];
        let pieces = components(&mask, 4, 3, (0, 0, 2, 2));
        assert_eq!(
            pieces,
            vec![((0, 0, 1, 1), 2), ((3, 0, 3, 0), 0), ((3, 2, 3, 2), 0)]
        );
    }
}
