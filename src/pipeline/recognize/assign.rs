//! Digits for the shape groups: the joint assignment that gives each group a digit, no two
//! groups that share a house one digit, with the most score in all (a bounded branch and
//! bound), and the other assignments nearly as good, the alternatives correction may try.

use crate::budget::Budget;
use crate::pipeline::tuning;

/// Another assignment: the glyphs it changes with their digit (0-8) there, and the score it
/// loses per group changed.
pub type Alternative = (Vec<(usize, usize)>, f32);

/// The digits picked for the shape groups, with what they were picked from.
pub(super) struct Assignment<'a> {
    pub(super) groups: &'a [Vec<usize>],
    pub(super) scores: &'a [[f32; 9]],
    pub(super) clash: &'a [Vec<bool>],
    pub(super) picked: &'a [usize],
    pub(super) budget: &'a Budget,
}

impl Assignment<'_> {
    /// Assignments other than this one, with their loss per group changed, least first: a
    /// group taking a digit no clashing group holds or two groups swapping their digits (as
    /// rivals), and any reassignment (a cycle of three groups, say) found by forcing one group
    /// to another digit and assigning the rest anew, within `tuning::FAR`.
    pub(super) fn alternatives(&self) -> Vec<Alternative> {
        let mut out = self.simple_rivals();
        for (changes, loss) in self.forced() {
            if !out.iter().any(|(c, _)| *c == changes) {
                out.push((changes, loss));
            }
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1));
        out
    }

    /// The total score of an assignment, each group counted once (see [`assign`]).
    fn weight(&self, scores: &[[f32; 9]], assignment: &[usize]) -> f32 {
        (0..self.groups.len())
            .map(|g| scores[g][assignment[g]])
            .sum()
    }

    /// The reassignments found by forcing each group in turn to each digit it scores within
    /// `tuning::FAR` of its own, then assigning all groups anew.
    ///
    /// Each forced search looks only for assignments above `floor`: one losing more than
    /// `tuning::FAR` for every group there is loses more than that per group changed
    /// whatever it changes, and would be dropped; the search then prunes what cannot beat the
    /// floor from its first step, instead of searching as widely as the first assignment did.
    /// It starts from the best assignment already known with that digit (see [`Self::start`])
    /// when that beats its greedy start.
    fn forced(&self) -> Vec<Alternative> {
        let (groups, scores, picked) = (self.groups, self.scores, self.picked);
        let best = self.weight(scores, picked);
        // A hair below, so rounding in the search's sums never drops a reading kept before.
        let floor = best - tuning::FAR * groups.len() as f32 - FLOOR_SLACK;
        let mut out: Vec<Alternative> = Vec::new();
        // Every assignment the rules allow found so far, the one picked first.
        let mut known: Vec<Vec<usize>> = vec![picked.to_vec()];
        for g in 0..groups.len() {
            for d in (0..9).filter(|&d| d != picked[g]) {
                if scores[g][picked[g]] - scores[g][d] > tuning::FAR {
                    continue;
                }
                if self.budget.is_stopped() {
                    return out;
                }
                let mut forced = scores.to_vec();
                (0..9)
                    .filter(|&e| e != d)
                    .for_each(|e| forced[g][e] = f32::MIN / 1e6);
                let setup = Forced {
                    group: g,
                    floor,
                    start: self.start(&known, g, d),
                };
                let other = assign(groups, &forced, self.clash, Some(setup), self.budget);
                if other[g] != d {
                    continue;
                }
                if allowed(&other, self.clash) && !known.contains(&other) {
                    known.push(other.clone());
                }
                let changed: Vec<usize> = (0..groups.len())
                    .filter(|&h| other[h] != picked[h])
                    .collect();
                let loss = (best - self.weight(scores, &other)) / changed.len().max(1) as f32;
                if loss <= tuning::FAR {
                    let rival: Vec<(usize, usize)> = changed
                        .iter()
                        .flat_map(|&h| {
                            let digit = other[h];
                            groups[h].iter().map(move |&i| (i, digit))
                        })
                        .collect();
                    if !out.iter().any(|(c, _)| *c == rival) {
                        out.push((rival, loss));
                    }
                }
            }
        }
        out
    }

    /// Of the assignments `known` (each allowed by the rules) and the one picked with group
    /// `g` swapping digits with the one group near it that holds `d`, the best that gives `g`
    /// digit `d` and that the rules allow.
    pub(super) fn start(&self, known: &[Vec<usize>], g: usize, d: usize) -> Option<Vec<usize>> {
        let (picked, clash) = (self.picked, self.clash);
        let holders: Vec<usize> = (0..picked.len())
            .filter(|&h| h != g && clash[g][h] && picked[h] == d)
            .collect();
        let mut swapped = picked.to_vec();
        swapped[g] = d;
        if let [h] = holders[..] {
            swapped[h] = picked[g];
        }
        let swapped = allowed(&swapped, clash).then_some(swapped);
        (known.iter().filter(|a| a[g] == d).cloned())
            .chain(swapped)
            .max_by(|a, b| {
                self.weight(self.scores, a)
                    .total_cmp(&self.weight(self.scores, b))
            })
    }

    /// A group taking a digit no clashing group holds, or two groups swapping their digits,
    /// within `tuning::NEAR` per group, with that loss.
    fn simple_rivals(&self) -> Vec<Alternative> {
        let (groups, scores, clash, picked) = (self.groups, self.scores, self.clash, self.picked);
        let loss = |g: usize, d: usize| scores[g][picked[g]] - scores[g][d];
        let relabel = |g: usize, d: usize| groups[g].iter().map(move |&i| (i, d));
        let mut out = Vec::new();
        for g in 0..groups.len() {
            for d in (0..9).filter(|&d| d != picked[g]) {
                let holder = (0..groups.len()).find(|&h| h != g && picked[h] == d && clash[g][h]);
                match holder {
                    None if loss(g, d) <= tuning::NEAR => {
                        out.push((relabel(g, d).collect(), loss(g, d)))
                    }
                    Some(h) if h > g => {
                        let swap_loss = (loss(g, d) + loss(h, picked[g])) / 2.0;
                        let free = (0..groups.len())
                            .all(|k| k == g || k == h || !clash[h][k] || picked[k] != picked[g]);
                        if swap_loss <= tuning::NEAR && free {
                            let changes = relabel(g, d).chain(relabel(h, picked[g])).collect();
                            out.push((changes, swap_loss));
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

/// How far below the least total a forced alternative may keep its search starts (see
/// [`Assignment::forced`]): far above an `f32` sum's rounding over 81 glyphs' scores, far
/// below any score margin the calibration uses.
const FLOOR_SLACK: f32 = 1e-3;

/// Each group's digit (0-8): the assignment with the highest total of the groups' mean scores
/// in which clashing groups differ, by branch and bound, largest groups first. The bound
/// gives each group still open its best digit that no clashing group holds yet: a photo's
/// twenty-odd single-glyph groups then take hundreds of steps, where the best digit of each
/// regardless took the whole budget (image159: recognition 236 -> 24 ms, the same reading).
///
/// Each group counts once, however many glyphs it has. A template that half-matches every
/// blurred glyph (a `1` is any upright blob) would otherwise go to the largest group that
/// half-matches it: a photo's five 3s scoring 0.80 as `1` outweighed its two 1s scoring 0.82.
/// Counted once, each digit goes to the group most like it (photos: 128 -> 132 exact, the
/// five of one newspaper among them; tune seeds 1-5: +1 exact, +4 solved).
///
/// With `forced` (a group whose scores leave it one digit, and a floor), that group is given
/// its digit first, so the bound of every group it clashes with leaves that digit out from
/// the start; the search starts from `forced.start` when that beats the greedy assignment;
/// and only assignments whose total beats the floor are searched for (when none does, the
/// start comes back). Forced last, by size, a group's digit was still
/// counted free for its neighbours all the way down the tree, and proving the forced best
/// took a photo tens of thousands of steps where it now takes tens.
///
/// Each node spends a step of `budget`; when it runs out, the best found so far comes back,
/// and `budget` says it was cut short.
pub(super) fn assign(
    groups: &[Vec<usize>],
    scores: &[[f32; 9]],
    clash: &[Vec<bool>],
    forced: Option<Forced>,
    budget: &Budget,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| std::cmp::Reverse(groups[g].len()));
    let floor = forced.as_ref().map_or(f32::MIN, |f| f.floor);
    if let Some(first) = forced.as_ref().map(|f| f.group) {
        order.retain(|&g| g != first);
        order.insert(0, first);
    }
    let weight = |g: usize, d: usize| scores[g][d];
    let neighbours: Vec<Vec<usize>> = (0..groups.len())
        .map(|g| {
            (0..groups.len())
                .filter(|&h| h != g && clash[g][h])
                .collect()
        })
        .collect();
    let mut search = Search {
        order: &order,
        neighbours: &neighbours,
        weight: &weight,
        current: vec![usize::MAX; groups.len()],
        held_nearby: vec![[0; 9]; groups.len()],
        best_free: (0..groups.len())
            .map(|g| (0..9).map(|d| weight(g, d)).max_by(f32::total_cmp))
            .collect(),
        best: greedy(&order, clash, &weight),
        best_total: f32::MIN,
        budget,
    };
    search.best_total = total(&search.best, &weight);
    if let Some(start) = forced.and_then(|f| f.start) {
        let start_total = total(&start, &weight);
        if start_total > search.best_total {
            search.best = start;
            search.best_total = start_total;
        }
    }
    search.best_total = search.best_total.max(floor);
    search.run(0, 0.0);
    search.best
}

/// Whether no two clashing groups hold one digit in `assignment`.
pub(super) fn allowed(assignment: &[usize], clash: &[Vec<bool>]) -> bool {
    (0..assignment.len())
        .all(|g| (g + 1..assignment.len()).all(|h| !clash[g][h] || assignment[g] != assignment[h]))
}

/// How [`assign`] searches when one group is forced to one digit (see
/// [`Assignment::forced`]).
pub(super) struct Forced {
    /// The group whose scores leave it one digit.
    pub(super) group: usize,
    /// Only assignments totalling more than this are looked for.
    pub(super) floor: f32,
    /// An assignment the rules allow that gives the group its digit, to start from when it
    /// beats the greedy one.
    pub(super) start: Option<Vec<usize>>,
}

/// Largest groups first, each taking its best digit that no clashing group holds yet.
fn greedy(
    order: &[usize],
    clash: &[Vec<bool>],
    weight: &impl Fn(usize, usize) -> f32,
) -> Vec<usize> {
    let mut picked = vec![usize::MAX; order.len()];
    for &g in order {
        let free = (0..9).filter(|&d| (0..order.len()).all(|h| !clash[g][h] || picked[h] != d));
        let digit = free.max_by(|&a, &b| weight(g, a).total_cmp(&weight(g, b)));
        // More clashing groups than digits: keep the group's own best digit.
        picked[g] = digit.unwrap_or_else(|| {
            (0..9)
                .max_by(|&a, &b| weight(g, a).total_cmp(&weight(g, b)))
                .unwrap_or(0)
        });
    }
    picked
}

pub(super) fn total(picked: &[usize], weight: &impl Fn(usize, usize) -> f32) -> f32 {
    picked.iter().enumerate().map(|(g, &d)| weight(g, d)).sum()
}

/// The branch-and-bound state of [`assign`].
struct Search<'a, W: Fn(usize, usize) -> f32> {
    pub(super) order: &'a [usize],
    /// Per group, the groups it clashes with.
    pub(super) neighbours: &'a [Vec<usize>],
    pub(super) weight: &'a W,
    pub(super) current: Vec<usize>,
    /// Per group and digit, how many of its neighbours hold that digit now.
    pub(super) held_nearby: Vec<[u8; 9]>,
    /// Per group, the best weight of a digit none of its neighbours holds now (`None`: every
    /// digit is held nearby). Kept up to date as digits are held, so that the bound, taken
    /// at every node, costs one sum over the open groups instead of nine looks at each.
    pub(super) best_free: Vec<Option<f32>>,
    pub(super) best: Vec<usize>,
    pub(super) best_total: f32,
    pub(super) budget: &'a Budget,
}

impl<W: Fn(usize, usize) -> f32> Search<'_, W> {
    fn run(&mut self, k: usize, so_far: f32) {
        if !self.budget.spend(1) {
            return;
        }
        if !self
            .bound(k)
            .is_some_and(|bound| so_far + bound > self.best_total)
        {
            return;
        }
        let Some(&g) = self.order.get(k) else {
            self.best_total = so_far;
            self.best.clone_from(&self.current);
            return;
        };
        let mut digits = [0usize; 9];
        let mut count = 0;
        for d in self.free_digits(g) {
            digits[count] = d;
            count += 1;
        }
        let digits = &mut digits[..count];
        digits.sort_by(|&a, &b| (self.weight)(g, b).total_cmp(&(self.weight)(g, a)));
        for &d in digits.iter() {
            self.hold(g, d, true);
            self.run(k + 1, so_far + (self.weight)(g, d));
            self.hold(g, d, false);
        }
    }

    /// What the groups from position `k` on could add at most: each its best digit that no
    /// group it clashes with holds already; `None` when one has no digit left.
    fn bound(&self, k: usize) -> Option<f32> {
        (self.order[k..].iter()).try_fold(0.0, |sum, &g| Some(sum + self.best_free[g]?))
    }

    /// The digits no group clashing with `g` holds.
    fn free_digits(&self, g: usize) -> impl Iterator<Item = usize> + '_ {
        (0..9).filter(move |&d| self.held_nearby[g][d] == 0)
    }

    /// Gives group `g` digit `d` (`on`), or takes it back.
    fn hold(&mut self, g: usize, d: usize, on: bool) {
        self.current[g] = if on { d } else { usize::MAX };
        for &h in self.neighbours[g].iter() {
            let held = &mut self.held_nearby[h][d];
            let weight = (self.weight)(h, d);
            if on {
                *held += 1;
                // Only the digit that was the best free one, now taken, moves the best.
                if *held == 1 && self.best_free[h] == Some(weight) {
                    self.best_free[h] = (self.free_digits(h))
                        .map(|e| (self.weight)(h, e))
                        .max_by(f32::total_cmp);
                }
            } else {
                *held -= 1;
                if *held == 0 {
                    let best = self.best_free[h].map_or(weight, |b| b.max(weight));
                    self.best_free[h] = Some(best);
                }
            }
        }
    }
}
