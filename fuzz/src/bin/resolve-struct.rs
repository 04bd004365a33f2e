//! AFL target `resolve-struct`: a seed config mutated by the input's program → `resolve_chart`.
use chart_raster_fuzz::mutate::{mutate, Seeds};

fn main() {
    let seeds = Seeds::from_env();
    afl::fuzz!(|data: &[u8]| {
        if let Some(m) = mutate(&seeds, data) {
            chart_raster_fuzz::resolve(&m.config);
        }
    });
}
