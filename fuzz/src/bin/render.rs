//! AFL target `render`: a request body, rendered on the small canvas and encoded.
fn main() {
    // Fonts are discovered once, before AFL's fork server starts.
    let engine = chart_raster_fuzz::engine();
    afl::fuzz!(|data: &[u8]| chart_raster_fuzz::render_request(&engine, data));
}
