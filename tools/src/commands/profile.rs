//! `tmk profile`: saved connection settings, as rpk profiles. Needs no
//! broker: everything here reads and writes the profile file.

use serde::Serialize;

use crate::cli::{ConnFlags, ProfileCmd};
use crate::errors::{Result, TmkError};
use crate::output::{Table, emit, write_stdout};
use crate::profile::{Profile, ProfileFile, path};

pub fn run(conn: &ConnFlags, cmd: ProfileCmd) -> Result<()> {
    let p = path(conn.config.as_deref());
    let mut file = ProfileFile::load(&p)?;
    match cmd {
        ProfileCmd::Create(c) => {
            if file.get(&c.name).is_some() {
                return Err(
                    TmkError::msg(format!("profile {:?} already exists", c.name)).with_hint(
                        "`tmk profile edit` changes it, `tmk profile delete` removes it",
                    ),
                );
            }
            let mut prof = match &c.from_profile {
                Some(from) => file
                    .get(from)
                    .cloned()
                    .ok_or_else(|| TmkError::msg(format!("profile {from:?} does not exist")))?,
                None => Profile::default(),
            };
            prof.name = c.name.clone();
            if c.description.is_some() {
                prof.description = c.description;
            }
            for kv in &c.set {
                prof.settings.apply(kv)?;
            }
            file.profiles.push(prof);
            file.current_profile = Some(c.name.clone());
            file.save(&p)?;
            write_stdout(
                format!(
                    "Created and switched to profile {:?} in {}.\n",
                    c.name,
                    p.display()
                )
                .as_bytes(),
            )
        }
        ProfileCmd::Use { name } => {
            if file.get(&name).is_none() {
                return Err(TmkError::msg(format!("profile {name:?} does not exist"))
                    .with_hint("`tmk profile list` shows them"));
            }
            file.current_profile = Some(name.clone());
            file.save(&p)?;
            write_stdout(format!("Switched to profile {name:?}.\n").as_bytes())
        }
        ProfileCmd::List(o) => {
            #[derive(Serialize)]
            struct Row<'a> {
                name: &'a str,
                current: bool,
                brokers: &'a [String],
                description: &'a str,
            }
            let cur = file.current_profile.as_deref();
            let rows: Vec<Row> = file
                .profiles
                .iter()
                .map(|p| Row {
                    name: &p.name,
                    current: Some(p.name.as_str()) == cur,
                    brokers: &p.settings.brokers,
                    description: p.description.as_deref().unwrap_or(""),
                })
                .collect();
            emit(o.out.format, &rows, |w| {
                let mut t = Table::new(&["name", "brokers", "description"]);
                for r in &rows {
                    let name = if r.current {
                        format!("{}*", r.name)
                    } else {
                        r.name.to_string()
                    };
                    t.row([name, r.brokers.join(","), r.description.to_string()]);
                }
                t.render(w)
            })
        }
        ProfileCmd::Edit(e) => {
            let name = e
                .name
                .or_else(|| file.current_profile.clone())
                .ok_or_else(|| {
                    TmkError::msg("no profile given and none is current")
                        .with_hint("name one: `tmk profile edit NAME`")
                })?;
            let prof = file
                .get_mut(&name)
                .ok_or_else(|| TmkError::msg(format!("profile {name:?} does not exist")))?;
            if e.set.is_empty() {
                *prof = edit_in_editor(prof)?;
                prof.name = name.clone();
            } else {
                for kv in &e.set {
                    prof.settings.apply(kv)?;
                }
            }
            file.save(&p)?;
            write_stdout(format!("Updated profile {name:?}.\n").as_bytes())
        }
        ProfileCmd::Delete { name } => {
            let before = file.profiles.len();
            file.profiles.retain(|p| p.name != name);
            if file.profiles.len() == before {
                return Err(TmkError::msg(format!("profile {name:?} does not exist")));
            }
            if file.current_profile.as_deref() == Some(&name) {
                file.current_profile = None;
            }
            file.save(&p)?;
            write_stdout(format!("Deleted profile {name:?}.\n").as_bytes())
        }
        ProfileCmd::Current { no_newline } => {
            let name = file.current_profile.ok_or_else(|| {
                TmkError::msg("no current profile").with_hint("`tmk profile use NAME` picks one")
            })?;
            write_stdout(
                if no_newline {
                    name
                } else {
                    format!("{name}\n")
                }
                .as_bytes(),
            )
        }
    }
}

/// Opens the profile as YAML in $EDITOR (else vi) and reads it back.
fn edit_in_editor(prof: &Profile) -> Result<Profile> {
    let dir = std::env::temp_dir().join(format!("tmk-edit-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let f = dir.join("profile.yaml");
    let text =
        serde_yaml::to_string(prof).map_err(|e| TmkError::msg(format!("encoding profile: {e}")))?;
    std::fs::write(&f, text)?;
    let editor = std::env::var("EDITOR").unwrap_or_else(|_| "vi".into());
    let status = std::process::Command::new(&editor)
        .arg(&f)
        .status()
        .map_err(|e| {
            TmkError::msg(format!("running editor {editor:?}: {e}"))
                .with_hint("set $EDITOR, or use -s key=value")
        })?;
    if !status.success() {
        return Err(TmkError::msg(format!(
            "editor {editor:?} failed; profile unchanged"
        )));
    }
    let back = std::fs::read_to_string(&f)?;
    let _ = std::fs::remove_dir_all(&dir);
    serde_yaml::from_str(&back)
        .map_err(|e| TmkError::msg(format!("parsing the edited profile: {e}")))
}
