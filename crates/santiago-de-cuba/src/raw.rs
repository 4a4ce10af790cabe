//! The ruleset as the TOML writes it: strict structs read by the core's derived
//! deserializer (every key they do not name is an error, every problem located), which
//! [`crate::rules::decode`] validates in one step into the typed [`crate::rules::Rules`].
//! Values keep their origin ([`Located`]) for the validation's own messages; ranges, ids,
//! goods named by id and the cross-checks are the validation's.

use crate::choices::{EmptyDemand, OwnerVpWhen, TieBreak};
use rulesmith_core::ruleset::de::{Entries, Located, RulesetMeta};
use serde::Deserialize;

type L<T> = Located<T>;
type Int = L<i64>;
/// A list of ids (`["rum", "cigars"]`).
pub type Ids = L<Vec<L<String>>>;
/// Goods and their counts (`{ sugar = 1, tobacco = 2 }`).
pub type GoodsTable = L<Entries<Int>>;

#[derive(Deserialize)]
pub struct Raw {
    #[serde(rename = "ruleset")]
    pub _ruleset: RulesetMeta,
    pub players: L<Players>,
    pub start: Start,
    pub goods: L<Vec<L<Good>>>,
    pub dice: L<Vec<L<Die>>>,
    pub ship: L<Ship>,
    pub street: Street,
    pub visits: Visits,
    pub scoring: Scoring,
    pub flowers: L<Vec<L<Flower>>>,
    pub citizens: L<Vec<L<Citizen>>>,
    pub buildings: L<Vec<L<Building>>>,
}

#[derive(Deserialize)]
pub struct Players {
    pub min: Int,
    pub max: Int,
    pub property_markers: Int,
}

#[derive(Deserialize)]
pub struct Start {
    pub pesos: Int,
    pub vp: Int,
    pub goods: Option<GoodsTable>,
}

#[derive(Deserialize)]
pub struct Good {
    pub id: L<String>,
    pub supply: Int,
    /// Only a good delivered in place of any demanded good (wood).
    pub substitute_vp: Option<Int>,
}

#[derive(Deserialize)]
pub struct Die {
    pub id: L<String>,
    pub good: L<String>,
    pub faces: L<Vec<Int>>,
}

#[derive(Deserialize)]
pub struct Ship {
    pub dice: Int,
    pub value_track: L<Vec<Int>>,
    pub ships: Int,
    pub empty_demand: EmptyDemand,
}

#[derive(Deserialize)]
pub struct Street {
    pub free_steps: Int,
    pub step_cost: Int,
    pub max_steps: Int,
}

#[derive(Deserialize)]
pub struct Visits {
    pub owner_vp: Int,
    pub owner_vp_when: OwnerVpWhen,
}

#[derive(Deserialize)]
pub struct Scoring {
    pub goods_per_vp: Int,
    pub tiebreaks: Vec<TieBreak>,
}

#[derive(Deserialize)]
pub struct Flower {
    pub id: L<String>,
    pub spaces: Int,
}

#[derive(Deserialize)]
pub struct Citizen {
    pub id: L<String>,
    /// A flower colour's id, or `transparent`.
    pub flower: L<String>,
    pub effect: L<CitizenEffect>,
}

#[derive(Deserialize)]
pub struct Building {
    pub id: L<String>,
    pub effect: L<BuildingEffect>,
}

/// One variant per citizen effect kind; absent pesos, VP and goods of a gain are none.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitizenEffect {
    Gain { pesos: Option<Int>, vp: Option<Int>, goods: Option<GoodsTable> },
    Pickpocket { pesos: Int, vp: Int, goods: Int, except: Option<Ids> },
    ChooseGood { count: Int, except: Option<Ids> },
    Lawyer { claim_occupied: bool },
}

/// One variant per building effect kind.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildingEffect {
    Gain { pesos: Option<Int>, vp: Option<Int>, goods: Option<GoodsTable> },
    Convert { from: L<String>, to: L<String> },
    Exchange { except: Option<Ids> },
    Trade { pay: GoodsTable, pesos: Option<Int>, vp: Option<Int>, goods: Option<GoodsTable> },
    Sell { goods: Ids, vp: Int },
    ClearDie,
    Casino { pesos_per_vp: Int },
    MoveMarker,
    DeliverFixed { vp: Int, except: Option<Ids> },
    Newspaper { pesos: Int, flip_car_citizen: bool },
}
