//! AFL target `query`: see the crate docs.
fn main() {
    afl::fuzz!(|data: &[u8]| chart_raster_fuzz::query(data));
}
