//! The order of a Nelder-Mead simplex (venn.js's `fmin`, used by the euler layout).

/// The simplex's order, `(a, b) => a.fx - b.fx`. JavaScript's sort takes a NaN difference
/// as "equal", which is no order at all (NaN equal to 1 and to 2): Rust's sort panics on
/// such a comparison (found by `cargo xtask sweep`, seed 4 case 1276: an euler diagram of
/// 2,000 sets). A NaN loss sorts last here, as the worst point; other losses compare as
/// before (-0 = 0).
pub(super) fn by_loss(a: f64, b: f64) -> std::cmp::Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal),
        (x, y) => x.cmp(&y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Losses with NaNs among them sort without a panic ("comparison does not implement a
    /// total order" with the old comparison), NaNs last and the rest ascending.
    #[test]
    fn nan_losses_sort_in_a_total_order() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut v: Vec<f64> = (0..41)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    if seed.is_multiple_of(3) {
                        f64::NAN
                    } else {
                        (seed % 1000) as f64 - 500.0
                    }
                })
                .collect();
            v.sort_by(|a, b| by_loss(*a, *b));
            let nans = v.iter().position(|x| x.is_nan()).unwrap_or(v.len());
            assert!(v[nans..].iter().all(|x| x.is_nan()));
            assert!(v[..nans].windows(2).all(|w| w[0] <= w[1]));
        }
    }
}
