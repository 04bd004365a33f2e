//! `cargo xtask browser-assets [--dir DIR] [--force]`: fetches the browser engine's pinned
//! JavaScript bundles from the npm registry into the assets directory.
//!
//! The list (package, version, file in the tarball, sha256, licence) is the engine's manifest,
//! `crates/chart-raster-browser/assets.json`. Each package is fetched with
//! `npm pack <package>@<version>` (the only network access), unpacked with `tar`, and each file
//! is written only if its sha256 matches the pin. Licence texts go to `<dir>/licenses/`.
//! Already-present files with the right hash are kept, so the task is cheap to re-run.

use anyhow::{bail, Context};
use argh::FromArgs;
use chart_raster_browser::assets::{self, Asset};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Fetch the pinned Chart.js bundles of the browser engine with `npm pack` and verify them
/// (into $CHART_RASTER_ASSETS, else ~/.cache/chart-raster/browser-assets).
#[derive(FromArgs, Default)]
#[argh(subcommand, name = "browser-assets")]
pub struct Cli {
    /// the assets folder (default: $CHART_RASTER_ASSETS, else the user cache)
    #[argh(option)]
    dir: Option<PathBuf>,
    /// fetch again even when the pinned files are present
    #[argh(switch)]
    force: bool,
}

pub fn run(Cli { dir, force }: Cli) -> anyhow::Result<()> {
    let dir = dir
        .or_else(|| std::env::var_os("CHART_RASTER_ASSETS").map(PathBuf::from))
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(assets::default_assets_dir);
    std::fs::create_dir_all(dir.join("licenses"))
        .with_context(|| format!("creating {}", dir.display()))?;

    let manifest = assets::manifest();
    let missing: Vec<&Asset> = manifest
        .assets
        .iter()
        .filter(|a| force || !pinned_file_present(&dir, a))
        .collect();
    if !missing.is_empty() {
        fetch(&dir, &missing)?;
    }
    // Whatever happened above, the engine must now accept the directory.
    assets::load(&dir).map_err(|e| anyhow::anyhow!("{e}"))?;

    println!("{:<28} {:<8} {:<8} file", "package", "version", "licence");
    for a in &manifest.assets {
        println!(
            "{:<28} {:<8} {:<8} {}",
            a.package, a.version, a.license, a.file
        );
    }
    println!(
        "{} bundles verified in {} ({} fetched)",
        manifest.assets.len(),
        dir.display(),
        missing.len()
    );
    Ok(())
}

fn pinned_file_present(dir: &Path, asset: &Asset) -> bool {
    std::fs::read(dir.join(&asset.file)).is_ok_and(|b| assets::sha256_hex(&b) == asset.sha256)
}

/// `npm pack`s each package once into a scratch directory and copies the pinned files out.
fn fetch(dir: &Path, wanted: &[&Asset]) -> anyhow::Result<()> {
    let scratch = std::env::temp_dir().join(format!("chart-raster-assets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch)?;
    let result = (|| {
        for asset in wanted {
            let spec = format!("{}@{}", asset.package, asset.version);
            eprintln!("npm pack {spec}");
            let out = Command::new("npm")
                .args(["pack", &spec, "--silent", "--pack-destination"])
                .arg(&scratch)
                .current_dir(&scratch)
                .output()
                .context("running npm (is Node.js installed?)")?;
            if !out.status.success() {
                bail!(
                    "npm pack {spec} failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            // npm prints the tarball name as the last line of stdout.
            let stdout = String::from_utf8_lossy(&out.stdout);
            let tarball = stdout
                .lines()
                .rev()
                .map(str::trim)
                .find(|l| l.ends_with(".tgz"))
                .with_context(|| format!("npm pack {spec} named no tarball: {stdout}"))?;
            let unpacked = scratch.join(format!("{}-{}", asset.package, asset.version));
            std::fs::create_dir_all(&unpacked)?;
            let status = Command::new("tar")
                .arg("xzf")
                .arg(scratch.join(tarball))
                .arg("-C")
                .arg(&unpacked)
                .status()
                .context("running tar")?;
            if !status.success() {
                bail!("tar could not unpack {tarball}");
            }
            let bytes = std::fs::read(unpacked.join(&asset.path))
                .with_context(|| format!("{spec} has no {}", asset.path))?;
            let actual = assets::sha256_hex(&bytes);
            if actual != asset.sha256 {
                bail!(
                    "{spec}: {} has sha256 {actual}, pinned {}; refusing it",
                    asset.path,
                    asset.sha256
                );
            }
            // Write then rename, so a reader never sees half a file.
            let partial = dir.join(format!(".{}.partial", asset.file));
            std::fs::write(&partial, &bytes)?;
            std::fs::rename(&partial, dir.join(&asset.file))?;
            let licence = std::fs::read(unpacked.join(&asset.license_path))
                .with_context(|| format!("{spec} has no {}", asset.license_path))?;
            std::fs::write(
                dir.join("licenses")
                    .join(format!("{}-{}.txt", asset.package, asset.version)),
                licence,
            )?;
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&scratch);
    result
}
