//! `registry!`: an enum whose variants are a registry's entries, each with its spec, so that an
//! entry is one line of code and the compiler finds every use of it. The entry's name, as the
//! tests, command lines and JSON spell it, is its spec's `name`: the one place it is written.

/// Defines `enum NAME` with one unit variant per entry, `NAME::ALL` (every entry, in order),
/// `NAME::spec(self) -> &'static SPEC`, and the name both ways (`name`, `named`), as `Display`
/// and as `Serialize` and `Deserialize` (a saved run's results name entries so).
macro_rules! registry {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident: $spec:ty {
            $($(#[$entry_meta:meta])* $entry:ident => $value:expr,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $($(#[$entry_meta])* $entry,)+
        }

        impl $name {
            /// Every entry, in the registry's order.
            pub const ALL: &'static [$name] = &[$($name::$entry,)+];

            /// What the registry says of this entry.
            pub fn spec(self) -> &'static $spec {
                match self {
                    $($name::$entry => {
                        const SPEC: $spec = $value;
                        &SPEC
                    })+
                }
            }

            pub fn name(self) -> &'static str {
                self.spec().name
            }

            /// The entry named `name`, if there is one.
            pub fn named(name: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|entry| entry.name() == name)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let name = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                $name::named(&name).ok_or_else(|| serde::de::Error::custom(format!("no {} named {name}", stringify!($name))))
            }
        }
    };
}

pub(crate) use registry;
