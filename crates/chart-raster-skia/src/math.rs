//! Float helpers for identical pixels on every machine. The platform's transcendental float
//! functions are banned in clippy.toml (libm replaces them); what libm has no name for lives
//! here.

/// `x²`, bit for bit what `powi(2)` computes (one multiplication), without `powi`, which LLVM
/// may constant-fold with the build host's `pow`.
pub(crate) fn squared<T: std::ops::Mul<Output = T> + Copy>(x: T) -> T {
    x * x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_both_float_widths() {
        assert_eq!(squared(-3.0_f64), 9.0);
        assert_eq!(squared(1.5_f32), 2.25);
        assert_eq!(squared(0.1_f64), 0.1 * 0.1);
    }
}
