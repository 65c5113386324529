//! `sabacc play`: the play server with its web page, and the address to open in a browser.

/// Arguments of `sabacc play`. Its argument group needs an id of its own: by default clap names
/// it after the struct, the same name as the flattened `serve` arguments, and the clash panics
/// in debug builds.
#[derive(clap::Args)]
#[group(id = "play")]
pub struct Args {
    #[command(flatten)]
    serve: crate::cmd_serve::Args,
    /// Also open the page in the default browser (`xdg-open` / `open`).
    #[arg(long)]
    open: bool,
}

/// Runs `sabacc play` until Ctrl-C.
pub fn run(a: Args) -> anyhow::Result<()> {
    let running = a.serve.start()?;
    let url = format!("http://{}/", running.addr());
    println!("play in your browser: {url}  (Ctrl-C stops)");
    if a.open {
        let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
        if let Err(e) = std::process::Command::new(opener).arg(&url).spawn() {
            eprintln!("warning: cannot open a browser with {opener} ({e}); open {url} yourself");
        }
    }
    running.wait_for_ctrl_c()?;
    Ok(())
}
