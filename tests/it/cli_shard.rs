//! `--shard I/N` (issue 12): the shards of a folder are disjoint and together cover it, the
//! same on every run, and a bad shard is a usage error.

use std::collections::BTreeSet;
use std::path::Path;

use super::util::cmd;

/// The inputs a run printed in `line` format (`INPUT<TAB>result`).
fn inputs_of(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect()
}

#[test]
fn shards_of_a_folder_are_disjoint_and_cover_it() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/small-cantarell.png");
    let mut all = BTreeSet::new();
    for i in 0..14 {
        let sub = dir.path().join(format!("day{}", i % 3));
        std::fs::create_dir_all(&sub).unwrap();
        let file = sub.join(format!("shot-{i}.png"));
        std::fs::copy(&sample, &file).unwrap();
        all.insert(file.display().to_string());
    }
    let run = |shard: &str| {
        let out = cmd()
            .arg("-r")
            .arg(dir.path())
            .args(["-f", "line", "-q", "-j", "1", "--shard", shard])
            .assert()
            .success();
        inputs_of(&out.get_output().stdout)
    };
    let shards: Vec<Vec<String>> = (0..3).map(|i| run(&format!("{i}/3"))).collect();
    let mut seen = BTreeSet::new();
    for shard in &shards {
        assert!(
            !shard.is_empty(),
            "14 files over 3 shards leave none empty: {shards:?}"
        );
        for input in shard {
            assert!(seen.insert(input.clone()), "{input} is in two shards");
        }
    }
    assert_eq!(seen, all, "the shards together cover the folder");
    assert_eq!(run("1/3"), shards[1], "a shard is the same on every run");
}

#[test]
fn a_shard_past_the_count_is_a_usage_error() {
    let out = cmd().args(["samples/", "--shard", "3/3"]).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr);
    assert!(stderr.contains("0 <= I < N"), "{stderr}");
}
