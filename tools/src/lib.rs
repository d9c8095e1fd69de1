//! `tmk`, Tidemark's rpk-style operations CLI. The binary (`main.rs`) only
//! parses and reports; the modules here are the command tree (`cli`), the
//! rpk `-f` formats (`format`), table/JSON/YAML rendering (`output`),
//! connection settings and profiles (`profile`), the one-line errors
//! (`errors`), signal handling (`interrupt`) and the commands themselves
//! (`commands`).

pub mod admin_api;
pub mod cli;
pub mod commands;
pub mod errors;
pub mod format;
pub mod interrupt;
pub mod output;
pub mod profile;
pub mod spec;
