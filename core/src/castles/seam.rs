//! The Castles of Tuscany behind the game seam (`crate::games::Game`): the configuration
//! (players, starting VP, checking mode), the engine's invariants as `verify`, what a
//! seat cannot know drawn anew (`determinize`), the observation (T12) and the outcome,
//! whose seat row has the VP breakdown by source and a unique rank (T11.4 made unique:
//! docs/rules-castles.md).

use super::components::{Components, BOARD_SPACES, N_BONUS, N_COLOURS, PLAYER_TILES};
use super::scoring::N_SOURCES;
use super::state::{CastlesConfig, CastlesState, Used, MAX_PLAYERS};
use super::{Action, Observation};
use crate::games::rows::{Own, SeatRow};
use crate::games::{ColumnType, Game, Outcome, SeatValue, Use};
use crate::rng::{Generator, SeedSequence};

/// A game's configuration through the seam: the rules' own (`CastlesConfig`), the
/// starting VP (the rulebook gives none: a compensation a study tries, added to the red
/// track's total at the end and read by no rule or player) and the checking mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    pub rules: CastlesConfig,
    pub start_vp: [i32; MAX_PLAYERS],
    pub check: bool,
}

/// A finished game: each seat's VP by source, the tie-break's inputs and the place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scores {
    pub strategies: Vec<&'static str>,
    pub start_vp: Vec<i32>,
    /// The red track (T1.8), by source (`VpSource` order).
    pub red_by: Vec<[i32; N_SOURCES]>,
    /// T11.4's tie-breaks: empty board spaces, green VP.
    pub empty_spaces: Vec<u32>,
    pub green: Vec<i32>,
    /// 1 = the winner, unique (T11.4, then the later seat).
    pub rank: Vec<usize>,
    /// The winner's VP were shared: a tie-break decided.
    pub tiebreak: bool,
    /// The game cards each seat took into its hand, per colour (`Seat::taken`).
    pub taken: Vec<[u16; N_COLOURS]>,
    /// What else each seat used (`Seat::used`) and the bonus tokens it took (T8.2, T8.3).
    pub used: Vec<(Used, [u8; N_BONUS])>,
    /// The territory piece dealt to each seat of each kind A, B, C (T2.6), by its number
    /// in `piece_names` (named only when use rows are asked for).
    pub pieces: Vec<[u8; 3]>,
    pub piece_names: std::sync::Arc<[String]>,
}

impl Scores {
    fn of(state: &CastlesState, comps: &Components, strategies: &[&'static str]) -> Scores {
        let seats = &state.seats[..state.n];
        let start_vp = state.start_vp[..state.n].to_vec();
        let red_by: Vec<_> = seats.iter().map(|s| s.red_by).collect();
        let empty_spaces: Vec<u32> = seats.iter().map(|s| s.empty_spaces()).collect();
        let green: Vec<i32> = seats.iter().map(|s| s.green).collect();
        let total: Vec<i64> = seats.iter().zip(&start_vp)
            .map(|(s, &v)| i64::from(s.red) + i64::from(v)).collect();
        // T11.4: most VP, then most empty spaces, then most green VP; then the later
        // seat (it moved after the start player in every round), so places are unique.
        let mut order: Vec<usize> = (0..state.n).collect();
        order.sort_by_key(|&s| std::cmp::Reverse((total[s], empty_spaces[s], green[s], s)));
        let mut rank = vec![0; state.n];
        for (place, &s) in order.iter().enumerate() {
            rank[s] = place + 1;
        }
        let tiebreak = total.iter().filter(|&&v| v == total[order[0]]).count() > 1;
        let taken = seats.iter().map(|s| s.taken).collect();
        let used = seats.iter().map(|s| (s.used, s.tokens)).collect();
        let pieces = seats.iter().map(|s| s.pieces).collect();
        let piece_names = comps.tables().piece_names.clone();
        Scores { strategies: strategies.to_vec(), start_vp, red_by, empty_spaces, green, rank,
                 tiebreak, taken, used, pieces, piece_names }
    }
}

/// The breakdown's sources: the starting VP, then `VpSource::ALL`'s names.
const SOURCES: [&str; 1 + N_SOURCES] = ["start", "area", "crops", "colour_bonus",
    "storage_token", "harvest_green", "harvest_red", "spare_hex", "leftovers"];

impl Outcome for Scores {
    const BREAKDOWN: &'static [&'static str] = &SOURCES;

    /// The shared columns (`rows::Own`) around its own: the VP sources, then the green VP
    /// and empty spaces of the tie-break (T13.2) before the place.
    fn columns() -> Vec<(&'static str, ColumnType)> {
        OWN.columns()
    }

    fn seats(&self) -> usize {
        self.rank.len()
    }

    fn vp(&self, seat: usize) -> i64 {
        i64::from(self.start_vp[seat]) + self.red_by[seat].iter().map(|&v| i64::from(v)).sum::<i64>()
    }

    fn start_vp(&self, seat: usize) -> i64 {
        i64::from(self.start_vp[seat])
    }

    fn rank(&self, seat: usize) -> usize {
        self.rank[seat]
    }

    fn breakdown(&self, seat: usize) -> Vec<i64> {
        std::iter::once(self.start_vp[seat]).chain(self.red_by[seat]).map(i64::from).collect()
    }

    fn row(&self, seat: usize, seed: i64, out: &mut Vec<SeatValue>) {
        let shared = SeatRow { seat, strategy: self.strategies[seat], start_vp: self.start_vp(seat),
                               final_vp: self.vp(seat), rank: self.rank[seat], seed,
                               players: self.rank.len(), tiebreak: self.tiebreak };
        shared.write(out, self.breakdown(seat),
                     [i64::from(self.green[seat]).into(), i64::from(self.empty_spaces[seat]).into()],
                     []);
    }

    /// The game cards the seat took, by colour (`cards.farm`: as a change names them), the
    /// tiles it placed by colour, its own (`player_tiles`) and neutral ones
    /// (`neutral_tiles`), the colour bonuses it claimed (`colour_bonus`), the bonus tokens
    /// it took (`bonus_tokens`, by kind), the areas it completed by the area VP table's row
    /// (`area_vp`, 0 = one space) and the harvest cards revealed for it (`harvest`, by
    /// reward) and the territory pieces it was dealt (`pieces`, by name: its estate is built
    /// from them, T2.6; one each).
    fn uses(&self, seat: usize, out: &mut Vec<Use>) {
        let mut push = |kind: &'static str, id: &str, count: i64| if count > 0 {
            out.push(Use { kind, id: id.to_string(), count });
        };
        for (colour, &count) in CARD_IDS.iter().zip(&self.taken[seat]) {
            push("cards", colour, count.into());
        }
        let (used, tokens) = &self.used[seat];
        for (kind, placed) in ["player_tiles", "neutral_tiles"].into_iter().zip(&used.placed) {
            for (colour, &count) in CARD_IDS.iter().zip(placed) {
                push(kind, colour, count.into());
            }
        }
        for (i, colour) in CARD_IDS.iter().enumerate() {
            push("colour_bonus", colour, i64::from(used.claimed >> i & 1));
        }
        for (kind, &count) in TOKEN_IDS.iter().zip(tokens) {
            push("bonus_tokens", kind, count.into());
        }
        for (row, &count) in used.areas.iter().enumerate() {
            push("area_vp", &row.to_string(), count.into());
        }
        for (reward, &count) in HARVEST_IDS.iter().zip(&used.harvested) {
            push("harvest", reward, count.into());
        }
        for &piece in &self.pieces[seat] {
            push("pieces", &self.piece_names[usize::from(piece)], 1);
        }
    }
}

/// The game cards' colours as the component set names them (`Colour`, serde's names).
const CARD_IDS: [&str; N_COLOURS] =
    ["castle", "city", "estate", "farm", "quarry", "village", "monastery", "cart"];

/// The bonus tokens' kinds and the harvest cards' rewards as the component set names them
/// (`BonusKind`, `HarvestReward`: serde's names, in their order).
const TOKEN_IDS: [&str; N_BONUS] = ["card", "storage", "marble", "worker", "harvest"];
const HARVEST_IDS: [&str; 6] = ["red_vp", "green_vp", "cards", "marble", "worker", "wooden_hex"];

/// Its own columns of the seat row (`rows::Own`).
const OWN: Own = Own { vp: &VP_COLUMNS, before_place: &[("green_vp", ColumnType::Int),
                       ("empty_spaces", ColumnType::Int)], after_place: &[] };

/// The `vp_<source>` columns, `SOURCES` order.
const VP_COLUMNS: [&str; 1 + N_SOURCES] = ["vp_start", "vp_area", "vp_crops", "vp_colour_bonus",
    "vp_storage_token", "vp_harvest_green", "vp_harvest_red", "vp_spare_hex", "vp_leftovers"];

impl Game for CastlesState {
    type Components = Components;
    type Config = GameConfig;
    type Action = Action;
    type Outcome = Scores;
    type Tables = ();
    type Observation = Observation;

    fn components(json: &str) -> Result<Components, String> {
        Components::from_json(json).map_err(|errors| errors.join("; "))
    }

    fn builtin_components() -> Option<String> {
        Some(serde_json::to_string(&Components::builtin()).expect("the builtin set serialises"))
    }

    fn config(players: usize, start_vp: &[i32], check: bool) -> Result<GameConfig, String> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(format!("castles: players must be 2, 3 or 4, got {players}"));
        }
        if start_vp.len() != players {
            return Err(format!("castles: one start VP per seat ({players}), got {}",
                               start_vp.len()));
        }
        let mut vp = [0; MAX_PLAYERS];
        vp[..players].copy_from_slice(start_vp);
        Ok(GameConfig { rules: CastlesConfig { players }, start_vp: vp, check })
    }

    fn new(comps: &Components, config: &GameConfig, seed: SeedSequence)
        -> (CastlesState, Vec<Generator>) {
        let (mut state, streams) = CastlesState::new(comps, &config.rules, seed);
        state.start_vp = config.start_vp;
        state.check = config.check;
        (state, streams)
    }

    fn seats(&self) -> usize {
        self.n
    }

    fn current_seat(&self) -> Option<usize> {
        self.to_move()
    }

    fn decision(&self) -> &'static str {
        use super::actions::Pending;
        match self.pending {
            Pending::Lay { .. } => "lay",
            Pending::StartCastle { .. } => "start-castle",
            Pending::SetupToken { .. } => "setup-token",
            Pending::Turn { .. } => "turn",
            Pending::Pay { .. } => "pay",
            Pending::Castle { .. } => "castle",
            Pending::Token { .. } => "token",
            Pending::Over => "over",
        }
    }

    fn options(&self, comps: &Components, out: &mut Vec<Action>) {
        CastlesState::options(self, comps, out);
    }

    fn apply(&mut self, comps: &Components, action: Action) {
        CastlesState::apply(self, comps, action);
    }

    fn verify(&self, comps: &Components) -> Result<(), String> {
        if self.check {
            self.invariants(comps)
        } else {
            Ok(())
        }
    }

    /// T12: the order of the game cards, the harvest cards, the neutral reserve and every
    /// seat's stacks, the others' hands (their sizes kept) and the engine's own stream
    /// (the discards' future reshuffles) are drawn anew.
    fn determinize(&mut self, _comps: &Components, seat: usize, rng: &mut Generator) {
        // the others' hands go back with the deck and are dealt again, sizes kept
        let mut pool: Vec<u8> = self.deck[..self.deck_len as usize].to_vec();
        for (i, s) in self.seats[..self.n].iter_mut().enumerate() {
            if i != seat {
                for (colour, k) in s.hand.iter_mut().enumerate() {
                    pool.extend(std::iter::repeat_n(colour as u8, *k as usize));
                }
            }
        }
        let pool: Vec<u8> = rng.permutation(pool.len()).into_iter().map(|i| pool[i]).collect();
        let mut next = pool.iter().copied();
        for (i, s) in self.seats[..self.n].iter_mut().enumerate() {
            if i != seat {
                let size = s.hand_size();
                s.hand = [0; N_COLOURS];
                for colour in next.by_ref().take(size as usize) {
                    s.hand[colour as usize] += 1;
                }
            }
        }
        let deck: Vec<u8> = next.collect();
        self.deck[..deck.len()].copy_from_slice(&deck);
        shuffle(rng, &mut self.harvest[..self.harvest_len as usize]);
        shuffle(rng, &mut self.reserve[..self.reserve_len as usize]);
        for s in &mut self.seats[..self.n] {
            shuffle(rng, &mut s.stack[s.drawn as usize..]);
        }
        self.rng = Generator::new(&SeedSequence::new(u128::from(rng.integers(u64::MAX)), &[]));
    }

    fn observe(&self, _comps: &Components, seat: usize) -> Observation {
        CastlesState::observe(self, seat)
    }

    fn outcome(&self, comps: &Components, strategies: &[&'static str]) -> Scores {
        Scores::of(self, comps, strategies)
    }

    fn describe(&self, comps: &Components, action: &Action) -> String {
        CastlesState::describe(self, comps, action)
    }

    /// The whole state, every hand shown (`replay::Frame`).
    fn frame(&self, _comps: &Components) -> serde_json::Value {
        serde_json::to_value(CastlesState::frame(self)).expect("a frame serialises")
    }
}

fn shuffle<T: Copy>(rng: &mut Generator, items: &mut [T]) {
    let order = rng.permutation(items.len());
    let copy = items.to_vec();
    for (slot, i) in items.iter_mut().zip(order) {
        *slot = copy[i];
    }
}

impl CastlesState {
    /// Every invariant of the engine (the whole-game tests' checks): tiles and cards
    /// conserved, each track's breakdown summing to it, each board's covered spaces one
    /// per placement plus the start castle.
    pub fn invariants(&self, comps: &Components) -> Result<(), String> {
        let t = comps.tables();
        let tiles: usize = self.tile_census().iter().sum();
        let want = PLAYER_TILES * self.n + t.neutral_tiles.len();
        if tiles != want {
            return Err(format!("{tiles} tiles in play, the set has {want}: {:?}",
                               self.tile_census()));
        }
        if self.card_census() != t.cards.len() {
            return Err(format!("{} game cards in play, the set has {}", self.card_census(),
                               t.cards.len()));
        }
        for (i, s) in self.seats[..self.n].iter().enumerate() {
            if s.red_by.iter().sum::<i32>() != s.red || s.green_by.iter().sum::<i32>() != s.green {
                return Err(format!("seat {i}: a track's breakdown does not sum to it"));
            }
            let placed = 1 + u32::from(s.placed_tiles) + u32::from(s.placed_wood);
            if s.filled != 0 && s.filled.count_ones() != placed {
                return Err(format!("seat {i}: {} spaces covered, {placed} placements",
                                   s.filled.count_ones()));
            }
            if s.filled >> BOARD_SPACES != 0 {
                return Err(format!("seat {i}: a space off the board is covered"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::castles::VpSource;

    #[test]
    fn the_card_ids_are_the_colours_as_the_set_names_them() {
        for (colour, id) in super::super::components::Colour::ALL.iter().zip(CARD_IDS) {
            assert_eq!(serde_json::to_value(colour).unwrap(), id);
        }
    }

    #[test]
    fn a_seats_uses_are_the_cards_it_took_dealt_and_drawn() {
        use crate::castles::roster::make;
        use crate::play::play_game;
        let comps = Components::builtin();
        let config = CastlesState::config(3, &[0; 3], true).unwrap();
        let mut players: Vec<_> = (0..3).map(|_| make("greedy", &[]).unwrap()).collect();
        let scores: Scores = play_game(&comps, &config, &mut players, SeedSequence::new(5, &[2]));
        let dealt = u16::try_from(crate::castles::state::START_HAND).unwrap();
        for seat in 0..3 {
            let mut uses = Vec::new();
            scores.uses(seat, &mut uses);
            uses.retain(|u| u.kind == "cards");
            let total: i64 = uses.iter().map(|u| u.count).sum();
            assert!(total >= i64::from(dealt), "seat {seat} took {total}");
            assert!(uses.iter().all(|u| u.count > 0 && CARD_IDS.contains(&u.id.as_str())));
            assert_eq!(total, scores.taken[seat].iter().map(|&k| i64::from(k)).sum::<i64>());
        }
    }

    #[test]
    fn a_seats_other_uses_are_its_tiles_bonuses_tokens_areas_and_harvests() {
        use crate::castles::roster::make;
        use crate::play::play_game;
        let comps = Components::builtin();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..6u64 {
            let config = CastlesState::config(4, &[0; 4], true).unwrap();
            let mut players: Vec<_> = (0..4).map(|_| make("greedy", &[]).unwrap()).collect();
            let scores: Scores = play_game(&comps, &config, &mut players,
                                           SeedSequence::new(7, &[seed]));
            let mut claims = [0; N_COLOURS];
            for seat in 0..4 {
                let mut uses = Vec::new();
                scores.uses(seat, &mut uses);
                assert!(uses.iter().all(|u| u.count > 0));
                let of = |kind: &str| uses.iter().filter(|u| u.kind == kind)
                    .map(|u| (u.id.clone(), u.count)).collect::<Vec<_>>();
                // tiles placed: at most the board's spaces less the start castle
                let placed: i64 = ["player_tiles", "neutral_tiles"].iter()
                    .flat_map(|k| of(k)).map(|(_, c)| c).sum();
                let covered = BOARD_SPACES as i64 - 1 - i64::from(scores.empty_spaces[seat]);
                assert!(placed <= covered && placed > 0, "seat {seat}: {placed} {covered}");
                for (id, count) in of("player_tiles").iter().chain(&of("neutral_tiles")) {
                    assert!(CARD_IDS.contains(&id.as_str()) && *count <= PLAYER_TILES as i64);
                }
                // a colour bonus once a seat, two seats at most a colour (T9.1, T9.2)
                for (id, count) in of("colour_bonus") {
                    assert_eq!(count, 1);
                    claims[CARD_IDS.iter().position(|&c| c == id).unwrap()] += 1;
                }
                // a red-VP harvest card pays its amount on the red track (TC5)
                let red: i64 = of("harvest").iter().filter(|(id, _)| id == "red_vp")
                    .map(|(_, c)| c * 2).sum();
                assert_eq!(red, i64::from(scores.red_by[seat][VpSource::HarvestRed as usize]));
                for (id, _) in of("bonus_tokens") {
                    assert!(TOKEN_IDS.contains(&id.as_str()));
                }
                for (id, _) in of("area_vp") {
                    assert!(["0", "1", "2"].contains(&id.as_str()));
                }
                seen.extend(uses.iter().map(|u| u.kind));
            }
            assert!(claims.iter().all(|&c| c <= 2), "{claims:?}");
        }
        for kind in ["player_tiles", "neutral_tiles", "colour_bonus", "bonus_tokens", "area_vp",
                     "harvest"] {
            assert!(seen.contains(kind), "no game used {kind}");
        }
    }

    #[test]
    fn a_seats_piece_uses_are_the_three_pieces_it_was_dealt() {
        use crate::castles::roster::make;
        use crate::play::play_game;
        let comps = Components::builtin();
        let names = &comps.tables().piece_names;
        let mut dealt_to_seat0 = std::collections::BTreeSet::new();
        for (players, seed) in [(2, 0u64), (3, 1), (4, 2), (4, 3), (2, 4), (3, 5)] {
            let config = CastlesState::config(players, &vec![0; players], true).unwrap();
            let seq = SeedSequence::new(11, &[seed]);
            // the deal as the state made it (T2.6), from the same seed
            let (state, _) = <CastlesState as Game>::new(&comps, &config, seq.clone());
            let mut lineup: Vec<_> = (0..players).map(|_| make("greedy", &[]).unwrap()).collect();
            let scores: Scores = play_game(&comps, &config, &mut lineup, seq);
            let mut seen = std::collections::BTreeSet::new();
            for seat in 0..players {
                let mut uses = Vec::new();
                scores.uses(seat, &mut uses);
                uses.retain(|u| u.kind == "pieces");
                let mut got: Vec<_> = uses.iter().map(|u| (u.id.clone(), u.count)).collect();
                got.sort();
                let mut want: Vec<_> = state.seats[seat].pieces.iter()
                    .map(|&p| (names[usize::from(p)].clone(), 1)).collect();
                want.sort();
                assert_eq!(got, want, "{players} players, seat {seat}");
                // one piece of each kind, A, B and C
                let kinds: Vec<_> = got.iter().map(|(id, _)| &id[..1]).collect();
                assert_eq!(kinds, ["A", "B", "C"], "{got:?}");
                // each copy is dealt to one seat at most (T1.5: four of each kind)
                for (id, _) in got {
                    assert!(seen.insert(id.clone()), "{id} dealt twice");
                }
                if seat == 0 {
                    dealt_to_seat0.extend(state.seats[0].pieces);
                }
            }
        }
        // dealt at random: the first seat does not always get the same pieces
        assert!(dealt_to_seat0.len() > 3, "{dealt_to_seat0:?}");
    }

    #[test]
    fn the_breakdown_columns_are_the_vp_sources() {
        assert_eq!(SOURCES[0], "start");
        for (i, source) in VpSource::ALL.iter().enumerate() {
            assert_eq!(SOURCES[1 + i], source.name());
            assert_eq!(VP_COLUMNS[1 + i], format!("vp_{}", source.name()));
        }
    }
}
