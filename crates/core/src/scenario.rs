//! Scenario files: set up a position, play actions, check expectations.
