# The image of the Kubernetes recipe in docs/batch-and-scale.md, built from the repository
# root:
#
#   docker build -t registry.example/sudoku-snap:latest .
#
# The first stage builds the release binary (the glyph templates and the font are compiled
# into it, so it needs no file at run time); the second holds that binary alone, on the same
# Debian release, so the C library it was linked against is there.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin sudoku-snap

FROM debian:bookworm-slim
COPY --from=build /src/target/release/sudoku-snap /usr/local/bin/sudoku-snap
# Not root: the pictures and reports it writes belong to `nobody` (the recipe's fsGroup lets
# it write the shared volume).
USER 65534:65534
ENTRYPOINT ["sudoku-snap"]
