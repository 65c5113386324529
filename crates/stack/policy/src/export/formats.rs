//! [`Formats`]: which model files a bundle holds, read by the writer and by the bundle README
//! (which shows only the examples for the files present).

use super::error::ExportError;

/// Which model files a bundle holds (`contract.json`, `reference.json` and `README.md` always).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formats {
    /// Write `policy.onnx`.
    pub onnx: bool,
    /// Write `policy.safetensors` (needed to load the bundle back in Rust).
    pub safetensors: bool,
}

impl Default for Formats {
    fn default() -> Self {
        Formats { onnx: true, safetensors: true }
    }
}

impl Formats {
    /// Parses `--format` values: `onnx`, `safetensors`, `all` (several may be given).
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<Formats, ExportError> {
        let mut f = Formats { onnx: false, safetensors: false };
        for v in values {
            match v.as_ref().trim().to_ascii_lowercase().as_str() {
                "onnx" => f.onnx = true,
                "safetensors" => f.safetensors = true,
                "all" => f = Formats::default(),
                _ => return Err(ExportError::Format { given: v.as_ref().to_string() }),
            }
        }
        if !f.onnx && !f.safetensors {
            return Err(ExportError::Format { given: String::new() });
        }
        Ok(f)
    }
}
