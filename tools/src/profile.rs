//! Connection settings: rpk-style profiles saved in one file
//! (`$TMK_CONFIG`, else `~/.config/tmk/tmk.yaml`; a `.toml` file is TOML),
//! and the resolution of what a command connects with: `-X`/`--brokers`
//! flags, then `TMK_BROKERS`, then the chosen or current profile, then the
//! default broker 127.0.0.1:9092.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cli::ConnFlags;
use crate::errors::{Result, TmkError};

pub const DEFAULT_BROKER: &str = "127.0.0.1:9092";
/// The broker's default admin HTTP address (`--admin-addr`).
pub const DEFAULT_ADMIN_HOST: &str = "127.0.0.1:9644";

/// The settings `-X` and profiles hold; every field optional so a profile
/// or a flag can set only part of it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub brokers: Vec<String>,
    /// The brokers' admin HTTP addresses (rpk's `admin.hosts`), for the
    /// commands the Kafka protocol has no API for (maintenance,
    /// decommissioning).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub admin_hosts: Vec<String>,
    /// The admin API's bearer token (the brokers' `TIDEMARK_ADMIN_TOKEN`);
    /// without `-X admin.token` or a profile's, tmk's own
    /// `TIDEMARK_ADMIN_TOKEN` environment variable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admin_token: Option<String>,
    /// The admin API is HTTPS (the brokers' `admin.ssl.enabled`), trusted
    /// with the `tls.*` settings the Kafka connections use (CA, client
    /// certificate, insecure_skip_verify).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub admin_tls: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls: Option<Tls>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sasl: Option<Sasl>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Tls {
    pub enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ca: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cert: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<PathBuf>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub insecure_skip_verify: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Sasl {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mechanism: Option<String>,
}

/// The keys `-X` and `profile create -s` take.
pub const KEYS: &[&str] = &[
    "brokers",
    "admin.hosts",
    "admin.token",
    "admin.tls.enabled",
    "tls.enabled",
    "tls.ca",
    "tls.cert",
    "tls.key",
    "tls.insecure_skip_verify",
    "user",
    "pass",
    "sasl.mechanism",
];

fn parse_bool(key: &str, v: &str) -> Result<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        _ => {
            Err(TmkError::msg(format!("-X {key}={v}: not a boolean"))
                .with_hint("use true or false"))
        }
    }
}

impl Settings {
    /// Applies one `key=value`.
    pub fn apply(&mut self, kv: &str) -> Result<()> {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(TmkError::msg(format!("-X {kv}: expected key=value"))
                .with_hint(format!("keys: {}", KEYS.join(", "))));
        };
        let (k, v) = (k.trim(), v.trim());
        match k {
            "brokers" => {
                self.brokers = v
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            }
            "admin.hosts" => {
                self.admin_hosts = v
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            }
            "admin.token" => self.admin_token = Some(v.to_string()).filter(|t| !t.is_empty()),
            "admin.tls.enabled" => self.admin_tls = parse_bool(k, v)?,
            "tls.enabled" => self.tls.get_or_insert_with(Tls::default).enabled = parse_bool(k, v)?,
            "tls.ca" | "tls.cert" | "tls.key" => {
                let t = self.tls.get_or_insert_with(Tls::default);
                t.enabled = true;
                let p = Some(PathBuf::from(v));
                match k {
                    "tls.ca" => t.ca = p,
                    "tls.cert" => t.cert = p,
                    _ => t.key = p,
                }
            }
            "tls.insecure_skip_verify" => {
                let t = self.tls.get_or_insert_with(Tls::default);
                t.insecure_skip_verify = parse_bool(k, v)?;
                t.enabled |= t.insecure_skip_verify;
            }
            "user" => self.sasl.get_or_insert_with(Sasl::default).user = Some(v.to_string()),
            "pass" => self.sasl.get_or_insert_with(Sasl::default).pass = Some(v.to_string()),
            "sasl.mechanism" => {
                self.sasl.get_or_insert_with(Sasl::default).mechanism = Some(v.to_string())
            }
            _ => {
                return Err(TmkError::msg(format!("-X {kv}: unknown key {k:?}"))
                    .with_hint(format!("keys: {}", KEYS.join(", "))));
            }
        }
        Ok(())
    }

    /// `other` over `self`, field by field.
    pub fn overlay(&mut self, other: &Settings) {
        if !other.brokers.is_empty() {
            self.brokers = other.brokers.clone();
        }
        if !other.admin_hosts.is_empty() {
            self.admin_hosts = other.admin_hosts.clone();
        }
        if other.admin_tls {
            self.admin_tls = true;
        }
        if other.admin_token.is_some() {
            self.admin_token = other.admin_token.clone();
        }
        if let Some(t) = &other.tls {
            let mine = self.tls.get_or_insert_with(Tls::default);
            mine.enabled |= t.enabled;
            mine.insecure_skip_verify |= t.insecure_skip_verify;
            for (m, o) in [
                (&mut mine.ca, &t.ca),
                (&mut mine.cert, &t.cert),
                (&mut mine.key, &t.key),
            ] {
                if o.is_some() {
                    *m = o.clone();
                }
            }
        }
        if let Some(s) = &other.sasl {
            let mine = self.sasl.get_or_insert_with(Sasl::default);
            for (m, o) in [
                (&mut mine.user, &s.user),
                (&mut mine.pass, &s.pass),
                (&mut mine.mechanism, &s.mechanism),
            ] {
                if o.is_some() {
                    *m = o.clone();
                }
            }
        }
    }
}

/// One saved profile.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Profile {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(flatten)]
    pub settings: Settings,
}

/// The profile file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProfileFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_profile: Option<String>,
    pub profiles: Vec<Profile>,
}

fn is_toml(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "toml")
}

/// Where profiles live: `--config`/`$TMK_CONFIG`, else ~/.config/tmk/tmk.yaml.
pub fn path(flag: Option<&Path>) -> PathBuf {
    if let Some(p) = flag {
        return p.to_path_buf();
    }
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("tmk").join("tmk.yaml")
}

impl ProfileFile {
    /// Loads the file; a missing file is an empty one.
    pub fn load(p: &Path) -> Result<ProfileFile> {
        let text = match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ProfileFile::default()),
            Err(e) => return Err(TmkError::msg(format!("reading {}: {e}", p.display()))),
        };
        let parsed = if is_toml(p) {
            toml::from_str(&text).map_err(|e| e.to_string())
        } else {
            serde_yaml::from_str(&text).map_err(|e| e.to_string())
        };
        parsed.map_err(|e| {
            TmkError::msg(format!("parsing {}: {e}", p.display()))
                .with_hint("fix the file, or `tmk profile edit`")
        })
    }

    /// Writes the file (creating its folder), readable by its owner only:
    /// it may hold SASL passwords.
    pub fn save(&self, p: &Path) -> Result<()> {
        let text = if is_toml(p) {
            toml::to_string_pretty(self)
                .map_err(|e| TmkError::msg(format!("encoding {}: {e}", p.display())))?
        } else {
            serde_yaml::to_string(self)
                .map_err(|e| TmkError::msg(format!("encoding {}: {e}", p.display())))?
        };
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| TmkError::msg(format!("creating {}: {e}", dir.display())))?;
        }
        let tmp = p.with_extension("tmp");
        std::fs::write(&tmp, text)
            .map_err(|e| TmkError::msg(format!("writing {}: {e}", tmp.display())))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600));
        }
        std::fs::rename(&tmp, p).map_err(|e| TmkError::msg(format!("writing {}: {e}", p.display())))
    }

    pub fn get(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.name == name)
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Profile> {
        self.profiles.iter_mut().find(|p| p.name == name)
    }
}

/// What a command connects with, all layers applied.
pub fn resolve(flags: &ConnFlags) -> Result<Settings> {
    let file = ProfileFile::load(&path(flags.config.as_deref()))?;
    let mut s = Settings::default();
    let chosen = flags
        .profile
        .clone()
        .or_else(|| file.current_profile.clone());
    if let Some(name) = chosen {
        match file.get(&name) {
            Some(p) => s.overlay(&p.settings),
            None if flags.profile.is_some() => {
                return Err(TmkError::msg(format!("profile {name:?} does not exist"))
                    .with_hint("`tmk profile list` shows them"));
            }
            None => {}
        }
    }
    // --brokers and TMK_BROKERS (clap merges the two) over the profile,
    // then -X over everything.
    if !flags.brokers.is_empty() {
        s.brokers = flags.brokers.clone();
    }
    for kv in &flags.x {
        s.apply(kv)?;
    }
    if s.brokers.is_empty() {
        s.brokers = vec![DEFAULT_BROKER.to_string()];
    }
    if s.admin_hosts.is_empty() {
        s.admin_hosts = vec![DEFAULT_ADMIN_HOST.to_string()];
    }
    if s.admin_token.is_none() {
        s.admin_token = std::env::var("TIDEMARK_ADMIN_TOKEN")
            .ok()
            .filter(|t| !t.is_empty());
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_keys() {
        let mut s = Settings::default();
        for kv in [
            "brokers=a:1, b:2",
            "tls.ca=/ca.pem",
            "user=u",
            "pass=p",
            "sasl.mechanism=SCRAM-SHA-256",
            "admin.token=t0k",
        ] {
            s.apply(kv).unwrap();
        }
        assert_eq!(s.brokers, ["a:1", "b:2"]);
        assert_eq!(s.admin_token.as_deref(), Some("t0k"));
        let t = s.tls.clone().unwrap();
        assert!(t.enabled);
        assert_eq!(t.ca.as_deref(), Some(Path::new("/ca.pem")));
        assert_eq!(s.sasl.as_ref().unwrap().user.as_deref(), Some("u"));
        assert!(s.apply("nope=1").is_err());
        assert!(s.apply("brokers").is_err());
        assert!(s.apply("tls.enabled=maybe").is_err());
    }

    fn roundtrip(name: &str) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(name);
        let mut f = ProfileFile {
            current_profile: Some("prod".into()),
            ..Default::default()
        };
        let mut s = Settings::default();
        s.apply("brokers=h:9092").unwrap();
        s.apply("tls.enabled=true").unwrap();
        s.apply("user=alice").unwrap();
        f.profiles.push(Profile {
            name: "prod".into(),
            description: Some("d".into()),
            settings: s,
        });
        f.save(&p).unwrap();
        assert_eq!(ProfileFile::load(&p).unwrap(), f);
    }

    #[test]
    fn yaml_and_toml_files() {
        roundtrip("tmk.yaml");
        roundtrip("tmk.toml");
    }

    #[test]
    fn layering() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tmk.yaml");
        let mut s = Settings::default();
        s.apply("brokers=prof:1").unwrap();
        s.apply("user=alice").unwrap();
        let f = ProfileFile {
            current_profile: Some("p".into()),
            profiles: vec![Profile {
                name: "p".into(),
                description: None,
                settings: s,
            }],
        };
        f.save(&p).unwrap();
        let flags = ConnFlags {
            config: Some(p.clone()),
            ..Default::default()
        };
        assert_eq!(resolve(&flags).unwrap().brokers, ["prof:1"]);
        let flags = ConnFlags {
            config: Some(p.clone()),
            brokers: vec!["flag:2".into()],
            ..Default::default()
        };
        assert_eq!(resolve(&flags).unwrap().brokers, ["flag:2"]);
        let flags = ConnFlags {
            config: Some(p.clone()),
            brokers: vec!["flag:2".into()],
            x: vec!["brokers=x:3".into()],
            ..Default::default()
        };
        let r = resolve(&flags).unwrap();
        assert_eq!(r.brokers, ["x:3"]);
        assert_eq!(r.sasl.unwrap().user.as_deref(), Some("alice"));
        let flags = ConnFlags {
            config: Some(dir.path().join("none.yaml")),
            ..Default::default()
        };
        assert_eq!(resolve(&flags).unwrap().brokers, [DEFAULT_BROKER]);
        let flags = ConnFlags {
            config: Some(p),
            profile: Some("missing".into()),
            ..Default::default()
        };
        assert!(resolve(&flags).is_err());
    }
}
