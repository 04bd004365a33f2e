//! AFL target `resolve`: chart config JSON text → `resolve_chart`.
fn main() {
    afl::fuzz!(|data: &[u8]| chart_raster_fuzz::resolve_json(data));
}
