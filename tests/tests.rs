//! The one integration-test binary. Each module below is a file in `tests/it/`; add a module
//! there and a line here (files directly in `tests/` would each become a separate binary).

mod it {
    mod util; // shared helpers: the binary, known puzzles, ../shared or "skipped: why" (fails under CI), a PNG bomb

    mod check_pencil; // --check on pencil marks: read as the truth where readable, planted mistakes found, no false alarm, dashed rings
    mod cli_batch; // batch mode: bad files reported as the batch goes on, skip/overwrite, mirroring, -j, kills
    mod cli_check; // --check and --hint: wrong entries named and ringed, hints that agree with the solution
    mod cli_conventions; // completions, man page, bare usage, --help examples, solve hint, generate's seed, --answer-color, PNG size
    mod cli_generate; // generate and grade: unique puzzles, same seed same output at any -j, known grades
    mod cli_image; // the screenshot command: JSON, -o, bad inputs, the input never overwritten
    mod cli_pipes; // a picture on stdin and stdout: round trip, formats, bounded read, path lists still work
    mod cli_shard; // --shard I/N: shards of a folder are disjoint and cover it
    mod cli_solve; // the solve command: input formats, stdin, output formats, exit codes, errors
    mod docs; // issue 61: every console example of README.md and docs/*.md runs as shown (trycmd)
    mod games; // issue 59: games in progress: the print read beside the player's pen
    mod grids; // issue 60: several grids in one picture, each read, solved, drawn and reported
    mod hardening; // issue 10: outputs never on inputs, FIFOs, closed pipes, memory, names, signals
    mod hardening_text; // solve, grade, generate: streamed input, bad bytes, closed pipes, --all in flat memory, FIFOs
    mod photos; // camera photos of newspapers: hard kinds read exactly, never a wrong answer drawn
    mod pipeline; // every screenshot with truth is read exactly; solved pictures read back as the solution
    mod reading; // issue 11: a picture per cause of misreading, read exactly; doubtful readings draw nothing
    mod render_refs; // reference pictures of drawn answers, a diff picture on mismatch, REGENERATE=1 rewrites
    mod safety; // issue 57: one output policy, lost messages never stop work, byte lists, escaped names, stale temps, SIGHUP
    mod screens_real; // issue 60: real app screenshots, a cause each, read exactly
    mod solver_data; // the solver on samples of every ../shared/data/puzzles file
    mod text_props;
    mod transparency; // transparent inputs: read over white, alpha kept in PNG/WebP with the drawn ink opaque, JPEG laid over white
                      // proptest: text formats round-trip; random puzzles get valid solutions
    mod work_budget; // issue 57: a lattice runs out of its work budget into a doubt, nothing written; a cancel flag interrupts
}
