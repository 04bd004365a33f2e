//! AFL target `render-struct`: a seed config mutated by the input's program, rendered on the
//! small canvas and encoded in the format the seed word picks.
use chart_raster_fuzz::mutate::{mutate, Seeds};

fn main() {
    let seeds = Seeds::from_env();
    let engine = chart_raster_fuzz::engine();
    afl::fuzz!(|data: &[u8]| {
        if let Some(m) = mutate(&seeds, data) {
            let format = chart_raster_fuzz::format_of(m.word);
            chart_raster_fuzz::render_config(&engine, m.config, format);
        }
    });
}
