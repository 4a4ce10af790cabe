//! Setup (REF §2.2): the map, goods on the cities, the privilege deck stacked by back,
//! the face-up row, pieces and money. Capitals are then chosen as actions.

use crate::purchase::draw_to_row;
use crate::rules::{MAX_DECK, Rules, TerrainKind};
use crate::state::{Phase, Player, State};
use rulesmith_game::{ByPlayer, GameError, Rng};

pub fn new_game(rules: &Rules, players: usize, seed: u64) -> Result<State, GameError> {
    if !(rules.min_players()..=rules.max_players()).contains(&players) {
        return Err(GameError::PlayerCount { players, min: rules.min_players(), max: rules.max_players() });
    }
    let mut rng = Rng::from_seed(seed);
    let mut s = State {
        players: players as u8,
        rng: Rng::from_seed(0),
        phase: Phase::Capital,
        end: Default::default(),
        // Capitals are chosen from the last player to the first (REF §2.2 step 7).
        current: rulesmith_game::steps::reverse_setup_first(players),
        round: 0,
        terrain: Default::default(),
        city_stock: [0; crate::rules::MAX_CITIES],
        covered: [Default::default(); crate::rules::MAX_CITIES],
        loose: Default::default(),
        deck: Default::default(),
        deck_len: 0,
        row: [0; crate::rules::MAX_ROW],
        row_len: 0,
        free: 0,
        p: ByPlayer::new(players),
        turn: Default::default(),
    };
    for (i, h) in rules.map.hexes.iter().enumerate() {
        s.terrain[i] = h.terrain;
    }
    if rules.map.deal_shuffled {
        // REF §6 Q1's alternative: the land tiles are dealt at random.
        let land: Vec<usize> = (0..rules.tiles())
            .filter(|&i| rules.terrains.get(usize::from(s.terrain[i])).is_some_and(|t| t.kind == TerrainKind::Land))
            .collect();
        let mut kinds: Vec<u8> = land.iter().map(|&i| s.terrain[i]).collect();
        rng.shuffle(&mut kinds);
        for (&i, &k) in land.iter().zip(&kinds) {
            s.terrain[i] = k;
        }
    }
    for c in 0..rules.cities.len() {
        s.city_stock[c] = rules.map.goods_per_city;
    }
    let deck = build_deck(rules, players, &mut rng);
    for (i, &k) in deck.iter().enumerate().take(MAX_DECK) {
        s.deck[i] = k;
    }
    s.deck_len = deck.len().min(MAX_DECK) as u8;
    for _ in 0..rules.market.initial_row[players] {
        draw_to_row(rules, &mut s);
    }
    let player = Player {
        money: rules.setup.starting_money,
        residents_in_storage: rules.setup.residents[players],
        settlements_in_storage: rules.setup.settlements[players],
        ..Player::default()
    };
    for p in s.p.iter_mut() {
        *p = player;
    }
    s.rng = rng;
    Ok(s)
}

/// The deck (REF §1.2, §2.2 step 3): full sets, plus cards drawn at random from one more
/// set (3 players); each back shuffled on its own; back I on top. Bottom card first.
pub fn build_deck(rules: &Rules, players: usize, rng: &mut Rng) -> Vec<u8> {
    let types = rules.privileges.len() as u8;
    let mut cards: Vec<u8> = Vec::with_capacity(rules.deck_size(players));
    for _ in 0..rules.market.full_sets[players] {
        cards.extend(0..types);
    }
    let extra = usize::from(rules.market.random_extra[players]);
    if extra > 0 {
        let mut one_set: Vec<u8> = (0..types).collect();
        rng.shuffle(&mut one_set);
        cards.extend(one_set.iter().take(extra));
    }
    stack_by_back(rules, cards, rng)
}

/// Shuffles each back separately and stacks them, highest back at the bottom.
pub fn stack_by_back(rules: &Rules, cards: Vec<u8>, rng: &mut Rng) -> Vec<u8> {
    let back = |k: u8| rules.privileges.get(usize::from(k)).map_or(0, |p| p.back);
    let mut backs: Vec<u8> = cards.iter().map(|&k| back(k)).collect();
    backs.sort_unstable();
    backs.dedup();
    let mut deck = Vec::with_capacity(cards.len());
    for &b in backs.iter().rev() {
        let mut group: Vec<u8> = cards.iter().copied().filter(|&k| back(k) == b).collect();
        group.sort_unstable();
        rng.shuffle(&mut group);
        deck.extend(group);
    }
    deck
}
