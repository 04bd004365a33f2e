//! Integration tests of chart-http: a real server on 127.0.0.1:0, real HTTP requests.

mod auth;
mod cache;
mod common;
mod errors;
mod gallery;
mod hostile;
mod metrics;
mod openapi;
mod quickchart;
mod render;
mod replicas;
mod service;
mod vector;
