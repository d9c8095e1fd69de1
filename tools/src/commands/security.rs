//! placeholder
use crate::cli::ConnFlags;
use crate::errors::{Result, TmkError};
pub fn run(_conn: &ConnFlags, _cmd: impl std::fmt::Debug) -> Result<()> {
    Err(TmkError::msg("not yet"))
}
