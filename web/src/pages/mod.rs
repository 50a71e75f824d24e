//! The app's pages, one per question a person has: "what sessions do I have?" (home), "how do I
//! start one?" (new session), "what is the team doing?" (session), "where do my keys go?"
//! (settings).

pub mod dialog;
pub mod form;
pub mod home;
pub mod new_dialectic;
pub mod new_meeting;
pub mod new_session;
pub mod session;
pub mod settings;
