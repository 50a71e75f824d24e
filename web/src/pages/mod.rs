//! The app's pages, one per question a person has: "what sessions do I have?" (home), "how do I
//! start one?" (new session), "what is the team doing?" (session), "where do my keys go?"
//! (settings). Each kind of session has a folder of its own pages (its panels and its
//! new-session form), registered by one line below and described in [`kinds`].

pub mod dialog;
pub mod form;
pub mod home;
pub mod kinds;
pub mod new_session;
pub mod session;
pub mod settings;

// The kinds of session: one line each (see `kinds`).
pub mod autocoding;
pub mod dialectic;
pub mod meeting;
pub mod review;
pub mod team;
