//! Generates the Rust code of the wire API from `../proto` with the vendored protoc
//! (no system protoc needed), plus canonical proto3 JSON (pbjson) and the descriptor set
//! served by gRPC reflection.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto_root = PathBuf::from("../proto");
    let files = [
        "referee/v1/referee.proto",
        "referee/g1841/v1/g1841.proto",
        "referee/autobahn/v1/autobahn.proto",
    ];
    for f in &files {
        println!("cargo:rerun-if-changed=../proto/{f}");
    }
    // Worktrees sharing one cargo build directory (CARGO_BUILD_BUILD_DIR) share this build
    // script's output; file times alone would let one checkout compile another's generated
    // code. The directory cargo runs from tells checkouts apart: run again when it changes.
    println!("cargo:rerun-if-env-changed=PWD");
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    let descriptor = out.join("referee_descriptor.bin");

    let mut cfg = prost_build::Config::new();
    cfg.protoc_executable(protoc_bin_vendored::protoc_bin_path()?);
    // Ordered maps: the same state always encodes to the same bytes (hashing, sealing).
    cfg.btree_map(["."]);
    tonic_prost_build::configure()
        .file_descriptor_set_path(&descriptor)
        // Decode errors of request bodies become INVALID_ARGUMENT instead of INTERNAL.
        .codec_path("crate::codec::RefereeCodec")
        .compile_with_config(
            cfg,
            &files.map(|f| proto_root.join(f)),
            std::slice::from_ref(&proto_root),
        )?;

    let descriptor_bytes = std::fs::read(&descriptor)?;
    pbjson_build::Builder::new()
        .register_descriptors(&descriptor_bytes)?
        .btree_map(["."])
        .build(&[".referee"])?;
    Ok(())
}
