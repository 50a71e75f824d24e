//! Roundtable's browser app: runs team sessions of LLM agents in the page, keeps them in
//! IndexedDB, and shows what every member saw and said. The engine is `roundtable-core`; this
//! crate performs its calls, stores its events and draws its state.

mod app;
mod dialog;
mod locks;
mod markdown;
mod offline;
mod pages;
mod providers;
mod route;
mod runner;
mod sandbox;
mod sessions;
mod share;
mod storage;
mod transfer;
mod util;

fn main() {
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(app::App);
}
