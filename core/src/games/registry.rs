//! The games by name (OpenSpiel's `register_game` / `load_game`): the binding and the
//! batch runner pick a game by its name here and never name one themselves. Adding a
//! game is one line in `GAMES`: its state type, its players' type and their `make`.

use std::any::Any;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::batch::{self, Chunk, Columns, StrategySpec};
use crate::carpe_diem::{self, game::GameState, players::Player};
use crate::castles::{self, learned::labels as castles_labels, CastlesState,
                     roster::PLAYER_NAMES as CASTLES_PLAYERS};
use crate::mediterranean::{self, MedState, players::PLAYER_NAMES as MED_PLAYERS};
use crate::games::table::{Seated, Table};
use crate::games::{replay, ColumnType, Game, Outcome};
use crate::players::fitted::labels::{LabelRows, LabelSpec};
use crate::players::Strategy;
use crate::rng::SeedSequence;

/// A component set of some game, as the registry hands it around.
pub type AnyComponents = Arc<dyn Any + Send + Sync>;

/// A registered game, its types erased: what the binding needs to load its components
/// and play its chunks by name.
pub trait Registered: Sync {
    fn name(&self) -> &'static str;
    /// The component set from the normalised JSON the binding hands over.
    fn components(&self, json: &str) -> Result<AnyComponents, String>;
    /// The built-in component set's JSON, if the core holds it (`Game::builtin_components`).
    fn builtin_components(&self) -> Option<String>;
    /// The seat row's columns (`Outcome::columns`).
    fn columns(&self) -> Vec<(&'static str, ColumnType)>;
    /// The VP sources of a seat's final VP (`Outcome::BREAKDOWN`).
    fn breakdown(&self) -> &'static [&'static str];
    /// Play a chunk (`batch::play_chunk`) on a component set of this game.
    fn play_chunk(&self, comps: &(dyn Any + Send + Sync), chunk: &Chunk)
        -> Result<Columns, String>;
    /// Play one game and record it for a replay (`replay::record`), as JSON: the game
    /// `setup` (None: the seed's own deal, as `cdsim play` without `--setup`) of the run
    /// seed `entropy`, `lineup` by seat.
    fn replay(&self, comps: &(dyn Any + Send + Sync), game: &OneGame)
        -> Result<String, String>;
    /// One game at a table whose open seats are played from outside the core
    /// (`games::table`: a user's Python strategy), dealt as `replay` deals `game`; the
    /// line-up's None seats are the open ones.
    fn table(&self, comps: &AnyComponents, game: &OneTable) -> Result<Box<dyn Seated>, String>;
    /// Search labels for the game's learned player (`players::fitted::labels`), self-play
    /// with the weights file `weights` (its text; None: VP gained alone); an error for a
    /// game without a learned player over the seam.
    fn labels(&self, comps: &(dyn Any + Send + Sync), spec: &LabelSpec, weights: Option<&str>)
        -> Result<LabelRows, String>;
    /// Its built-in players' names, each one its `make` makes (none listed: a game whose
    /// players' names the binding's caller knows, as Python knows Carpe Diem's).
    fn player_names(&self) -> Vec<&'static str>;
    /// The player counts it is played by: those its `Game::config` accepts, of 1 to
    /// `SEATS_ASKED` (shared code asks the game, never names one to know its counts).
    fn player_counts(&self) -> Vec<usize>;
}

/// The most seats `Registered::player_counts` asks a game's config about.
pub const SEATS_ASKED: usize = 8;

/// A game's search labels (`Registered::labels`), on its own components.
pub type Labeller<G> = fn(&G, &LabelSpec, Option<&str>) -> Result<LabelRows, String>;

/// One game as `Registered::replay` plays it.
pub struct OneGame<'a> {
    pub players: usize,
    pub start_vp: &'a [i32],
    pub entropy: u64,
    pub setup: Option<u64>,
    pub lineup: &'a [StrategySpec],
    pub check: bool,
}

/// One game as `Registered::table` seats it: as `OneGame`, a seat of the line-up None
/// where it is open.
pub struct OneTable<'a> {
    pub players: usize,
    pub start_vp: &'a [i32],
    pub entropy: u64,
    pub setup: Option<u64>,
    pub lineup: &'a [Option<StrategySpec>],
    pub check: bool,
}

/// A game's built-in player by name, with its parameter overrides (`--strategy-params`).
pub type MakePlayer<P> = fn(&str, &[(String, f64)]) -> Result<P, String>;

/// A game's built-in players' names (`Registered::player_names`).
pub type PlayerNames = fn() -> Vec<&'static str>;

fn no_names() -> Vec<&'static str> {
    Vec::new()
}

/// A game `G` whose seats are played by `P`, made by name by `make`.
pub struct Entry<G: Game, P> {
    name: &'static str,
    make: MakePlayer<P>,
    labels: Option<Labeller<G::Components>>,
    players: PlayerNames,
    game: PhantomData<fn() -> G>,
}

impl<G: Game, P> Entry<G, P> {
    pub const fn new(name: &'static str, make: MakePlayer<P>) -> Self {
        Entry { name, make, labels: None, players: no_names, game: PhantomData }
    }

    /// A game whose learned player is the seam's (`players::fitted`), with its labels.
    pub const fn learned(name: &'static str, make: MakePlayer<P>,
                         labels: Labeller<G::Components>) -> Self {
        Entry { name, make, labels: Some(labels), players: no_names, game: PhantomData }
    }

    /// The same entry, its players' names listed by `players` (the list `make` knows).
    pub const fn players(self, players: PlayerNames) -> Self {
        Entry { players, ..self }
    }
}

impl<G: Game, P: Strategy<G> + 'static> Registered for Entry<G, P> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn components(&self, json: &str) -> Result<AnyComponents, String> {
        Ok(Arc::new(G::components(json)?))
    }

    fn builtin_components(&self) -> Option<String> {
        G::builtin_components()
    }

    fn columns(&self) -> Vec<(&'static str, ColumnType)> {
        <G::Outcome as Outcome>::columns()
    }

    fn breakdown(&self) -> &'static [&'static str] {
        <G::Outcome as Outcome>::BREAKDOWN
    }

    fn play_chunk(&self, comps: &(dyn Any + Send + Sync), chunk: &Chunk)
        -> Result<Columns, String> {
        let comps = comps.downcast_ref::<G::Components>()
            .ok_or_else(|| format!("these components are not {}'s", self.name))?;
        batch::play_chunk::<G, P>(comps, chunk, self.make)
    }

    fn replay(&self, comps: &(dyn Any + Send + Sync), game: &OneGame)
        -> Result<String, String> {
        let comps = comps.downcast_ref::<G::Components>()
            .ok_or_else(|| format!("these components are not {}'s", self.name))?;
        let config = G::config(game.players, game.start_vp, game.check)?;
        if game.lineup.len() != game.players {
            return Err(format!("{} players for {} seats", game.lineup.len(), game.players));
        }
        let mut lineup: Vec<P> = game.lineup.iter()
            .map(|spec| (self.make)(&spec.name, &spec.overrides))
            .collect::<Result<_, _>>()?;
        let run_seed = i64::try_from(game.entropy).map_err(|_| "the seed must fit 63 bits")?;
        let key: Vec<u64> = game.setup.into_iter().collect();
        let seed = SeedSequence::new(u128::from(game.entropy), &key);
        let record = replay::record::<G, P>(comps, &config, &mut lineup, seed, run_seed)?;
        serde_json::to_string(&record).map_err(|e| e.to_string())
    }

    fn table(&self, comps: &AnyComponents, game: &OneTable) -> Result<Box<dyn Seated>, String> {
        let comps = Arc::clone(comps).downcast::<G::Components>()
            .map_err(|_| format!("these components are not {}'s", self.name))?;
        let config = G::config(game.players, game.start_vp, game.check)?;
        if game.lineup.len() != game.players {
            return Err(format!("{} players for {} seats", game.lineup.len(), game.players));
        }
        let lineup: Vec<Option<P>> = game.lineup.iter()
            .map(|spec| spec.as_ref().map(|s| (self.make)(&s.name, &s.overrides)).transpose())
            .collect::<Result<_, _>>()?;
        Ok(Box::new(Table::<G, P>::new(comps, &config, game.entropy, game.setup, lineup)?))
    }

    fn labels(&self, comps: &(dyn Any + Send + Sync), spec: &LabelSpec, weights: Option<&str>)
        -> Result<LabelRows, String> {
        let comps = comps.downcast_ref::<G::Components>()
            .ok_or_else(|| format!("these components are not {}'s", self.name))?;
        let labels = self.labels
            .ok_or_else(|| format!("{} has no learned player over the seam to label", self.name))?;
        labels(comps, spec, weights)
    }

    fn player_names(&self) -> Vec<&'static str> {
        (self.players)()
    }

    fn player_counts(&self) -> Vec<usize> {
        (1..=SEATS_ASKED).filter(|&n| G::config(n, &vec![0; n], false).is_ok()).collect()
    }
}

/// Every game, by name; the first is the default.
pub static GAMES: &[&dyn Registered] = &[
    &Entry::<GameState, Player>::new("carpe-diem", carpe_diem::players::make),
    &Entry::<CastlesState, castles::Player>::learned("castles", castles::roster::make,
                                                     castles_labels)
        .players(|| CASTLES_PLAYERS.to_vec()),
    &Entry::<MedState, mediterranean::Player>::new("mediterranean", mediterranean::players::make)
        .players(|| MED_PLAYERS.to_vec()),
];

/// The game played when none is named.
pub fn default() -> &'static dyn Registered {
    GAMES[0]
}

/// The game called `name`, or an error naming the known ones.
pub fn game(name: &str) -> Result<&'static dyn Registered, String> {
    GAMES.iter().find(|g| g.name() == name).copied().ok_or_else(|| {
        let known: Vec<_> = GAMES.iter().map(|g| g.name()).collect();
        format!("unknown game {name:?} (known: {})", known.join(", "))
    })
}

/// The registered games' names, the default first.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::StrategySpec;
    use std::fs;
    use std::path::{Path, PathBuf};

    #[test]
    fn games_are_found_by_name_and_carpe_diem_is_the_default() {
        assert_eq!(default().name(), "carpe-diem");
        let mut unique = names();
        unique.dedup();
        assert_eq!(unique, names());
        assert_eq!(game("carpe-diem").unwrap().name(), "carpe-diem");
        let err = game("chess").err().unwrap();
        assert!(err.contains("\"chess\"") && err.contains("carpe-diem"), "{err}");
    }

    #[test]
    fn each_game_lists_the_players_its_make_makes() {
        assert_eq!(names(), ["carpe-diem", "castles", "mediterranean"]);
        // every game whose players the core lists (Carpe Diem's are Python's), named by none
        let listing: Vec<_> = GAMES.iter().filter(|g| !g.player_names().is_empty()).collect();
        let named: Vec<_> = listing.iter().map(|g| g.name()).collect();
        assert_eq!(named, ["castles", "mediterranean"]);
        for g in listing {
            let (name, players) = (g.name(), g.player_names());
            assert!(players.contains(&"random") && players.contains(&"greedy"), "{players:?}");
            let comps = g.components(&g.builtin_components().unwrap()).unwrap();
            let n = g.player_counts()[0]; // its smallest table, whatever the game
            let (start_vp, lineups) = (vec![0; n], vec![0; n]);
            for player in players {
                let lineup = [StrategySpec { name: player.into(), overrides: vec![] }];
                if player == "mcts" {
                    continue; // made by name as the rest, too slow to play here
                }
                let chunk = Chunk { players: n, start_vp: &start_vp, check: false, entropy: 1,
                                    games: &[0], setups: &[0], lineups: &lineups,
                                    strategies: &lineup, stop: None, uses: false };
                let played = g.play_chunk(&*comps, &chunk);
                assert!(played.is_ok(), "{name} {player}: {:?}", played.err());
            }
            let lineup = vec![StrategySpec { name: "no-such".into(), overrides: vec![] }; n];
            let one = OneGame { players: n, start_vp: &start_vp, entropy: 1, setup: None,
                                lineup: &lineup, check: false };
            assert!(g.replay(&*comps, &one).is_err(), "{name}");
        }
        assert!(default().player_names().is_empty(), "Carpe Diem's names are Python's");
    }

    /// Every game's table by name (`Registered::table`, what the binding's `GameTable`
    /// holds): open seats played from outside to the end beside a built-in one, the same
    /// choices giving the same rows, and what is not a table refused.
    #[test]
    fn every_game_seats_open_seats_at_a_table_by_name() {
        for g in GAMES.iter().filter(|g| g.builtin_components().is_some()) {
            let comps = g.components(&g.builtin_components().unwrap()).unwrap();
            let n = *g.player_counts().last().unwrap();
            let start_vp = vec![0; n];
            let mut lineup = vec![None; n];
            lineup[1] = Some(StrategySpec { name: "greedy".into(), overrides: vec![] });
            let one = OneTable { players: n, start_vp: &start_vp, entropy: 5, setup: Some(2),
                                 lineup: &lineup, check: true };
            let play = |pick: usize| {
                let mut table = g.table(&comps, &one).unwrap();
                let mut asked = 0;
                loop {
                    table.play().unwrap();
                    let Some(seat) = table.current_seat() else { break };
                    assert!(seat != 1 && table.is_open(seat), "{}", g.name());
                    assert!(table.observe().unwrap().is_object());
                    let options = table.options();
                    assert!(options.iter().all(|o| !o.is_empty()), "{}", g.name());
                    table.apply((asked * pick) % options.len()).unwrap();
                    asked += 1;
                }
                assert!(asked > 20 && table.decisions() > asked as u64, "{}", g.name());
                table.rows().unwrap()
            };
            let (columns, rows) = play(7);
            assert_eq!(rows.len(), n);
            assert_eq!(columns, g.columns().iter().map(|&(c, _)| c).collect::<Vec<_>>());
            assert_eq!(play(7).1, rows, "{}: the same choices play the same game", g.name());
            let short = OneTable { lineup: &lineup[1..], ..one };
            assert!(g.table(&comps, &short).is_err());
            let other: AnyComponents = Arc::new(crate::games::toy::Cards::standard());
            assert!(g.table(&other, &one).is_err(), "another game's components");
        }
    }

    #[test]
    fn each_game_says_its_player_counts_through_the_seam() {
        let counts: Vec<Vec<usize>> = GAMES.iter().map(|g| g.player_counts()).collect();
        assert_eq!(counts, [vec![2, 3, 4], vec![2, 3, 4], vec![3, 4, 5]]);
    }

    /// A Rust file's code lines: its test module and comments left out (none for a file of
    /// tests).
    fn code_lines(path: &Path) -> Vec<String> {
        if path.file_name().is_some_and(|f| f == "tests.rs") {
            return Vec::new();
        }
        let text = fs::read_to_string(path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        code.lines().map(|l| l.split("//").next().unwrap_or_default().to_owned()).collect()
    }

    /// A Rust file's lines of code and of tests, comments left out: a shared file's tests
    /// play the crate's test game (games/toy.rs), not a registered one.
    fn code_and_test_lines(path: &Path) -> Vec<String> {
        fs::read_to_string(path).unwrap().lines()
            .map(|l| l.split("//").next().unwrap_or_default().to_owned()).collect()
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The seam (src/games/), the players of any game (src/players/) and the crate root's
    /// shared files (batch.rs, play.rs, rng.rs: all but lib.rs, which declares the games'
    /// modules) name no game, by its module or its registered name, in their code or their
    /// tests: only the registry's lines do, one `use` and one entry a game
    /// (tests/test_seam.py holds the same of the rest of the crate's shared files).
    #[test]
    fn the_seam_and_the_shared_players_name_no_game() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut games: Vec<String> = fs::read_dir(&src).unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("mod.rs").is_file())
            .filter_map(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()))
            .filter(|f| !["games", "players", "python"].contains(&f.as_str()))
            .collect();
        games.sort();
        assert_eq!(games, ["carpe_diem", "castles", "mediterranean"]);
        let mut words: Vec<String> = games.iter().map(|g| format!("{g}::")).collect();
        words.extend(names().iter().map(|n| format!("{n:?}")));
        let mut files = Vec::new();
        rust_files(&src.join("games"), &mut files);
        rust_files(&src.join("players"), &mut files);
        let root: Vec<PathBuf> = fs::read_dir(&src).unwrap().map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .filter(|p| p.file_name().is_some_and(|f| f != "lib.rs"))
            .collect();
        assert!(["batch.rs", "play.rs", "rng.rs"].iter().all(|f| root.contains(&src.join(f))));
        files.extend(root);
        let registry = src.join("games").join("registry.rs");
        let mut naming = Vec::new();
        for file in files.iter().filter(|f| **f != registry) {
            for line in code_and_test_lines(file) {
                if words.iter().any(|w| line.contains(w.as_str())) {
                    naming.push(format!("{}: {}", file.display(), line.trim()));
                }
            }
        }
        assert!(naming.is_empty(), "shared crate code names a game:\n{}", naming.join("\n"));
        let lines = code_lines(&registry);
        for (game, name) in games.iter().zip(names()) {
            let naming: Vec<_> = lines.iter()
                .filter(|l| l.contains(&format!("{game}::")) || l.contains(&format!("{name:?}")))
                .collect();
            assert!(naming.len() <= 2, "the registry names {name} beyond its use and entry: {naming:?}");
        }
    }

    #[test]
    fn every_game_writes_the_shared_columns_at_their_places_and_adds_only_its_own() {
        use crate::games::rows::{shared, split, ColumnType::Int};
        for name in names() {
            let columns = game(name).unwrap().columns();
            let [vp, before, after] = split(&columns).unwrap_or_else(|e| panic!("{name}: {e}"));
            let sources: Vec<_> = game(name).unwrap().breakdown().iter()
                .map(|s| (format!("vp_{s}"), Int)).collect();
            assert_eq!(vp.iter().map(|&(n, t)| (n.to_string(), t)).collect::<Vec<_>>(), sources,
                       "{name}");
            assert_eq!(columns.len(), shared().len() + vp.len() + before.len() + after.len());
        }
        // the check can fail: a shared column moved, left out or written twice
        let columns = game("castles").unwrap().columns();
        let mut moved = columns.clone();
        moved.swap(0, 1);
        let mut without = columns.clone();
        without.retain(|&(name, _)| name != "won");
        let mut twice = columns.clone();
        twice.insert(4, ("seed", Int));
        for bad in [moved, without, twice] {
            assert!(split(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_registered_game_plays_its_chunks_as_the_batch_runner_does() {
        let json = include_str!("../../tests/data/components.json");
        let cd = game("carpe-diem").unwrap();
        let comps = cd.components(json).unwrap();
        let strategies = [StrategySpec { name: "greedy".into(), overrides: vec![] }];
        let chunk = Chunk { players: 2, start_vp: &[8, 9], check: false, entropy: 3,
                            games: &[0], setups: &[0], lineups: &[0, 0],
                            strategies: &strategies, stop: None, uses: false };
        let by_name = cd.play_chunk(&*comps, &chunk).unwrap();
        let direct = batch::play_chunk::<GameState, _>(&crate::carpe_diem::components::fixture(), &chunk,
                                                        carpe_diem::players::make).unwrap();
        assert_eq!(by_name.columns, direct.columns);
        assert_eq!(by_name.tables, direct.tables);
        let names: Vec<_> = cd.columns().into_iter().map(|(name, _)| name).collect();
        assert_eq!(names, by_name.columns.iter().take(names.len()).map(|&(n, _)| n)
                   .collect::<Vec<_>>());
        assert_eq!(cd.breakdown()[0], "start");
        assert_eq!(cd.builtin_components(), None, "Carpe Diem's set comes from Python");
        let castles = game("castles").unwrap().builtin_components().unwrap();
        assert!(game("castles").unwrap().components(&castles).is_ok());
        // another game's components are refused, not misread
        let other: AnyComponents = Arc::new(crate::games::toy::Cards::standard());
        assert!(cd.play_chunk(&*other, &chunk).unwrap_err().contains("carpe-diem"));
        assert!(cd.components("{").is_err());
    }

    #[test]
    fn a_replay_by_name_is_the_game_a_chunk_plays_from_its_setup() {
        let castles = game("castles").unwrap();
        let comps = castles.components(&castles.builtin_components().unwrap()).unwrap();
        let lineup = [StrategySpec { name: "greedy".into(), overrides: vec![] },
                      StrategySpec { name: "random".into(), overrides: vec![] }];
        let one = OneGame { players: 2, start_vp: &[0, 3], entropy: 11, setup: Some(4),
                            lineup: &lineup, check: true };
        let replay: serde_json::Value =
            serde_json::from_str(&castles.replay(&*comps, &one).unwrap()).unwrap();
        let chunk = Chunk { players: 2, start_vp: &[0, 3], check: true, entropy: 11,
                            games: &[0], setups: &[4], lineups: &[0, 1],
                            strategies: &lineup, stop: None, uses: false };
        let played = castles.play_chunk(&*comps, &chunk).unwrap();
        let final_vp = played.columns.iter().find(|(n, _)| *n == "final_vp").unwrap();
        let crate::games::Values::Int(want) = &final_vp.1 else { panic!("final_vp is ints") };
        let at = replay["columns"].as_array().unwrap().iter()
            .position(|c| c == "final_vp").unwrap();
        let got: Vec<i64> = replay["rows"].as_array().unwrap().iter()
            .map(|r| r[at].as_i64().unwrap()).collect();
        assert_eq!(&got, want);
        let steps = replay["steps"].as_array().unwrap();
        assert!(steps.len() > 50 && steps[0]["decision"] == "lay", "{}", steps.len());
        assert_eq!(steps.last().unwrap()["frame"]["pending"]["Turn"]["seat"],
                   steps.last().unwrap()["seat"]);
        // a line-up of the wrong length and an unknown player are refused, not played
        let short = OneGame { lineup: &lineup[..1], ..one };
        assert!(castles.replay(&*comps, &short).is_err());
        let villa = StrategySpec { name: "villa".into(), overrides: vec![] };
        let bad = [villa.clone(), villa];
        assert!(castles.replay(&*comps, &OneGame { lineup: &bad, ..one }).unwrap_err()
                .contains("villa"));
    }
}
