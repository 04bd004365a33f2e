//! Family substitution as fontconfig does it, read from the machine's `/etc/fonts/conf.d`.
//!
//! Chromium on Linux asks fontconfig for each CSS family: fontconfig rewrites the requested
//! family into an ordered list (its `<alias>` and `<match target="pattern">` rules, e.g.
//! 30-metric-aliases.conf: "Helvetica" → TeX Gyre Heros, Arial, Liberation Sans, …) and
//! returns the best installed face for that list. Skia then keeps the answer only when it is
//! an acceptable substitute (`SkFontConfigInterfaceDirect::MatchFont`), and Blink retries a
//! rejected name under its alternate (`AlternateFamilyName` in font_cache.cc). This module
//! is the first step: the substituted list, computed by interpreting the same XML rules with
//! no C library. Only the family property is modelled; a rule testing anything else
//! (weight, size, …) does not apply, except `lang`, which is the `en` a C/English locale
//! gives the pattern.

use std::collections::HashMap;

/// Bounds on what is read: the files are the system's, not the user's, but a broken or
/// huge configuration must not stall start-up.
const MAX_FILES: usize = 256;
const MAX_FILE_BYTES: u64 = 1 << 20;
const MAX_DEPTH: usize = 32;
/// The longest substituted family list kept (fontconfig's lists are a few dozen names).
const MAX_FAMILIES: usize = 256;

/// How strongly a family value binds (fontconfig ranks strong matches above the language,
/// weak ones below it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Binding {
    Weak,
    Strong,
    Same,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Qual {
    Any,
    All,
}

#[derive(Debug, Clone)]
enum Test {
    /// `<test name="family">`: family (lower-case) with qual and whether it is `eq`.
    Family { qual: Qual, eq: bool, value: String },
    /// `<test name="lang">` against the pattern's `en`.
    Lang { matches: bool },
    /// A property this model does not carry: the rule never applies.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Assign,
    AssignReplace,
    Prepend,
    PrependFirst,
    Append,
    AppendLast,
    Delete,
    DeleteAll,
}

#[derive(Debug, Clone)]
struct Edit {
    mode: Mode,
    binding: Binding,
    values: Vec<String>,
}

#[derive(Debug, Clone)]
struct Rule {
    tests: Vec<Test>,
    edits: Vec<Edit>,
}

/// The family rules of a fontconfig configuration, in file order.
#[derive(Debug, Clone, Default)]
pub(super) struct Config {
    rules: Vec<Rule>,
}

impl Config {
    /// The rules of `/etc/fonts/conf.d/*.conf`, in the order fonts.conf includes them
    /// (file names sorted). `None` when the machine has no fontconfig configuration.
    pub(super) fn system() -> Option<Config> {
        Config::from_dir(std::path::Path::new("/etc/fonts/conf.d"))
    }

    fn from_dir(dir: &std::path::Path) -> Option<Config> {
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "conf"))
            .collect();
        paths.sort();
        paths.truncate(MAX_FILES);
        let mut config = Config::default();
        for path in paths {
            let small = std::fs::metadata(&path).is_ok_and(|m| m.len() <= MAX_FILE_BYTES);
            if let Some(text) = small.then(|| std::fs::read_to_string(&path).ok()).flatten() {
                config.add_xml(&text);
            }
        }
        (!config.rules.is_empty()).then_some(config)
    }

    /// Adds the `<alias>` and `<match target="pattern">` rules of one configuration file.
    pub(super) fn add_xml(&mut self, text: &str) {
        let Some(root) = parse_xml(text) else {
            return;
        };
        for node in &root.children {
            match node.name.as_str() {
                "alias" => self.rules.push(alias_rule(node)),
                "match" if node.attr("target").unwrap_or("pattern") == "pattern" => {
                    if let Some(rule) = match_rule(node) {
                        self.rules.push(rule);
                    }
                }
                _ => {}
            }
        }
    }

    /// The family list fontconfig's `FcConfigSubstitute` makes of a pattern naming
    /// `family`, lower-case, strong bindings first (fontconfig's `FcCompare` ranks a match
    /// on a strong family value above every weak one).
    pub(super) fn substitute(&self, family: &str) -> Vec<String> {
        let mut list: Vec<(String, Binding)> = vec![(family.to_lowercase(), Binding::Strong)];
        for rule in &self.rules {
            apply(rule, &mut list);
        }
        let mut out: Vec<String> = Vec::new();
        for pass in [Binding::Strong, Binding::Weak] {
            for (name, b) in &list {
                if *b == pass && !out.contains(name) {
                    out.push(name.clone());
                }
            }
        }
        out
    }
}

/// `<alias>` is shorthand for a match on the family with prepend (prefer), append (accept)
/// and append_last (default) edits (fontconfig's `FcParseAlias`).
fn alias_rule(node: &Node) -> Rule {
    let binding = parse_binding(node.attr("binding")).unwrap_or(Binding::Weak);
    let mut tests = Vec::new();
    let mut edits = Vec::new();
    for child in &node.children {
        let mode = match child.name.as_str() {
            "family" => {
                tests.push(Test::Family {
                    qual: Qual::Any,
                    eq: true,
                    value: child.text.trim().to_lowercase(),
                });
                continue;
            }
            "prefer" => Mode::Prepend,
            "accept" => Mode::Append,
            "default" => Mode::AppendLast,
            _ => continue,
        };
        let values = child
            .children
            .iter()
            .filter(|c| c.name == "family")
            .map(|c| c.text.trim().to_lowercase())
            .collect();
        edits.push(Edit {
            mode,
            binding,
            values,
        });
    }
    // An alias names exactly one family; several would be several aliases, which fontconfig
    // expresses as one test each. Keep the first.
    tests.truncate(1);
    Rule { tests, edits }
}

fn match_rule(node: &Node) -> Option<Rule> {
    let mut tests = Vec::new();
    let mut edits = Vec::new();
    for child in &node.children {
        match child.name.as_str() {
            "test" => {
                let target = child.attr("target").unwrap_or("default");
                let name = child.attr("name").unwrap_or("");
                let compare = child.attr("compare").unwrap_or("eq");
                let value = child
                    .children
                    .iter()
                    .find(|c| c.name == "string")
                    .map(|c| c.text.trim().to_lowercase());
                let test = match (target, name, compare, value) {
                    ("default" | "pattern", "family", "eq" | "not_eq", Some(value)) => {
                        Test::Family {
                            qual: match child.attr("qual") {
                                Some("all") => Qual::All,
                                Some("any") | None => Qual::Any,
                                // first/not_first: not modelled.
                                Some(_) => return None,
                            },
                            eq: compare == "eq",
                            value,
                        }
                    }
                    ("default" | "pattern", "lang", "eq" | "contains", Some(value)) => Test::Lang {
                        matches: value == "en" || value.starts_with("en-"),
                    },
                    _ => Test::Unknown,
                };
                tests.push(test);
            }
            "edit" if child.attr("name") == Some("family") => {
                let mode = match child.attr("mode").unwrap_or("assign") {
                    "assign" => Mode::Assign,
                    "assign_replace" => Mode::AssignReplace,
                    "prepend" => Mode::Prepend,
                    "prepend_first" => Mode::PrependFirst,
                    "append" => Mode::Append,
                    "append_last" => Mode::AppendLast,
                    "delete" => Mode::Delete,
                    "delete_all" => Mode::DeleteAll,
                    _ => return None,
                };
                let values = child
                    .children
                    .iter()
                    .filter(|c| c.name == "string")
                    .map(|c| c.text.trim().to_lowercase())
                    .collect();
                edits.push(Edit {
                    mode,
                    binding: parse_binding(child.attr("binding")).unwrap_or(Binding::Weak),
                    values,
                });
            }
            _ => {}
        }
    }
    (!edits.is_empty()).then_some(Rule { tests, edits })
}

fn parse_binding(s: Option<&str>) -> Option<Binding> {
    match s? {
        "weak" => Some(Binding::Weak),
        "strong" => Some(Binding::Strong),
        "same" => Some(Binding::Same),
        _ => None,
    }
}

/// Applies one rule to the pattern's family list (fontconfig's `FcConfigSubstituteWithPat`
/// for one `<match>`): every test must hold; edits act around the value the first
/// family test matched (or at the ends when no test names the family).
fn apply(rule: &Rule, list: &mut Vec<(String, Binding)>) {
    let mut anchor: Option<usize> = None;
    for test in &rule.tests {
        match test {
            Test::Unknown => return,
            Test::Lang { matches } => {
                if !matches {
                    return;
                }
            }
            Test::Family { qual, eq, value } => {
                let pos = list.iter().position(|(f, _)| f == value);
                let ok = match (qual, eq) {
                    (Qual::Any, true) => pos.is_some(),
                    (Qual::Any, false) => list.iter().any(|(f, _)| f != value),
                    (Qual::All, true) => list.iter().all(|(f, _)| f == value),
                    (Qual::All, false) => pos.is_none(),
                };
                if !ok {
                    return;
                }
                if *eq && anchor.is_none() {
                    anchor = pos;
                }
            }
        }
    }
    for edit in &rule.edits {
        let binding = |anchor: Option<usize>, list: &[(String, Binding)]| match edit.binding {
            Binding::Same => anchor
                .and_then(|a| list.get(a))
                .map_or(Binding::Weak, |(_, b)| *b),
            b => b,
        };
        let b = binding(anchor, list);
        let values = edit.values.iter().map(|v| (v.clone(), b));
        match (edit.mode, anchor) {
            (Mode::Assign, Some(a)) => {
                list.splice(a..=a, values);
            }
            (Mode::Assign, None) | (Mode::AssignReplace, _) => {
                *list = values.collect();
                anchor = None;
            }
            (Mode::Prepend, Some(a)) => {
                let n = edit.values.len();
                list.splice(a..a, values);
                anchor = Some(a + n);
            }
            (Mode::Prepend, None) | (Mode::PrependFirst, _) => {
                let n = edit.values.len();
                list.splice(0..0, values);
                anchor = anchor.map(|a| a + n);
            }
            (Mode::Append, Some(a)) => {
                list.splice(a + 1..a + 1, values);
            }
            (Mode::Append, None) | (Mode::AppendLast, _) => list.extend(values),
            (Mode::Delete, Some(a)) => {
                list.remove(a);
                anchor = None;
            }
            (Mode::Delete, None) => {}
            (Mode::DeleteAll, _) => {
                list.clear();
                anchor = None;
            }
        }
        list.truncate(MAX_FAMILIES);
        if anchor.is_some_and(|a| a >= list.len()) {
            anchor = None;
        }
    }
}

/// An element of the configuration's XML: its name, attributes, text and children.
#[derive(Debug, Default)]
struct Node {
    name: String,
    attrs: HashMap<String, String>,
    text: String,
    children: Vec<Node>,
}

impl Node {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }
}

/// A tolerant reader for fontconfig's XML: elements, attributes, text and the five
/// predefined entities; comments, processing instructions and the doctype are skipped.
/// Returns the root element (`<fontconfig>`), `None` when the file is not well formed.
fn parse_xml(text: &str) -> Option<Node> {
    let mut stack: Vec<Node> = vec![Node::default()];
    let mut rest = text;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            stack.last_mut()?.text.push_str(&unescape(rest));
            break;
        };
        stack.last_mut()?.text.push_str(&unescape(&rest[..lt]));
        rest = &rest[lt..];
        if let Some(r) = rest.strip_prefix("<!--") {
            rest = r.find("-->").map_or("", |e| &r[e + 3..]);
            continue;
        }
        if rest.starts_with("<?") || rest.starts_with("<!") {
            rest = rest.find('>').map_or("", |e| &rest[e + 1..]);
            continue;
        }
        let end = rest.find('>')?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let node = stack.pop()?;
            if node.name != name.trim() {
                return None;
            }
            stack.last_mut()?.children.push(node);
            continue;
        }
        let (tag, empty) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let node = parse_tag(tag)?;
        if empty {
            stack.last_mut()?.children.push(node);
        } else {
            if stack.len() > MAX_DEPTH {
                return None;
            }
            stack.push(node);
        }
    }
    let mut document = stack.pop()?;
    if !stack.is_empty() {
        return None;
    }
    document.children.pop().filter(|n| n.name == "fontconfig")
}

fn parse_tag(tag: &str) -> Option<Node> {
    let tag = tag.trim();
    let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
    let mut node = Node {
        name: tag[..name_end].to_string(),
        ..Node::default()
    };
    let mut rest = tag[name_end..].trim_start();
    while !rest.is_empty() {
        let eq = rest.find('=')?;
        let key = rest[..eq].trim().to_string();
        let after = rest[eq + 1..].trim_start();
        let quote = after.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let close = after[1..].find(quote)? + 1;
        node.attrs.insert(key, unescape(&after[1..close]));
        rest = after[close + 1..].trim_start();
    }
    Some(node)
}

fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    const METRIC: &str = r#"<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <!-- a comment with <family>Ignored</family> -->
  <alias binding="same"><family>Liberation Sans</family><default><family>Arial</family></default></alias>
  <alias binding="same"><family>Arial</family><default><family>Helvetica</family></default></alias>
  <alias binding="same"><family>Helvetica</family><default><family>Arial</family></default></alias>
  <alias binding="same"><family>Helvetica</family><accept><family>TeX Gyre Heros</family></accept></alias>
  <alias binding="same"><family>Arial</family><accept><family>Liberation Sans</family><family>Arimo</family></accept></alias>
  <alias><family>Arial</family><default><family>sans-serif</family></default></alias>
  <match target="pattern">
    <test qual="all" name="family" compare="not_eq"><string>sans-serif</string></test>
    <test qual="all" name="family" compare="not_eq"><string>serif</string></test>
    <edit name="family" mode="append_last"><string>sans-serif</string></edit>
  </match>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <match target="pattern">
    <test name="lang"><string>ja</string></test>
    <test name="family"><string>sans-serif</string></test>
    <edit name="family" mode="prepend"><string>Noto Sans CJK JP</string></edit>
  </match>
  <match target="font"><edit name="family"><string>Never</string></edit></match>
</fontconfig>"#;

    fn config() -> Config {
        let mut c = Config::default();
        c.add_xml(METRIC);
        c
    }

    #[test]
    fn helvetica_reaches_liberation_sans_through_arial() {
        let list = config().substitute("Helvetica");
        assert_eq!(list[0], "helvetica");
        let pos = |f: &str| list.iter().position(|x| x == f).unwrap_or(usize::MAX);
        assert!(pos("tex gyre heros") < pos("arial"), "{list:?}");
        assert!(pos("arial") < pos("liberation sans"), "{list:?}");
        assert!(pos("liberation sans") < pos("dejavu sans"), "{list:?}");
        assert!(
            !list.contains(&"noto sans cjk jp".to_string()),
            "lang is en"
        );
        assert!(
            !list.contains(&"never".to_string()),
            "font-target rules do not apply"
        );
    }

    #[test]
    fn unknown_families_get_the_generic_default() {
        let list = config().substitute("Nonexistent Face");
        assert_eq!(list, vec!["nonexistent face", "dejavu sans", "sans-serif"]);
    }

    #[test]
    fn malformed_xml_adds_nothing() {
        let mut c = Config::default();
        for bad in [
            "<fontconfig><alias>",
            "<fontconfig></alias>",
            "<fontconfig><alias binding=\"same><family>x</family></alias></fontconfig>",
            "<<<>>>",
            "",
            "<fontconfig/>",
        ] {
            c.add_xml(bad);
        }
        assert!(c.rules.is_empty());
        assert_eq!(c.substitute("X"), vec!["x"]);
    }

    #[test]
    fn entities_and_attributes() {
        let n =
            parse_xml("<fontconfig><a k='v &amp; w'>x &lt; y</a></fontconfig>").expect("parses");
        assert_eq!(n.children[0].attr("k"), Some("v & w"));
        assert_eq!(n.children[0].text, "x < y");
    }

    #[test]
    fn assign_replaces_the_matched_family() {
        let mut c = Config::default();
        c.add_xml(
            r#"<fontconfig><match><test name="family"><string>Old</string></test>
            <edit name="family" mode="assign" binding="same"><string>New</string></edit></match></fontconfig>"#,
        );
        assert_eq!(c.substitute("Old"), vec!["new"]);
        assert_eq!(c.substitute("Other"), vec!["other"]);
    }

    #[test]
    fn machine_configuration_aliases_helvetica() {
        let Some(c) = Config::system() else {
            eprintln!("skipped: no /etc/fonts/conf.d");
            return;
        };
        let list = c.substitute("Helvetica");
        assert!(list.contains(&"liberation sans".to_string()), "{list:?}");
    }
}
