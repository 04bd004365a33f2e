//! The pixelmatch comparison rule of the fixtures README (YIQ distance, anti-aliasing
//! detection, colours blended over white). TODO(pixels owner).

/// Counts mismatched pixels between two straight-alpha RGBA8 images of the same size.
/// When `diff` is given (same size), writes a visual diff image into it.
#[allow(dead_code)]
pub fn pixelmatch(
    _expected: &[u8],
    _actual: &[u8],
    _width: u32,
    _height: u32,
    _threshold: f64,
    _diff: Option<&mut [u8]>,
) -> usize {
    0
}
