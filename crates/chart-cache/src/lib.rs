//! The render cache: encoded images kept by request hash, bounded by entry count, total bytes
//! and age (an expired entry is a miss), with an injectable clock. Depends on no workspace crate.
