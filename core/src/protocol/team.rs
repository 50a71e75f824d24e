//! The team session of specs `000` and `003` as a state machine (being written).
