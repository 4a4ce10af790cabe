//! The kinds of role card: which phase a role starts.

use serde::Deserialize;

/// What breaks a tie in VP, in the order the `[scoring] tiebreaks` list gives: the
/// rulebook's one key is doubloons plus goods, a barrel worth a doubloon (S000:L429).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Doubloons plus barrels held.
    DoubloonsAndGoods,
    Doubloons,
    /// Barrels held.
    Goods,
    /// Colonists on the board and on San Juan.
    Colonists,
    /// Buildings in the city.
    Buildings,
}

/// A role's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoleKind {
    Settler,
    Mayor,
    Builder,
    Craftsman,
    Trader,
    Captain,
    Prospector,
}

impl RoleKind {
    /// Bit of this kind in role masks ([`crate::rules::Effect::DoublePrivilege`]).
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    pub const NAMES: [&'static str; 7] =
        ["settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"];
    pub const ALL: [RoleKind; 7] = [
        RoleKind::Settler,
        RoleKind::Mayor,
        RoleKind::Builder,
        RoleKind::Craftsman,
        RoleKind::Trader,
        RoleKind::Captain,
        RoleKind::Prospector,
    ];
}
