//! The ruleset as the TOML writes it: strict structs read by the core's derived
//! deserializer (every key they do not name is an error, every problem located), which
//! [`crate::rules::decode`] validates in one step into the typed [`crate::rules::Rules`].
//! Numbers declare their range ([`Int`]: checked, and named when missing); values keep
//! their origin for the validation's own messages; ids, goods named by id, ranges the
//! ruleset decides and the cross-checks are the validation's.

use crate::choices::{EmptyDemand, OwnerVpWhen, TieBreak};
use crate::limits::{MAX_BUILDINGS, MAX_DICE};
use rulesmith_core::MAX_PLAYERS;
use rulesmith_core::ruleset::de::{Entries, Int, Located, RulesetMeta};
use serde::Deserialize;

type L<T> = Located<T>;
/// A small amount: pesos, VP or goods of an effect.
pub type Amount = Int<0, 20>;
/// A list of ids (`["rum", "cigars"]`).
pub type Ids = L<Vec<L<String>>>;
/// Goods and their counts (`{ sugar = 1, tobacco = 2 }`).
pub type GoodsTable = L<Entries<Int<0, 50>>>;

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
    pub min: Int<1, { MAX_PLAYERS as i64 }>,
    pub max: Int<1, { MAX_PLAYERS as i64 }>,
    pub property_markers: Int<0, 16>,
}

#[derive(Deserialize)]
pub struct Start {
    pub pesos: Int<0, 1000>,
    pub vp: Int<0, 1000>,
    pub goods: Option<GoodsTable>,
}

#[derive(Deserialize)]
pub struct Good {
    pub id: L<String>,
    pub supply: Int<0, 200>,
    /// Only a good delivered in place of any demanded good (wood).
    pub substitute_vp: Option<Amount>,
}

#[derive(Deserialize)]
pub struct Die {
    pub id: L<String>,
    pub good: L<String>,
    pub faces: L<Vec<Int<0, 20>>>,
}

#[derive(Deserialize)]
pub struct Ship {
    pub dice: Int<1, { MAX_DICE as i64 }>,
    pub value_track: L<Vec<Int<0, 50>>>,
    pub ships: Int<1, 50>,
    pub empty_demand: EmptyDemand,
}

#[derive(Deserialize)]
pub struct Street {
    pub free_steps: Int<0, 20>,
    pub step_cost: Int<0, 20>,
    /// At most the citizens' count: checked with them.
    pub max_steps: L<i64>,
}

#[derive(Deserialize)]
pub struct Visits {
    pub owner_vp: Int<0, 20>,
    pub owner_vp_when: OwnerVpWhen,
}

#[derive(Deserialize)]
pub struct Scoring {
    pub goods_per_vp: Int<0, 20>,
    pub tiebreaks: Vec<TieBreak>,
}

#[derive(Deserialize)]
pub struct Flower {
    pub id: L<String>,
    pub spaces: Int<1, { MAX_BUILDINGS as i64 }>,
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
    Gain { pesos: Option<Int<0, 50>>, vp: Option<Int<0, 50>>, goods: Option<GoodsTable> },
    Pickpocket { pesos: Amount, vp: Amount, goods: Amount, except: Option<Ids> },
    ChooseGood { count: Int<1, 20>, except: Option<Ids> },
    Lawyer { claim_occupied: bool },
}

/// One variant per building effect kind.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildingEffect {
    Gain { pesos: Option<Int<0, 50>>, vp: Option<Int<0, 50>>, goods: Option<GoodsTable> },
    Convert { from: L<String>, to: L<String> },
    Exchange { except: Option<Ids> },
    Trade { pay: GoodsTable, pesos: Option<Int<0, 50>>, vp: Option<Int<0, 50>>, goods: Option<GoodsTable> },
    Sell { goods: Ids, vp: Amount },
    ClearDie,
    Casino { pesos_per_vp: Int<1, 20> },
    MoveMarker,
    DeliverFixed { vp: Amount, except: Option<Ids> },
    Newspaper { pesos: Amount, flip_car_citizen: bool },
}
