//! The verdict run.
