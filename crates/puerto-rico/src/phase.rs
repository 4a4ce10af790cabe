//! Where the game is: the phase, and what each phase's decisions in progress remember
//! between actions. Each phase's part is its own struct, read and written only by that
//! phase's module (`crate::phases::*`); the state's JSON keeps them together under
//! `/pending`, with the keys they always had. What a phase remembers for the whole phase
//! (the hacienda and wharf used, the captain's round, the mayor's placement, the
//! craftsman's kinds) is in a leaf module of the phase itself (`phases::captain::shipping`
//! and the like), its keys at the top of the JSON (`crate::json`).

use crate::goods::{ByGood, Good};
use rulesmith_game::names;
use serde::{Deserialize, Serialize};

// A building index in the state JSON is the building's id (`crate::json` gives the
// ruleset's ids to the serde pass).
names::kinds!(pub(crate) Building = "building");

/// Bits per seat (bit `s` for seat `s`).
pub type SeatSet = u8;

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The player to move chooses a role.
    RoleSelection,
    Settler,
    /// The mayor decides whether to take the privilege colonist.
    MayorPrivilege,
    /// Players place their colonists, one group (plantation kind, quarries, building) at a time.
    Mayor,
    Builder,
    /// The builder, short of doubloons, chooses what to return to pay the rest
    /// ([`crate::rules::Effect::PayWithComponents`]).
    BuildPayment,
    /// The craftsman chooses the privilege good.
    Craftsman,
    Trader,
    Captain,
    /// The captain decides whether to take the privilege VP, when declining it may change
    /// whether the last VP chip goes this round (`Rules::captain_may_decline_last_vp`).
    CaptainPrivilege,
    /// The loader chooses, good by good, what goes on their mixed ship
    /// ([`crate::rules::Effect::MixedShip`]).
    MixedShip,
    /// End of the captain phase: players choose which goods to keep.
    CaptainStorage,
    /// The owner of an occupied hospice or university decides whether to take the
    /// colonist it offers ([`crate::state::State::colonist_offer`]).
    ColonistOffer,
    /// A window of an extension's moves ([`crate::extension`]; the expansion's guests),
    /// one seat after the other from the chooser, before the phase goes on. Named in the
    /// JSON for the one extension there is.
    #[serde(rename = "guest_moves")]
    Window,
    GameOver,
}

/// Where an offered colonist goes: the new tile (hospice), San Juan (hospice with a
/// forest, university with a building without circles), or the new building (university).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Offer {
    Plantation(Good),
    Quarry,
    SanJuan,
    /// A building of the player's city, by building index.
    Building(
        #[serde(serialize_with = "names::write_id::<Building, _>", deserialize_with = "names::read_id::<Building, _>")]
        u8,
    ),
}

/// Decisions in progress that take several actions, one part per phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pending {
    #[serde(flatten)]
    pub settler: Settling,
    #[serde(flatten)]
    pub craftsman: Privilege,
    #[serde(flatten)]
    pub payment: Payment,
    #[serde(flatten)]
    pub mixed: MixedLoad,
    #[serde(flatten)]
    pub window: Window,
    /// The phase a colonist offer interrupted, resumed once the owner has decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<Phase>,
}

/// Settler phase (`phases::settler`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Settling {
    /// The tile drawn with the hacienda, seen and not yet placed (when it may become a
    /// forest instead).
    pub drawn: Option<Good>,
    /// Extra tiles the chooser still takes after everyone else (doubled privilege),
    /// counted when everyone has had a turn (so 0 before then).
    pub settler_extra: u8,
    /// The chooser is taking such an extra tile now.
    pub extra_turn: bool,
}

/// Craftsman phase (`phases::craftsman`): the privilege still to take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Privilege {
    /// Privilege goods the craftsman may still choose.
    pub craftsman_picks: u8,
    /// Barrels the craftsman received this phase, by good.
    pub craftsman_produced: ByGood<u8>,
}

/// Builder phase (`phases::builder`): a building being paid for with returned components.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Payment {
    /// The building being paid for (index; its id in the JSON while the decision is under
    /// way, `null` otherwise: `crate::json`); none outside the payment.
    pub build: Option<u8>,
    /// Doubloons still owed for it.
    pub owed: u8,
    /// What is being returned now (0 colonists, 1 goods, 2 VP), how many of it so far,
    /// and the last source (returns go in source order: one outcome, one path).
    pub pay_stage: u8,
    pub pay_count: u8,
    pub pay_last: u8,
}

/// Captain phase (`phases::captain`): mixed ships.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MixedLoad {
    /// Seats that used their mixed ship this phase.
    pub mixed_used: SeatSet,
    /// The mixed ship being loaded (building index; none outside the loading), the next
    /// good to decide, and the barrels chosen so far.
    pub mixed_building: Option<u8>,
    pub mixed_good: u8,
    pub mixed_load: ByGood<u8>,
}

/// A window of extension moves (`phases::window`), and the extension's place in its own
/// listing on a turn or in a window (JSON keys named for the expansion's guests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Window {
    /// Seats done in this window.
    #[serde(rename = "guests_done")]
    pub done: u8,
    /// Where the window was opened: what comes after it.
    #[serde(rename = "after_guests")]
    pub at: Checkpoint,
    /// The extension's mark in this window or turn (the guests: the rank of the last
    /// target; later moves go to targets of this rank or later, one spelling per outcome).
    #[serde(rename = "guest_floor", default)]
    pub mark: u8,
}

/// Where the sequencer may open a window of extension moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Checkpoint {
    /// Before the chosen role's phase begins (not the mayor's).
    #[default]
    PhaseStart,
    /// After the captain phase's loading, before storage.
    Storage,
}
