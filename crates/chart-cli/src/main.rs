//! The `chart-raster` binary: parses arguments and maps errors to exit codes; all work is in
//! the library crates.

fn main() {
    println!("chart-raster {}", env!("CARGO_PKG_VERSION"));
}
