//! What an implementation adds to its table library's write path, declared beside its code and
//! measured from it: kill condition 4 ("owns more than a trait's worth of the write path").
//!
//! An arm declares its [`Footprint`]: the one [`ExtensionPoint`] its check rides on (none for an
//! arm that does not guard its commit) and the source files that exist to carry it. The kill
//! list [measures](Footprint::measure) those files: their lines of code, every extension point
//! whose markers they show, and whether they build a commit's internals themselves. Each format
//! crate tests that every declaration agrees with its code: the declared point is the one the
//! files show, and every file of the crate that shows a point's markers is declared by an arm.

/// A hook of a table library that an implementation can carry its check in, and the source text
/// that shows a file uses it.
#[derive(Debug, PartialEq, Eq)]
pub struct ExtensionPoint {
    pub name: &'static str,
    pub markers: &'static [&'static str],
}

/// A source file as it was compiled: its path from the workspace root, and its text.
#[derive(Clone, Copy, Debug)]
pub struct SourceFile {
    pub path: &'static str,
    pub text: &'static str,
}

/// What an arm declares it adds to carry its check.
#[derive(Clone, Copy, Debug)]
pub struct Footprint {
    pub extension_point: Option<&'static ExtensionPoint>,
    pub files: &'static [SourceFile],
}

/// What a footprint's files hold, read from their text.
#[derive(Debug, PartialEq, Eq)]
pub struct Measured {
    pub files: Vec<&'static str>,
    /// Lines that are neither blank nor comments, tests excluded.
    pub code_lines: usize,
    /// The extension points of `points` whose markers the files show.
    pub extension_points: Vec<&'static str>,
    /// The write-path internals of `internals` the files name.
    pub internals: Vec<&'static str>,
}

impl Footprint {
    /// Reads the declared files for every one of `points` and `internals`.
    pub fn measure(&self, points: &[&'static ExtensionPoint], internals: &[&'static str]) -> Measured {
        let lines: Vec<&str> = self.files.iter().flat_map(|file| code(file.text)).collect();
        let names = |holds: &dyn Fn(&str) -> bool| lines.iter().any(|line| holds(line));
        Measured {
            files: self.files.iter().map(|file| file.path).collect(),
            code_lines: lines.len(),
            extension_points: points
                .iter()
                .filter(|point| names(&|line| point.markers.iter().any(|m| line.contains(m))))
                .map(|point| point.name)
                .collect(),
            internals: internals.iter().copied().filter(|item| names(&|line| line.contains(item))).collect(),
        }
    }
}

impl ExtensionPoint {
    /// Whether a line of code in `text` shows this point's markers.
    pub fn shown_in(&self, text: &str) -> bool {
        code(text).any(|line| self.markers.iter().any(|m| line.contains(m)))
    }
}

/// The lines of `source` that are code: no blank lines, no comments, nothing from `#[cfg(test)]` on.
fn code(source: &str) -> impl Iterator<Item = &str> {
    source
        .lines()
        .map(str::trim)
        .take_while(|line| *line != "#[cfg(test)]")
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACTION: ExtensionPoint = ExtensionPoint { name: "`TransactionAction`", markers: &["TransactionAction for"] };
    const DECORATOR: ExtensionPoint = ExtensionPoint { name: "`Catalog` decorator", markers: &["impl Catalog for"] };
    const ASSERT: ExtensionPoint = ExtensionPoint { name: "assert", markers: &[".assert_ref_snapshot_id("] };

    fn footprint(files: &'static [SourceFile]) -> Footprint {
        Footprint { extension_point: None, files }
    }

    #[test]
    fn counts_code_lines_extension_points_and_internals() {
        const ONE: &[SourceFile] =
            &[SourceFile { path: "a.rs", text: "impl TransactionAction for X {}\n// impl Catalog for Y\n" }];
        let one = footprint(ONE).measure(&[&ACTION, &DECORATOR], &[]);
        assert_eq!(one.extension_points, vec!["`TransactionAction`"]);
        assert_eq!(one.code_lines, 1);
        const TWO: &[SourceFile] = &[
            SourceFile { path: "a.rs", text: "impl Catalog for Y {}\n" },
            SourceFile { path: "b.rs", text: "tx.assert_ref_snapshot_id(r)\n" },
        ];
        assert_eq!(footprint(TWO).measure(&[&ACTION, &DECORATOR, &ASSERT], &[]).extension_points.len(), 2);
        const OWNS: &[SourceFile] =
            &[SourceFile { path: "a.rs", text: "let c = TableCommit::builder();\n#[cfg(test)]\nManifestWriter\n" }];
        let owns = footprint(OWNS).measure(&[], &["TableCommit::builder", "ManifestWriter"]);
        assert_eq!(owns.internals, vec!["TableCommit::builder"]);
        assert!(!DECORATOR.shown_in(ONE[0].text), "a comment shows nothing");
    }
}
