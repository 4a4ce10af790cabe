//! The ruleset as the TOML writes it: strict structs read by the core's derived
//! deserializer (every key they do not name is an error, every problem located), which
//! [`crate::rules::decode`] validates in one step into the typed [`crate::rules::Rules`].
//! Numbers keep their origin ([`Located`]) for the validation's own messages; ranges,
//! cross-references and the cross-checks are the validation's.

use crate::limits::{MAX_PLAYERS, MAX_SPACES, MAX_TRADING_HOUSE};
use rulesmith_core::ruleset::Origin;
use rulesmith_core::ruleset::de::{self, Entries, Int, Located, RulesetMeta};
use serde::Deserialize;

type L<T> = Located<T>;
type Ints = L<Vec<L<i64>>>;
/// A small amount: doubloons, VP, goods (0 to 99).
type Small = Int<0, 99>;
type Spaces = Int<1, { MAX_SPACES as i64 }>;
type Names = L<Vec<L<String>>>;
/// A table by player count (`{ 2 = 3, 3 = 4 }`).
pub type PerCount<T> = L<Entries<T>>;

#[derive(Deserialize)]
pub struct Raw {
    #[serde(rename = "ruleset")]
    pub _ruleset: RulesetMeta,
    pub players: L<Players>,
    pub board: Board,
    /// One table per good, in the order the goods have everywhere (`[goods.corn]` …).
    pub goods: L<Entries<L<Good>>>,
    pub setup: L<Setup>,
    pub rules: RulesTable,
    pub scoring: Scoring,
    pub roles: L<Vec<L<Role>>>,
    pub buildings: L<Vec<L<Building>>>,
}

#[derive(Deserialize)]
pub struct Players {
    pub min: Int<1, { MAX_PLAYERS as i64 }>,
    pub max: Int<1, { MAX_PLAYERS as i64 }>,
}

#[derive(Deserialize)]
pub struct Board {
    pub island_spaces: Spaces,
    pub city_spaces: Spaces,
}

#[derive(Deserialize)]
pub struct Good {
    pub price: Small,
    /// Whether producing it needs an occupied production building (S000:L472: corn not).
    pub needs_building: bool,
    /// Its colour on the play screen.
    pub colour: crate::goods::Colour,
    pub barrels: PerCount<L<i64>>,
    pub plantations: PerCount<L<i64>>,
}

#[derive(Deserialize)]
pub struct Setup {
    pub quarries: PerCount<L<i64>>,
    pub colonists_supply: PerCount<L<i64>>,
    pub colonists_ship: PerCount<L<i64>>,
    pub doubloons: PerCount<L<i64>>,
    pub roles_per_round: PerCount<L<i64>>,
    pub vp_chips: PerCount<L<i64>>,
    pub starting_plantations: PerCount<Names>,
    pub ships: PerCount<Ints>,
    pub face_up_extra: Int<0, 10>,
}

/// The `[scoring]` table.
#[derive(Deserialize)]
pub struct Scoring {
    /// Tie-break keys after VP, in order (at most one of each).
    pub tiebreaks: L<Vec<crate::role_kind::TieBreak>>,
}

/// The `[rules]` table.
#[derive(Deserialize)]
pub struct RulesTable {
    pub coins_on_unchosen_roles: Int<0, 10>,
    pub trading_house_spaces: Int<1, { MAX_TRADING_HOUSE as i64 }>,
    pub free_barrels: Int<0, 1>,
    pub ship_refill_minimum_per_player: Int<0, 10>,
    pub captain_may_decline_last_vp: bool,
}

#[derive(Deserialize)]
pub struct Role {
    pub id: L<String>,
    pub kind: crate::role_kind::RoleKind,
    pub privilege: Int<0, 10>,
    pub players: Ints,
}

#[derive(Deserialize)]
pub struct Building {
    pub id: L<String>,
    #[serde(rename = "type")]
    pub ty: L<BuildingType>,
    /// City spaces; a building without it takes one.
    pub spaces: Option<L<i64>>,
    pub cost: Small,
    pub vp: Small,
    pub column: Int<0, { MAX_SPACES as i64 }>,
    pub circles: Int<0, 3>,
    pub copies: PerCount<L<i64>>,
    /// Production buildings only.
    #[serde(deserialize_with = "good_named")]
    pub produces: Option<L<crate::goods::Good>>,
    pub scale: Option<L<Scale>>,
    /// Violet buildings only.
    pub effect: Option<L<crate::effect::Effect>>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BuildingType {
    Production,
    Violet,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    Small,
    Normal,
}

/// A good by its name among the ruleset's `[goods.*]` (see [`crate::goods::reading`]); an
/// unknown name is reported and stands in as the first good, at [`Origin::REPORTED`].
fn good_named<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<L<crate::goods::Good>>, D::Error> {
    let Some(name) = Option::<L<String>>::deserialize(d)? else { return Ok(None) };
    let goods = crate::goods::read_names();
    if let Some(i) = goods.iter().position(|g| *g == name.value) {
        return Ok(Some(Located { value: crate::goods::Good::at(i), origin: name.origin }));
    }
    let quoted: Vec<String> = goods.iter().map(|g| format!("`{g}`")).collect();
    let hint = rulesmith_core::suggest::hint(&name.value, goods.iter().map(String::as_str));
    de::reject(name.origin, format!("unknown value `{}`: expected one of {}{hint}", name.value, quoted.join(", ")))?;
    Ok(Some(Located { value: crate::goods::Good::at(0), origin: Origin::REPORTED }))
}
