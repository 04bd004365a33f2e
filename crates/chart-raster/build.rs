//! Embeds `fixtures/examples/*.json` (the gallery) in the library: writes a list of
//! `(name, include_str!(path))` to `$OUT_DIR/examples.rs`.

use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("../../fixtures/examples");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut out = String::from("/// `(file stem, JSON text)` of every example, sorted by name.\n");
    out.push_str("pub(crate) static EXAMPLES: &[(&str, &str)] = &[\n");
    for n in &names {
        let path = dir.join(n);
        let path = path.canonicalize().unwrap_or(path);
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = n.trim_end_matches(".json");
        out.push_str(&format!(
            "    ({stem:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("examples.rs"), out).expect("write examples.rs");
}
