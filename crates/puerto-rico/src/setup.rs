//! Setup (S000:L49-110; 2 players S000:L679-695).

use crate::goods::ByGood;
use crate::rules::{MAX_BUILDINGS, Rules};
use crate::state::{Phase, Placement, Player, Production, Settlement, Ship, Shipping, Stack, State, TradingHouse};
use rulesmith_game::steps::{RoleBoard, Rotation};
use rulesmith_game::{ByPlayer, GameError, Rng};

pub fn new_game(rules: &Rules, players: usize, seed: u64) -> Result<State, GameError> {
    if !(rules.min_players..=rules.max_players).contains(&players) {
        return Err(GameError::PlayerCount { players, min: rules.min_players, max: rules.max_players });
    }
    let setup = &rules.setup[players];
    let mut rng = Rng::from_seed(seed);

    let mut plantations = setup.plantations;
    let mut seats = ByPlayer::<Player>::new(players);
    for (seat, p) in seats.iter_mut().enumerate() {
        p.doubloons = u16::from(setup.doubloons);
        if let Some(&g) = setup.starting_plantations.get(seat) {
            p.plantations[g] += 1;
            plantations[g] -= 1;
        }
    }

    // The plantations are shuffled into face-down stacks; one stack is enough, since
    // drawing the top of any shuffled stack is the same chance.
    let mut stack = Stack::default();
    for g in rules.goods() {
        for _ in 0..plantations[g] {
            stack.push(g);
        }
    }
    stack.shuffle(&mut rng);

    let mut ships = [Ship::default(); crate::rules::MAX_SHIPS];
    for (i, &c) in setup.ships.iter().enumerate() {
        ships[i] = Ship::new(c);
    }
    let mut buildings = [0u8; MAX_BUILDINGS];
    for (i, b) in rules.buildings.iter().enumerate() {
        buildings[i] = b.copies[players];
    }
    let in_play = rules
        .roles
        .iter()
        .enumerate()
        .filter(|(_, r)| r.players & (1 << players) != 0)
        .fold(0u16, |m, (i, _)| m | (1 << i));

    let mut state = State {
        round: 1,
        governor: 0,
        phase: Phase::RoleSelection,
        roles_chosen: 0,
        chooser: 0,
        role: 0,
        current: 0,
        rotation: Rotation::new(0, players),
        roles: RoleBoard::new(in_play),
        players: seats,
        colonist_supply: setup.colonists_supply,
        colonist_ship: setup.colonists_ship,
        vp_chips: setup.vp_chips,
        quarry_supply: setup.quarries,
        goods_supply: setup.barrels,
        stack,
        face_up: ByGood::default(),
        discards: ByGood::default(),
        buildings,
        ships,
        ship_count: setup.ships.len() as u8,
        trading_house: TradingHouse::default(),
        settler: Settlement::default(),
        captain: Shipping::new(0, players),
        mayor: Placement::default(),
        craftsman: Production::default(),
        end_triggers: 0,
        held_tiles: ByGood::default(),
        out_of_game: 0,
        pending: Default::default(),
        colonist_offer: None,
        rng,
    };
    crate::phases::settler::reveal_plantations(rules, &mut state);
    Ok(state)
}
