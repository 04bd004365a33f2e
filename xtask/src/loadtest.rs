//! TODO: the `loadtest` task.

pub fn run(_args: &[String]) -> anyhow::Result<()> {
    anyhow::bail!("not implemented yet")
}
