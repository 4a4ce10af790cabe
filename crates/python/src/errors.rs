//! The package's exceptions (registered on the module in `lib.rs`).

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};

create_exception!(
    _rulesmith,
    RulesetError,
    PyValueError,
    "A ruleset that does not load: every diagnostic, with file:line:col."
);
create_exception!(_rulesmith, ActionError, PyValueError, "An action that is not legal or does not parse.");
create_exception!(_rulesmith, SimulationError, PyRuntimeError, "A simulation that stopped (a game error).");
