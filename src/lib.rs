//! rulesmith
