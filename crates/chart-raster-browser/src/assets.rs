//! The pinned JavaScript bundles: the manifest (`assets.json`, one place for every package,
//! version, licence and sha256) and reading the verified files from the assets directory.
//!
//! The files are not committed: `cargo xtask browser-assets` fetches them from the npm registry
//! into [`default_assets_dir`] (or `CHART_RASTER_ASSETS`).

use crate::BrowserError;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The manifest, compiled in so the engine and `cargo xtask browser-assets` agree on it.
const MANIFEST_JSON: &str = include_str!("../assets.json");

/// The command that installs the bundles, named in every "missing assets" error.
pub const INSTALL_COMMAND: &str = "cargo xtask browser-assets";

/// One pinned file of one npm package.
#[derive(Debug, Clone, Deserialize)]
pub struct Asset {
    /// npm package name.
    pub package: String,
    /// Exact version fetched with `npm pack <package>@<version>`.
    pub version: String,
    /// SPDX licence of the package.
    pub license: String,
    /// Path of the UMD build inside the npm tarball.
    pub path: String,
    /// Path of the licence text inside the npm tarball.
    pub license_path: String,
    /// File name in the assets directory.
    pub file: String,
    /// Lowercase hex sha256 of the file.
    pub sha256: String,
    /// Third-party code compiled into the UMD build, with its licence.
    #[serde(default)]
    pub bundled: Vec<String>,
}

/// Every bundle the page loads, in load order (Chart.js first, then what needs it).
#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    /// In page load order.
    pub assets: Vec<Asset>,
}

/// The compiled-in manifest.
pub fn manifest() -> &'static Manifest {
    static MANIFEST: OnceLock<Manifest> = OnceLock::new();
    MANIFEST.get_or_init(|| {
        // The manifest is a constant of this crate, not user input; `manifest_parses` tests it.
        serde_json::from_str(MANIFEST_JSON).expect("assets.json is a valid manifest")
    })
}

/// Where the bundles live when `CHART_RASTER_ASSETS` is not set:
/// `$XDG_CACHE_HOME/chart-raster/browser-assets`, else `$HOME/.cache/chart-raster/browser-assets`,
/// else the same under the system temp directory. An absolute path, so the service, the tests
/// (which run in the crate directory) and xtask all find the same files.
pub fn default_assets_dir() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })
        .unwrap_or_else(std::env::temp_dir);
    cache.join("chart-raster").join("browser-assets")
}

/// Lowercase hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Reads every bundle of the manifest from `dir`, checking each sha256. The error names the
/// file at fault and the command that fixes it.
pub fn load(dir: &Path) -> Result<Vec<String>, BrowserError> {
    manifest()
        .assets
        .iter()
        .map(|asset| {
            let path = dir.join(&asset.file);
            let bytes = std::fs::read(&path).map_err(|e| {
                BrowserError::Unavailable(format!(
                    "Chart.js bundle {} missing ({}: {e}); run `{INSTALL_COMMAND}` \
                     or set CHART_RASTER_ASSETS to the directory holding them",
                    asset.file,
                    path.display()
                ))
            })?;
            let actual = sha256_hex(&bytes);
            if actual != asset.sha256 {
                return Err(BrowserError::Unavailable(format!(
                    "Chart.js bundle {} has sha256 {actual}, expected {} ({} {}); \
                     run `{INSTALL_COMMAND}` to fetch the pinned version",
                    path.display(),
                    asset.sha256,
                    asset.package,
                    asset.version
                )));
            }
            String::from_utf8(bytes)
                .map_err(|_| BrowserError::Unavailable(format!("{} is not UTF-8", path.display())))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_parses() {
        let m = manifest();
        assert_eq!(m.assets[0].package, "chart.js");
        assert_eq!(m.assets[0].version, "4.5.1");
        for a in &m.assets {
            assert_eq!(a.sha256.len(), 64, "{}", a.package);
            assert!(!a.license.is_empty());
        }
        let files: std::collections::HashSet<_> = m.assets.iter().map(|a| &a.file).collect();
        assert_eq!(files.len(), m.assets.len(), "file names are unique");
    }

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn missing_dir_names_the_install_command() {
        let err = load(Path::new("/nonexistent/chart-raster-assets")).unwrap_err();
        match err {
            BrowserError::Unavailable(m) => assert!(m.contains(INSTALL_COMMAND), "{m}"),
            other => panic!("unexpected {other:?}"),
        }
    }
}
