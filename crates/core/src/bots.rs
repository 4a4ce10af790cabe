//! Bots: `random` (uniform over legal actions), `greedy` (one-ply lookahead on the
//! game's heuristic), `greedy:N%` (greedy that plays a random legal move N times in a
//! hundred), `mcts:N` (game-independent Monte Carlo tree search with
//! determinisation for hidden information and chance) and `exec:PROGRAM` (a program of
//! any language speaking the JSON-lines protocol of [`exec`]) and `learned` (a trained
//! policy, [`crate::learned`]).
//!
//! Every bot is a [`Bot`]: the simulation driver asks each seat's bot for a decision.
//! Rust users bring their own by implementing [`Bot`] and passing a factory to
//! [`crate::sim::simulate_with`].

pub mod bot;
pub mod exec;

use crate::encode::Encode;
use crate::game::{Game, Seat, ToMove};
use crate::rng::Rng;
use std::fmt;
use std::sync::Arc;

pub use bot::{Bot, BotError};
pub use exec::ExecSpec;

pub use rulesmith_game::evaluate::{Evaluate, LeafReward, ROLLOUT_DEPTH, RolloutPolicy, Widening};

/// Iterations of a plain `mcts`: reproducible (a count, not a time). Measured against greedy
/// players in 4-player Santiago de Cuba, the hardest case, on one core (`cargo run
/// --release --example strength -- --games 50 --budgets 2000,4000 --rulesets
/// santiago-de-cuba --players 4`, seeds 1, 777 and 4242): 2000 iterations won 74.2 / 74.8 /
/// 74.5%, 4000 won 76.5 / 81.8 / 78.5% at 14–17 ms a decision (slowest 60–76 ms), inside
/// the 100 ms a decision may take.
pub const DEFAULT_MCTS_ITERATIONS: u32 = 4000;

/// A bot as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    Random,
    Greedy,
    /// Greedy that plays a uniformly random legal move this many times in a hundred (1 to
    /// 100), drawn from the bot's own seeded generator: all-greedy tables otherwise play
    /// in lockstep, every seat making the same choice in the same position, which moves
    /// the seats' win shares by up to 8 points in Puerto Rico (docs/strength.md, seat
    /// shares).
    GreedyExploring(u8),
    /// Monte Carlo tree search with this many iterations per decision.
    Mcts(u32),
    /// Monte Carlo tree search for this many milliseconds per decision (not
    /// reproducible: how far it gets depends on the machine and its load).
    MctsTime(u32),
    /// A subprocess speaking the [`exec`] protocol.
    Exec(Arc<ExecSpec>),
    /// A trained policy ([`crate::learned`]): `learned` (the ruleset's bundled one) or
    /// `learned:FILE`.
    Learned(Arc<crate::learned::Learned>),
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::GreedyExploring(p) => write!(f, "greedy:{p}%"),
            BotSpec::Mcts(n) => write!(f, "mcts:{n}"),
            BotSpec::MctsTime(ms) => write!(f, "mcts:{ms}ms"),
            BotSpec::Exec(e) => write!(f, "exec:{}", e.command()),
            BotSpec::Learned(l) => f.write_str(&l.name()),
        }
    }
}

/// A bot spec that does not read: the message names it and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadBotSpec(pub String);

impl std::str::FromStr for BotSpec {
    type Err = BadBotSpec;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        match s {
            "random" => Ok(BotSpec::Random),
            "greedy" => Ok(BotSpec::Greedy),
            "mcts" => Ok(BotSpec::Mcts(DEFAULT_MCTS_ITERATIONS)),
            "learned" => Ok(BotSpec::Learned(Arc::new(crate::learned::Learned::bundled()))),
            _ => {
                if let Some(path) = s.strip_prefix("learned:") {
                    return crate::learned::Learned::file(path)
                        .map(|l| BotSpec::Learned(Arc::new(l)))
                        .map_err(|why| BadBotSpec(format!("bot `{s}`: {why}")));
                }
                if let Some(command) = s.strip_prefix("exec:") {
                    return ExecSpec::parse(command)
                        .map(|e| BotSpec::Exec(Arc::new(e)))
                        .map_err(|why| BadBotSpec(format!("bot `{s}`: {why}")));
                }
                if let Some(percent) = s.strip_prefix("greedy:") {
                    return match percent.strip_suffix('%').map(str::parse::<u8>) {
                        Some(Ok(p)) if (1..=100).contains(&p) => Ok(BotSpec::GreedyExploring(p)),
                        _ => Err(BadBotSpec(format!(
                            "bot `{s}`: an exploring greedy is `greedy:N%`, a random move N times in a hundred, N from 1 to 100"
                        ))),
                    };
                }
                if let Some(ms) = s.strip_prefix("mcts:").and_then(|t| t.strip_suffix("ms")) {
                    return match ms.parse::<u32>() {
                        Ok(ms) if (1..=600_000).contains(&ms) => Ok(BotSpec::MctsTime(ms)),
                        _ => Err(BadBotSpec(format!(
                            "bot `{s}`: a time budget is `mcts:Nms`, N milliseconds from 1 to 600000"
                        ))),
                    };
                }
                match s.strip_prefix("mcts:").map(str::parse::<u64>) {
                    Some(Ok(n)) if (1..=1_000_000).contains(&n) => Ok(BotSpec::Mcts(n as u32)),
                    // The kind is right, the number is not: say so, not "unknown bot".
                    Some(Ok(n)) => {
                        Err(BadBotSpec(format!("bot `{s}`: {n} search iterations; `mcts:N` takes N from 1 to 1000000")))
                    }
                    _ => Err(BadBotSpec(format!(
                        "unknown bot `{s}`: expected `random`, `greedy`, `greedy:N%` (a random move N in 100), `mcts:N` (N iterations, 1 to 1000000), \
                         `mcts:Nms` (N milliseconds), `learned`, `learned:FILE` or `exec:PROGRAM [ARGS]`"
                    ))),
                }
            }
        }
    }
}

impl BotSpec {
    /// A fresh bot of this kind for one seat of one game.
    pub fn instantiate<G: Evaluate + Encode + crate::json::StateJson>(&self, seat: Seat) -> Box<dyn Bot<G> + Send> {
        match self {
            BotSpec::Exec(e) => Box::new(exec::ExecBot::new(Arc::clone(e), seat)),
            builtin => Box::new(Builtin { spec: builtin.clone(), seat }),
        }
    }

    /// Whether the bot runs outside this process (and so cannot be re-asked cheaply, e.g.
    /// to replay a record).
    pub fn is_external(&self) -> bool {
        matches!(self, BotSpec::Exec(_))
    }
}

/// The built-in bots as [`Bot`]s.
struct Builtin {
    spec: BotSpec,
    seat: Seat,
}

impl<G: Evaluate + Encode> Bot<G> for Builtin {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        legal: &[G::Action],
        rng: &mut Rng,
    ) -> Result<G::Action, BotError> {
        if legal.is_empty() {
            return Err(BotError {
                bot: self.spec.to_string(),
                seat: self.seat,
                reason: "no legal action to choose".into(),
            });
        }
        try_choose(game, &self.spec, state, legal, rng).map_err(|reason| BotError {
            bot: self.spec.to_string(),
            seat: self.seat,
            reason,
        })
    }
}

/// Parses `random` (all seats) or `mcts:400,random,random` (one per seat).
pub fn parse_bots(spec: &str, players: usize) -> Result<Vec<BotSpec>, String> {
    let parts: Vec<BotSpec> =
        spec.split(',').map(str::parse).collect::<Result<_, _>>().map_err(|e: BadBotSpec| e.to_string())?;
    match parts.len() {
        1 => Ok(vec![parts[0].clone(); players]),
        n if n == players => Ok(parts),
        n => Err(format!("--bots lists {n} bots for {players} players: give one bot for all seats or one per seat")),
    }
}

/// Chooses an action for the player to move with a built-in bot. `legal` is non-empty.
/// An `exec:` spec has no process here and plays uniformly at random: use
/// [`BotSpec::instantiate`] for it. A `learned` bot that cannot play this table (see
/// [`try_choose`], which says why) plays the first legal action.
#[inline]
pub fn choose<G: Evaluate + Encode>(
    game: &G,
    spec: &BotSpec,
    state: &G::State,
    legal: &[G::Action],
    rng: &mut Rng,
) -> G::Action {
    if legal.len() == 1 {
        return legal[0];
    }
    match spec {
        BotSpec::Random | BotSpec::Exec(_) => legal[rng.index(legal.len())],
        BotSpec::Learned(l) => l.choose(game, state, legal, rng).unwrap_or(legal[0]),
        _ => choose_searching(game, spec, state, legal, rng),
    }
}

/// [`choose`], or why the bot cannot choose here (a `learned` bot without a policy for
/// this game, or whose policy does not fit the table).
#[inline]
pub fn try_choose<G: Evaluate + Encode>(
    game: &G,
    spec: &BotSpec,
    state: &G::State,
    legal: &[G::Action],
    rng: &mut Rng,
) -> Result<G::Action, String> {
    match spec {
        BotSpec::Learned(l) => l.choose(game, state, legal, rng),
        _ => Ok(choose(game, spec, state, legal, rng)),
    }
}

/// The bots that look ahead, out of line: the random playout's choice above stays small
/// enough to inline into the game loop.
#[inline(never)]
fn choose_searching<G: Evaluate>(
    game: &G,
    spec: &BotSpec,
    state: &G::State,
    legal: &[G::Action],
    rng: &mut Rng,
) -> G::Action {
    match spec {
        BotSpec::Random | BotSpec::Exec(_) | BotSpec::Learned(_) => legal[rng.index(legal.len())],
        BotSpec::Greedy => greedy(game, state, legal, rng),
        // The bot's own generator decides when to explore, so the game stays reproducible.
        BotSpec::GreedyExploring(p) => {
            if rng.below(100) < u32::from(*p) {
                legal[rng.index(legal.len())]
            } else {
                greedy(game, state, legal, rng)
            }
        }
        BotSpec::Mcts(n) => mcts::search(game, state, legal, mcts::Budget::Iterations(*n), rng),
        BotSpec::MctsTime(ms) => {
            let limit = std::time::Duration::from_millis(u64::from(*ms));
            mcts::search(game, state, legal, mcts::Budget::Time(std::time::Instant::now() + limit), rng)
        }
    }
}

fn greedy<G: Evaluate>(game: &G, state: &G::State, legal: &[G::Action], rng: &mut Rng) -> G::Action {
    let ToMove::Seat(me) = game.to_move(state) else {
        return legal[0];
    };
    let depth = game.greedy_turn_depth();
    // Candidates are tried on a position drawn from what the seat knows, not on the true
    // state: dice an action rolls and face-down tiles it draws come from a redrawn
    // generator, so the bot cannot see them before choosing (hidden stays hidden).
    let known = seat_sample(game, &game.observe(state, me), me, rng);
    let mut buf = Vec::new();
    // What is legal in the drawn position, listed once (not checked again per candidate).
    let mut known_legal = Vec::new();
    game.legal_actions(&known, &mut known_legal);
    let mut best = legal[0];
    let mut best_value = f64::NEG_INFINITY;
    let mut ties = 0u32;
    for &a in legal {
        if !known_legal.contains(&a) {
            continue;
        }
        let mut next = known.clone();
        game.apply_legal(&mut next, a);
        let v = turn_value(game, &next, me, depth, &mut buf);
        if v > best_value + 1e-9 {
            best_value = v;
            best = a;
            ties = 1;
        } else if (v - best_value).abs() <= 1e-9 {
            // Reservoir sampling among equal values keeps the choice uniform.
            ties += 1;
            if rng.below(ties) == 0 {
                best = a;
            }
        }
    }
    best
}

/// A full position drawn from what `me` sees (`seen`, [`Game::observe`]'s state for `me`):
/// every hidden part drawn anew. Bots look ahead only on such positions, so two states
/// that `me` cannot tell apart give the same decisions for the same bot generator.
pub fn seat_sample<G: Game>(game: &G, seen: &G::State, me: Seat, rng: &mut Rng) -> G::State {
    game.determinize(seen, me, rng)
}

/// The value of `state` for `me`, through up to `depth` more of `me`'s own decisions in a
/// row (the best of each), as [`crate::bots::Evaluate::greedy_turn_depth`] asks.
fn turn_value<G: Evaluate>(game: &G, state: &G::State, me: Seat, depth: usize, buf: &mut Vec<G::Action>) -> f64 {
    if depth == 0 || game.to_move(state) != ToMove::Seat(me) {
        return value_for(game, state, me);
    }
    game.legal_actions(state, buf);
    let legal = std::mem::take(buf);
    let mut best = f64::NEG_INFINITY;
    for &a in &legal {
        let mut next = state.clone();
        game.apply_legal(&mut next, a);
        best = best.max(turn_value(game, &next, me, depth - 1, buf));
    }
    *buf = legal;
    if best == f64::NEG_INFINITY { value_for(game, state, me) } else { best }
}

/// The heuristic, or the final result when the game is over.
fn value_for<G: Evaluate>(game: &G, state: &G::State, seat: Seat) -> f64 {
    match game.outcome(state) {
        Some(o) => 1000.0 * o.win_shares()[seat as usize] + f64::from(o.scores[seat as usize]),
        None => game.heuristic(state, seat),
    }
}

pub mod mcts {
    //! Determinised UCT: each iteration samples a full state consistent with what the
    //! searching player sees, then walks one shared tree keyed by actions, using only
    //! the children legal in that sample. Rewards are win shares per seat. Past each new
    //! leaf a rollout plays [`crate::bots::Evaluate::search_rollout_depth`] moves, random or the game's
    //! one-ply choice ([`crate::bots::Evaluate::search_rollout_policy`]), and the game's heuristic scores
    //! where it stops, by margin or by who leads ([`crate::bots::Evaluate::search_leaf_reward`]).

    use super::*;
    use crate::by_player::MAX_PLAYERS;

    /// A node of the search tree, in one arena (`Vec`) with its siblings linked: no
    /// allocation per node, children kept in the order they were added.
    struct Node<A> {
        action: Option<A>,
        first_child: u32,
        last_child: u32,
        next_sibling: u32,
        visits: u32,
        /// How often this node was available for selection (ISMCTS availability).
        available: u32,
        /// The iteration in which this node was last seen legal (selection reads it).
        seen: u32,
        /// Where this node's children in prior order start in the search's `orders`
        /// (`NONE` until the node first widens) and how many there are.
        order_start: u32,
        order_len: u32,
        reward: [f64; MAX_PLAYERS],
    }

    /// No node (an empty child or sibling link).
    const NONE: u32 = u32::MAX;

    impl<A> Node<A> {
        fn new(action: Option<A>) -> Self {
            Node {
                action,
                first_child: NONE,
                last_child: NONE,
                next_sibling: NONE,
                visits: 0,
                available: 1,
                seen: u32::MAX,
                order_start: NONE,
                order_len: 0,
                reward: [0.0; MAX_PLAYERS],
            }
        }
    }

    const EXPLORATION: f64 = 0.7;

    /// The most iterations a time budget may run (a bound on the tree's memory).
    const MAX_TIMED_ITERATIONS: u32 = 1_000_000;

    /// How long one decision searches.
    #[derive(Clone, Copy, Debug)]
    pub enum Budget {
        Iterations(u32),
        /// Until this moment (at least one iteration).
        Time(std::time::Instant),
    }

    pub fn search<G: Evaluate>(
        game: &G,
        root_state: &G::State,
        legal: &[G::Action],
        budget: Budget,
        rng: &mut Rng,
    ) -> G::Action {
        // The most visited legal child of the root (the last of equals, in the children's
        // order).
        let mut most = None;
        for (a, visits) in root_visits(game, root_state, budget, rng) {
            if legal.contains(&a) && most.is_none_or(|(v, _)| visits >= v) {
                most = Some((visits, a));
            }
        }
        most.map_or(legal[0], |(_, a)| a)
    }

    /// Searches as [`search`] does and gives the root's children with their visit counts,
    /// in the order they were added (what a hint ranks); empty when no seat is to move.
    pub fn root_visits<G: Evaluate>(
        game: &G,
        root_state: &G::State,
        budget: Budget,
        rng: &mut Rng,
    ) -> Vec<(G::Action, u32)> {
        let ToMove::Seat(me) = game.to_move(root_state) else {
            return Vec::new();
        };
        let players = game.player_count(root_state);
        let iterations = match budget {
            Budget::Iterations(n) => n,
            Budget::Time(_) => MAX_TIMED_ITERATIONS,
        };
        // At most one node per iteration, plus the root.
        let mut nodes: Vec<Node<G::Action>> = Vec::with_capacity(iterations.min(1 << 16) as usize + 1);
        let mut root = Node::new(None);
        root.available = 0;
        nodes.push(root);
        let mut buf = Vec::new();
        let mut tried: Vec<bool> = Vec::new();
        let mut path = Vec::new();
        // Full random rollouts of a long game (Mundo 163 runs to ~700 decisions, and
        // random play rarely ends it) carry no signal: rollouts stop after the game's
        // depth and the heuristic scores where they stand.
        let rollout_depth = game.search_rollout_depth();
        let policy = game.search_rollout_policy();
        let leaf = game.search_leaf_reward();
        // Every iteration starts from what the seat sees, never from the true state.
        let seen = game.observe(root_state, me);
        let mut scratch = game.search_scratch();
        let widening = game.search_widening();
        // Each widened node's legal moves, best first for its mover, one run per node.
        let mut orders: Vec<G::Action> = Vec::new();
        let mut ranked: Vec<(f64, G::Action)> = Vec::new();
        for done in 0..iterations {
            if let Budget::Time(deadline) = budget {
                if done > 0 && std::time::Instant::now() >= deadline {
                    break;
                }
            }
            let mut state = seat_sample(game, &seen, me, rng);
            path.clear();
            path.push(0usize);
            let mut node = 0usize;
            // Selection and expansion: the actions legal in this sample are this very
            // state's list, so they are applied unchecked.
            while let ToMove::Seat(mover) = game.to_move(&state) {
                game.legal_actions(&state, &mut buf);
                if buf.is_empty() {
                    break;
                }
                // One pass over the children: which legal actions have one (each such child
                // was available now), in the children's order.
                tried.clear();
                tried.resize(buf.len(), false);
                // Children were added in the legal list's order, and the lists of most
                // samples are alike: each search starts past the last match (then wraps), so
                // matching a node's children costs one pass, not one scan per child.
                let mut from = 0;
                let mut c = nodes[node].first_child;
                while c != NONE {
                    let child = &mut nodes[c as usize];
                    let found = child.action.and_then(|a| {
                        let (head, tail) = buf.split_at(from);
                        tail.iter()
                            .position(|&x| x == a)
                            .map(|i| i + from)
                            .or_else(|| head.iter().position(|&x| x == a))
                    });
                    if let Some(i) = found {
                        tried[i] = true;
                        child.available += 1;
                        child.seen = done;
                        from = i + 1;
                    }
                    c = child.next_sibling;
                }
                let untried = tried.iter().position(|&t| !t);
                let expand = match (untried, widening) {
                    (None, _) => None,
                    (Some(i), None) => Some(i),
                    // Progressive widening: a new child only while the node has fewer than
                    // its visits allow, the heuristic's best untried move first (ranked once
                    // per node, on the sample that first widens it).
                    (Some(i), Some(Widening { base, exponent })) => {
                        let children = tried.iter().filter(|&&t| t).count();
                        let allowed = (base * f64::from(nodes[node].visits.max(1)).powf(exponent)).max(1.0) as usize;
                        // With no child legal in this sample, one must be added to go on.
                        if children < allowed || children == 0 {
                            if nodes[node].order_start == NONE {
                                ranked.clear();
                                for &a in &buf {
                                    let mut next = state.clone();
                                    game.apply_legal(&mut next, a);
                                    let v = match game.outcome(&next) {
                                        Some(o) => 1000.0 * o.win_shares()[mover as usize],
                                        None => game.heuristic_in_search(&next, mover, &mut *scratch),
                                    };
                                    ranked.push((v, a));
                                }
                                // Stable: equal values keep the legal list's order.
                                ranked.sort_by(|x, y| y.0.total_cmp(&x.0));
                                nodes[node].order_start = orders.len() as u32;
                                nodes[node].order_len = ranked.len() as u32;
                                orders.extend(ranked.iter().map(|&(_, a)| a));
                            }
                            let (start, len) = (nodes[node].order_start as usize, nodes[node].order_len as usize);
                            // A move legal here but not in the ranking's sample comes last.
                            orders[start..start + len]
                                .iter()
                                .find_map(|a| buf.iter().position(|x| x == a).filter(|&j| !tried[j]))
                                .or(Some(i))
                        } else {
                            None
                        }
                    }
                };
                if let Some(i) = expand {
                    let a = buf[i];
                    let idx = nodes.len() as u32;
                    nodes.push(Node::new(Some(a)));
                    let parent = &mut nodes[node];
                    match parent.last_child {
                        NONE => parent.first_child = idx,
                        last => nodes[last as usize].next_sibling = idx,
                    }
                    nodes[node].last_child = idx;
                    game.apply_legal(&mut state, a);
                    path.push(idx as usize);
                    break;
                }
                let mut best = NONE;
                let mut best_score = f64::NEG_INFINITY;
                let mut c = nodes[node].first_child;
                while c != NONE {
                    let n = &nodes[c as usize];
                    if n.seen == done {
                        let mean = n.reward[mover as usize] / f64::from(n.visits.max(1));
                        let score = mean
                            + EXPLORATION * (f64::from(n.available.max(1)).ln() / f64::from(n.visits.max(1))).sqrt();
                        if score > best_score {
                            best_score = score;
                            best = c;
                        }
                    }
                    c = n.next_sibling;
                }
                let Some(a) = nodes.get(best as usize).and_then(|n| n.action) else { break };
                game.apply_legal(&mut state, a);
                node = best as usize;
                path.push(node);
            }
            // Rollout.
            let mut steps = 0;
            // The depth is checked before listing: the last listing was wasted work (and
            // all of it in a game scored at the leaf, rollout depth 0).
            while steps < rollout_depth && matches!(game.to_move(&state), ToMove::Seat(_)) {
                game.legal_actions(&state, &mut buf);
                if buf.is_empty() {
                    break;
                }
                let a = match policy {
                    RolloutPolicy::Greedy { explore_percent } if rng.index(100) >= usize::from(explore_percent) => {
                        best_for_mover(game, &state, &buf)
                    }
                    _ => buf[rng.index(buf.len())],
                };
                game.apply_legal(&mut state, a);
                steps += 1;
            }
            let reward = rewards(game, &state, players, leaf, &mut *scratch);
            for &n in &path {
                nodes[n].visits += 1;
                for (total, r) in nodes[n].reward.iter_mut().zip(reward).take(players) {
                    *total += r;
                }
            }
        }
        let mut out = Vec::new();
        let mut c = nodes[0].first_child;
        while c != NONE {
            let n = &nodes[c as usize];
            if let Some(a) = n.action {
                out.push((a, n.visits));
            }
            c = n.next_sibling;
        }
        out
    }

    /// The legal move (of `legal`, not empty) after which the game's heuristic rates the
    /// position best for the player to move; the first of equals.
    pub(super) fn best_for_mover<G: Evaluate>(game: &G, state: &G::State, legal: &[G::Action]) -> G::Action {
        let ToMove::Seat(mover) = game.to_move(state) else { return legal[0] };
        let mut best = legal[0];
        let mut best_value = f64::NEG_INFINITY;
        for &a in legal {
            let mut next = state.clone();
            game.apply_legal(&mut next, a);
            let v = value_for(game, &next, mover);
            if v > best_value {
                best_value = v;
                best = a;
            }
        }
        best
    }

    /// Win shares at the end, or, when a rollout was cut off, the heuristic's as `leaf` says.
    pub(super) fn rewards<G: Evaluate>(
        game: &G,
        state: &G::State,
        players: usize,
        leaf: LeafReward,
        scratch: &mut dyn std::any::Any,
    ) -> [f64; MAX_PLAYERS] {
        let mut r = [0.0; MAX_PLAYERS];
        match game.outcome(state) {
            Some(o) => {
                for (s, w) in o.win_shares().into_iter().enumerate().take(MAX_PLAYERS) {
                    r[s] = w;
                }
            }
            None => {
                // `Margin`: each seat's heuristic against the mean of the others, squashed
                // into (0, 1) on a scale set by the values themselves (heuristics differ per
                // game): a lead counts by its size, and a seat far behind still learns which
                // moves bring it closer. `Leader`: a 0/1 "leader takes all", as a win is
                // scored (the game chooses, [`Evaluate::search_leaf_reward`]).
                let mut values = [0.0; MAX_PLAYERS];
                for (s, v) in values.iter_mut().enumerate().take(players) {
                    *v = game.heuristic_in_search(state, s as Seat, scratch);
                }
                let values = &values[..players.min(MAX_PLAYERS)];
                if leaf == LeafReward::Leader {
                    // Ranked as the end would rank it: the best takes the win, equals share.
                    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let leaders = values.iter().filter(|&&v| v == best).count().max(1) as f64;
                    for (total, &v) in r.iter_mut().zip(values) {
                        *total = if v == best { 1.0 / leaders } else { 0.0 };
                    }
                    return r;
                }
                let total: f64 = values.iter().sum();
                let scale = (values.iter().map(|v| v.abs()).sum::<f64>() / players.max(1) as f64 * 0.1).max(1.0);
                for (s, v) in values.iter().enumerate().take(MAX_PLAYERS) {
                    let others = (total - v) / (players.max(2) - 1) as f64;
                    r[s] = 1.0 / (1.0 + (-(v - others) / scale).exp());
                }
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_specs_parse() {
        assert_eq!(parse_bots("random", 3).unwrap(), vec![BotSpec::Random; 3]);
        assert_eq!(
            parse_bots("mcts:400,random,greedy", 3).unwrap(),
            vec![BotSpec::Mcts(400), BotSpec::Random, BotSpec::Greedy]
        );
        assert!(parse_bots("random,random", 3).is_err());
        assert!(parse_bots("smart", 3).unwrap_err().contains("unknown bot `smart`"));
        assert!(parse_bots("mcts:0", 2).is_err());
        assert_eq!(parse_bots("mcts:50ms", 1).unwrap(), vec![BotSpec::MctsTime(50)]);
        assert!(parse_bots("mcts:0ms", 1).unwrap_err().contains("N milliseconds from 1 to 600000"));
        assert_eq!(parse_bots("greedy:10%", 2).unwrap(), vec![BotSpec::GreedyExploring(10); 2]);
        for bad in ["greedy:0%", "greedy:101%", "greedy:10", "greedy:x%"] {
            assert!(parse_bots(bad, 1).unwrap_err().contains("`greedy:N%`"), "{bad}");
        }
        for s in ["random", "greedy", "greedy:10%", "greedy:100%", "mcts:17", "mcts:250ms"] {
            assert_eq!(s.parse::<BotSpec>().unwrap().to_string(), s);
        }
    }

    #[test]
    fn an_exploring_greedy_leaves_the_best_move_as_often_as_it_says_and_reproduces() {
        use crate::testing::Move;
        let game = crate::testing::take_away().unwrap();
        let s = game.new_game(3, 7).unwrap();
        let mut legal = Vec::new();
        game.legal_actions(&s, &mut legal);
        let picks = |spec: &BotSpec| -> Vec<Move> {
            (0..400).map(|seed| choose(&game, spec, &s, &legal, &mut Rng::from_seed(seed))).collect()
        };
        // Plain greedy always takes the most stones; one in ten exploring moves is uniform
        // over the legal moves, so about 10% × (1 − 1/legal) leave the best move.
        assert!(picks(&BotSpec::Greedy).iter().all(|&m| m == Move::Take(3)));
        let exploring = picks(&BotSpec::GreedyExploring(10));
        let off = exploring.iter().filter(|&&m| m != Move::Take(3)).count();
        let expected = 400.0 * 0.1 * (1.0 - 1.0 / legal.len() as f64);
        assert!((off as f64 - expected).abs() < 20.0, "{off} of 400 left the best move, expected about {expected}");
        // The same generator gives the same choices.
        assert_eq!(exploring, picks(&BotSpec::GreedyExploring(10)));
        // At 100% every move is random: every legal move shows up.
        let all = picks(&BotSpec::GreedyExploring(100));
        assert!(legal.iter().all(|a| all.contains(a)), "{legal:?} not all in {all:?}");
    }

    #[test]
    fn a_cut_off_rollout_scores_the_leader_as_a_win_or_each_margin() {
        let game = crate::testing::take_away().unwrap();
        let mut s = game.new_game(3, 7).unwrap();
        // The toy game's heuristic is stones taken plus the secret; not over yet.
        for (h, (taken, secret)) in s.players.iter_mut().zip([(1, 0), (3, 1), (2, 2)]) {
            h.taken = taken;
            h.secret = secret;
        }
        assert!(game.outcome(&s).is_none());
        let mut scratch = game.search_scratch();
        let leader = mcts::rewards(&game, &s, 3, LeafReward::Leader, &mut *scratch);
        // Seats 1 and 2 lead together (4 each): they share the win, seat 0 gets nothing.
        assert_eq!(&leader[..3], &[0.0, 0.5, 0.5]);
        let margin = mcts::rewards(&game, &s, 3, LeafReward::Margin, &mut *scratch);
        // By margin every seat has a share: the one behind less than a half, the leaders more.
        assert!(margin[0] > 0.0 && margin[0] < 0.5, "{margin:?}");
        assert!(margin[1] > 0.5 && margin[1] == margin[2], "{margin:?}");
        // Over, the game's own win shares count, whichever the setting.
        s.players[0].taken = 9;
        let over = game.outcome(&s).expect("a player holding the target ends the game");
        let shares = over.win_shares();
        for leaf in [LeafReward::Leader, LeafReward::Margin] {
            assert_eq!(&mcts::rewards(&game, &s, 3, leaf, &mut *scratch)[..3], &shares[..3]);
        }
    }

    #[test]
    fn a_greedy_rollout_move_is_the_heuristic_best_for_the_mover() {
        use crate::testing::Move;
        let game = crate::testing::take_away().unwrap();
        let mut s = game.new_game(3, 7).unwrap();
        let mut legal = Vec::new();
        game.legal_actions(&s, &mut legal);
        // The toy game's heuristic is stones taken (plus the secret): taking the most is best.
        assert_eq!(mcts::best_for_mover(&game, &s, &legal), Move::Take(3));
        // For the player to move, not seat 0: seat 1 also takes the most.
        game.apply(&mut s, Move::Pass).unwrap();
        game.legal_actions(&s, &mut legal);
        assert_eq!(mcts::best_for_mover(&game, &s, &legal), Move::Take(3));
        // One stone left: taking it (and ending the game) beats passing.
        s.pile = 1;
        game.legal_actions(&s, &mut legal);
        assert_eq!(legal, vec![Move::Take(1), Move::Pass]);
        assert_eq!(mcts::best_for_mover(&game, &s, &legal), Move::Take(1));
    }
}
