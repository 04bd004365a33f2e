//! `cargo xtask <task>`: repository automation (fixture runner, browser assets, engine
//! comparison, load test).

fn main() -> anyhow::Result<()> {
    let task = std::env::args().nth(1).unwrap_or_default();
    anyhow::bail!("unknown task {task:?}")
}
