//! Actions and their notation.
//!
//! | action | notation | when |
//! |---|---|---|
//! | choose a role | `settler`, `prospector-2` (the role's id) | role selection |
//! | hacienda draw | `draw` | settler, before taking a tile |
//! | take a face-up plantation | `take corn` | settler |
//! | take a quarry | `take quarry` | settler (privilege or construction hut) |
//! | mayor's privilege colonist | `take colonist` | mayor, first |
//! | captain's privilege VP, when declining may change whether the game ends | `take vp` | captain, after the first load |
//! | place colonists on a group | `place 2 on sugar`, `place 1 on quarry`, `place 1 on harbor` | mayor |
//! | build | `build harbor` | builder |
//! | craftsman's privilege good | `bonus sugar` | craftsman, after production |
//! | sell | `sell coffee` | trader |
//! | load a cargo ship | `ship sugar on 7` (the ship's capacity) | captain |
//! | use the wharf | `ship sugar on wharf` | captain |
//! | keep goods at the end of the captain phase | `keep sugar coffee`, `keep sugar + corn`, `keep + corn` | storage |
//! | decline (privilege, tile, building, sale, wharf) | `pass` | where declining is allowed |
//!
//! Actions of the expansion effects (only legal with such buildings in play):
//!
//! | action | notation | when |
//! |---|---|---|
//! | place the hacienda's drawn tile as a plantation | `plant sugar` | settler, after `draw`, when the extension's tile could take its place (a forest) |
//! | return a component to pay the rest of a building | `return colonist from sugar`, `return colonist from san-juan`, `return indigo`, `return vp` | builder, after `build …` short of doubloons (black market) |
//! | sell in one's own trading post | `sell coffee to trading-post` (the building's id) | trader |
//! | start loading one's mixed ship | `use small-wharf` (the building's id) | captain |
//! | barrels of one good on the mixed ship | `load 3 corn` | captain, after `use …` |
//! | the expansion's moves ([`Action::Extension`]): place a forest (tile from the stack / the face-up row / the drawn tile) | `forest`, `forest corn` | settler (forest house) |
//! | … move a guest | `guest to library`, `guest to corn`, `guest to quarry` | start of a phase, before storage (guest house) |
//! | keep exactly these barrels | `keep 3 corn 1 sugar`, `keep nothing` | storage, with extra barrels (storehouse) |

use crate::goods::{ByGood, Good};

/// A colonist group of the mayor phase, in the fixed order players fill them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    Plantation(Good),
    Quarry,
    /// A building of the player's city, by building index.
    Building(u8),
    /// The player's San Juan (colonists not on the board).
    SanJuan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Role(u8),
    Draw,
    Take(Good),
    TakeQuarry,
    TakeColonist,
    /// The captain takes the privilege VP that would take the last VP chips.
    TakeVp,
    Place {
        group: Group,
        count: u8,
    },
    Build(u8),
    Bonus(Good),
    Sell(Good),
    /// Load a cargo ship (by index into the ships).
    Ship {
        good: Good,
        ship: u8,
    },
    Wharf(Good),
    /// Keep every barrel of the kinds in `kinds` (bit per good) and one barrel of `barrel`.
    Keep {
        kinds: u8,
        barrel: Option<Good>,
    },
    Pass,
    /// Place the tile drawn with the hacienda as a plantation (when the extension let its
    /// owner look at it first: it may become a forest instead).
    Plant(Good),
    /// Return a colonist (from this group) to pay for a building.
    ReturnColonist(Group),
    /// Return a good to pay for a building.
    ReturnGood(Good),
    /// Return a VP to pay for a building.
    ReturnVp,
    /// Sell a good in one's own trading post (building index).
    SellPost {
        good: Good,
        building: u8,
    },
    /// Start loading one's mixed ship (building index).
    Use(u8),
    /// Put this many barrels of a good on the mixed ship.
    Load {
        good: Good,
        count: u8,
    },
    /// A move of the ruleset's extension ([`crate::extension`]; the expansion's guests), by
    /// the extension's code.
    Extension(u16),
    /// Keep exactly these barrels at the end of the captain phase.
    KeepExact(ByGood<u8>),
}
