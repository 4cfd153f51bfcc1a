//! Generic test bodies.
