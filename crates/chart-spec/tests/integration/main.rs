//! Integration tests of chart-spec: requests, hashing and option resolution seen from outside.

mod budget;
mod json_scan;
mod request;
