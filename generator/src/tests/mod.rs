//! The generator's unit tests that cross stages: a document read (`load`) and lowered
//! (`lower`) to the IR, or rewritten, asserted on the result. Each file owns one reading:
//! 3.1/3.2 (`oas31`, and `oas31_fallbacks` for what falls back with a warning), split
//! documents (`refs`) and Swagger 2.0 (`swagger2`).

mod oas31;
mod oas31_fallbacks;
mod refs;
mod swagger2;
