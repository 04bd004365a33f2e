//! The facade: re-exports the layers and wires one render — validate, hash, look up the cache,
//! draw with an engine, encode, store.
