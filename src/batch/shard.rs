//! Sharding a batch over machines with no scheduler of ours: worker I of N takes the inputs
//! whose relative path hashes to I. The hash is of the path's bytes only (FNV-1a), so every
//! worker agrees without talking, on any machine and in any listing order; adding files
//! never moves the others, and the bucket comes from jump consistent hashing (Lamping and
//! Veach, 2014), so going from N to N+1 workers moves only about 1/(N+1) of the files.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// Worker `index` of `count` (0-based, as Kubernetes' `JOB_COMPLETION_INDEX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This worker, `0..count`.
    pub index: u32,
    /// How many workers share the batch, at least 1.
    pub count: u32,
}

impl Shard {
    /// Whether this worker takes the input at `rel` (its path relative to its folder
    /// argument, as batch outputs are named).
    pub fn takes(&self, rel: &Path) -> bool {
        bucket(fnv1a(&path_bytes(rel)), self.count) == self.index
    }
}

/// `I/N`, e.g. `0/4`.
impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `I/N` with `0 <= I < N`.
impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard; write I/N with 0 <= I < N, e.g. 0/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// The path's bytes with `/` between components, so Windows and Unix workers agree.
fn path_bytes(rel: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, c) in rel.components().enumerate() {
        if i > 0 {
            out.push(b'/');
        }
        #[cfg(unix)]
        out.extend_from_slice(std::os::unix::ffi::OsStrExt::as_bytes(c.as_os_str()));
        #[cfg(not(unix))]
        out.extend_from_slice(c.as_os_str().to_string_lossy().as_bytes());
    }
    out
}

/// 64-bit FNV-1a: tiny, stable across versions and platforms (unlike std's hasher).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Jump consistent hash: a bucket in `0..buckets` for `key`.
fn bucket(mut key: u64, buckets: u32) -> u32 {
    let (mut b, mut j) = (-1i64, 0i64);
    while j < i64::from(buckets) {
        b = j;
        key = key.wrapping_mul(2_862_933_555_777_941_757).wrapping_add(1);
        j = ((b + 1) as f64 * ((1u64 << 31) as f64 / ((key >> 33) + 1) as f64)) as i64;
    }
    b as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn names(n: usize) -> Vec<PathBuf> {
        (0..n)
            .map(|i| PathBuf::from(format!("shots/day{}/img-{i}.png", i % 7)))
            .collect()
    }

    fn owner(rel: &Path, count: u32) -> u32 {
        let owners: Vec<u32> = (0..count)
            .filter(|&index| Shard { index, count }.takes(rel))
            .collect();
        assert_eq!(owners.len(), 1, "{} has one owner", rel.display());
        owners[0]
    }

    #[test]
    fn every_path_has_one_owner_and_shards_are_even() {
        let mut sizes = [0usize; 4];
        for rel in names(4000) {
            sizes[owner(&rel, 4) as usize] += 1;
        }
        assert!(sizes.iter().all(|&s| (850..1150).contains(&s)), "{sizes:?}");
    }

    #[test]
    fn one_more_worker_moves_few_files() {
        let all = names(3000);
        let moved = all.iter().filter(|r| owner(r, 3) != owner(r, 4)).count();
        // Ideally a quarter move (to the new worker); mod-N hashing would move three quarters.
        assert!(moved < all.len() * 3 / 10, "{moved} of {} moved", all.len());
    }

    #[test]
    fn the_hash_is_stable_across_versions_and_platforms() {
        // Pinned: workers of different builds must agree on who takes what.
        // (Values from an independent Python implementation of FNV-1a and jump hashing.)
        let key = fnv1a(b"shots/day1/img-1.png");
        assert_eq!(key, 0x5f72_5197_04f7_ed01);
        let buckets: Vec<u32> = [1, 2, 3, 4, 5, 10, 100].map(|n| bucket(key, n)).to_vec();
        assert_eq!(buckets, [0, 1, 1, 3, 4, 8, 17]);
        assert_eq!(
            path_bytes(Path::new("shots/./day1/img-1.png")),
            b"shots/day1/img-1.png"
        );
    }

    #[test]
    fn shards_parse_as_index_over_count() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
