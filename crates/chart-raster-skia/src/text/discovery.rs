//! Font discovery: the faces installed on the machine, found in the folders fontconfig scans.
//!
//! Only the table directory and the `name`, `OS/2` and `head` tables of each file are read
//! here, at start-up; whole files are read when a face is first used (see `fonts`).

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path as FsPath, PathBuf};

/// The font bundled in the binary, drawn when nothing installed covers a character.
pub(super) static BUNDLED: &[u8] = include_bytes!("../../fonts/LiberationSans-Regular.ttf");

/// Where a face's bytes come from.
#[derive(Debug, Clone)]
pub(super) enum Source {
    File(PathBuf),
    Bundled,
}

/// A discovered face, before its file is read.
#[derive(Debug, Clone)]
pub(super) struct FaceEntry {
    pub(super) source: Source,
    pub(super) index: u32,
    /// Lower-case family names (name IDs 1 and 16, every language).
    pub(super) families: Vec<String>,
    pub(super) weight: u16,
    pub(super) italic: bool,
}

/// Every face in the font folders (in a stable order), then the bundled one.
pub(super) fn discover() -> Vec<FaceEntry> {
    let mut entries = Vec::new();
    let mut dirs = vec![
        PathBuf::from("/usr/share/fonts"),
        PathBuf::from("/usr/local/share/fonts"),
    ];
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(&home).join(".fonts"));
        dirs.push(PathBuf::from(&home).join(".local/share/fonts"));
    }
    for dir in dirs {
        scan_dir(&dir, &mut entries, 0);
    }
    if let Ok(face) = ttf_parser::Face::parse(BUNDLED, 0) {
        entries.push(FaceEntry {
            source: Source::Bundled,
            index: 0,
            families: vec!["liberation sans".into()],
            weight: face.weight().to_number(),
            italic: false,
        });
    }
    entries
}

fn scan_dir(dir: &FsPath, out: &mut Vec<FaceEntry>, depth: u32) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    // fontconfig's order among equal matches follows its scan; sorting keeps it stable.
    paths.sort();
    for path in paths {
        if path.is_dir() {
            if depth < 8 {
                scan_dir(&path, out, depth + 1);
            }
            continue;
        }
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .unwrap_or_default();
        if matches!(ext.as_str(), "ttf" | "otf" | "ttc" | "otc") {
            read_entries(&path, out);
        }
    }
}

/// Reads the table directory and the `name`, `OS/2` and `head` tables of each face of a file,
/// without reading the whole file (CJK collections are tens of megabytes).
fn read_entries(path: &FsPath, out: &mut Vec<FaceEntry>) {
    let Ok(mut file) = std::fs::File::open(path) else {
        return;
    };
    let mut head = [0u8; 12];
    if file.read_exact(&mut head).is_err() {
        return;
    }
    let offsets: Vec<u32> = if &head[0..4] == b"ttcf" {
        let n = u32::from_be_bytes([head[8], head[9], head[10], head[11]]).min(64);
        let mut buf = vec![0u8; n as usize * 4];
        if file.read_exact(&mut buf).is_err() {
            return;
        }
        buf.chunks_exact(4)
            .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    } else {
        vec![0]
    };
    for (index, offset) in offsets.into_iter().enumerate() {
        if let Some(entry) = read_face_entry(&mut file, offset, path, index as u32) {
            out.push(entry);
        }
    }
}

fn read_at(file: &mut std::fs::File, offset: u64, len: usize) -> Option<Vec<u8>> {
    if len > 16 << 20 {
        return None;
    }
    file.seek(SeekFrom::Start(offset)).ok()?;
    let mut buf = vec![0u8; len];
    file.read_exact(&mut buf).ok()?;
    Some(buf)
}

fn read_face_entry(
    file: &mut std::fs::File,
    offset: u32,
    path: &FsPath,
    index: u32,
) -> Option<FaceEntry> {
    let header = read_at(file, offset as u64, 12)?;
    let num_tables = u16::from_be_bytes([header[4], header[5]]) as usize;
    let dir = read_at(file, offset as u64 + 12, num_tables * 16)?;
    let mut tables: HashMap<[u8; 4], (u32, u32)> = HashMap::new();
    for rec in dir.chunks_exact(16) {
        let tag = [rec[0], rec[1], rec[2], rec[3]];
        let off = u32::from_be_bytes([rec[8], rec[9], rec[10], rec[11]]);
        let len = u32::from_be_bytes([rec[12], rec[13], rec[14], rec[15]]);
        tables.insert(tag, (off, len));
    }
    let mut table = |tag: &[u8; 4]| {
        let (off, len) = *tables.get(tag)?;
        read_at(file, off as u64, len as usize)
    };
    let name_data = table(b"name")?;
    let names = ttf_parser::name::Table::parse(&name_data)?;
    let mut families = Vec::new();
    for name in names.names {
        if name.name_id == ttf_parser::name_id::FAMILY
            || name.name_id == ttf_parser::name_id::TYPOGRAPHIC_FAMILY
        {
            if let Some(s) = name_to_string(&name) {
                let s = s.to_lowercase();
                if !families.contains(&s) {
                    families.push(s);
                }
            }
        }
    }
    if families.is_empty() {
        return None;
    }
    let os2 = table(b"OS/2");
    let os2 = os2.as_deref().and_then(ttf_parser::os2::Table::parse);
    let (weight, italic) = match os2 {
        Some(t) => (
            t.weight().to_number(),
            t.style() != ttf_parser::Style::Normal,
        ),
        None => {
            let head = table(b"head");
            let mac_style = head
                .as_deref()
                .filter(|h| h.len() >= 46)
                .map(|h| u16::from_be_bytes([h[44], h[45]]))
                .unwrap_or(0);
            (
                if mac_style & 1 != 0 { 700 } else { 400 },
                mac_style & 2 != 0,
            )
        }
    };
    Some(FaceEntry {
        source: Source::File(path.to_path_buf()),
        index,
        families,
        weight,
        italic,
    })
}

fn name_to_string(name: &ttf_parser::name::Name) -> Option<String> {
    if name.is_unicode() {
        return name.to_string();
    }
    // Mac Roman names are ASCII in practice for family names.
    if name.platform_id == ttf_parser::PlatformId::Macintosh && name.encoding_id == 0 {
        return Some(name.name.iter().map(|&b| b as char).collect());
    }
    None
}
