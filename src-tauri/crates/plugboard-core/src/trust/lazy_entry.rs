//! One entry of a file that holds many, parsed only when it is asked for and written back as it was read when it
//! was not: a call of one server reads the pins of every server a person has (half a megabyte for 50), and only
//! one of them matters to it. It must never write an untouched entry other than as it was read, nor keep an entry's
//! damage from whoever asks for that entry.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

#[derive(Debug)]
pub(super) enum LazyEntry<T> {
    /// As the file has it, not looked into yet.
    Raw(Box<RawValue>),
    Parsed(T),
}

impl<T: DeserializeOwned + Clone> LazyEntry<T> {
    /// The entry, parsed the first time it is asked for.
    pub(super) fn get_mut(&mut self) -> Result<&mut T, serde_json::Error> {
        if let LazyEntry::Raw(raw) = self {
            *self = LazyEntry::Parsed(serde_json::from_str(raw.get())?);
        }
        Ok(match self {
            LazyEntry::Parsed(value) => value,
            LazyEntry::Raw(_) => unreachable!("an entry not parsed yet was parsed just above"),
        })
    }

    /// A parsed copy of the entry, leaving it as it is.
    pub(super) fn to_parsed(&self) -> Result<T, serde_json::Error> {
        match self {
            LazyEntry::Raw(raw) => serde_json::from_str(raw.get()),
            LazyEntry::Parsed(value) => Ok(value.clone()),
        }
    }
}

impl<T: Serialize> Serialize for LazyEntry<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            LazyEntry::Raw(raw) => raw.serialize(serializer),
            LazyEntry::Parsed(value) => value.serialize(serializer),
        }
    }
}

impl<'de, T> Deserialize<'de> for LazyEntry<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(LazyEntry::Raw)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;

    type Entries = BTreeMap<String, LazyEntry<BTreeMap<String, u32>>>;

    /// An entry nobody asked for is written back byte for byte (odd spacing and all); one that was asked for and
    /// changed is written as changed.
    #[test]
    fn untouched_entries_are_written_as_they_were_read() {
        let text = r#"{"a":{"x":1},"b":{ "y" :  2 }}"#;
        let mut entries: Entries = serde_json::from_str(text).expect("read");
        entries.get_mut("a").expect("a").get_mut().expect("parsed").insert("z".into(), 3);
        assert_eq!(serde_json::to_string(&entries).expect("written"), r#"{"a":{"x":1,"z":3},"b":{ "y" :  2 }}"#);
    }

    /// A damaged entry is an error for whoever asks for it, and only for them; it stays in the file as it was.
    #[test]
    fn a_damaged_entry_fails_only_its_reader_and_is_kept() {
        let text = json!({ "good": { "x": 1 }, "bad": "not a map" }).to_string();
        let mut entries: Entries = serde_json::from_str(&text).expect("the file as a whole is well-formed");
        assert_eq!(entries.get("good").expect("good").to_parsed().expect("parsed")["x"], 1);
        assert!(entries.get_mut("bad").expect("bad").get_mut().is_err());
        assert!(entries.get("bad").expect("bad").to_parsed().is_err());
        let written = serde_json::to_string(&entries).expect("written");
        assert!(written.contains(r#""bad":"not a map""#), "{written}");
    }
}
