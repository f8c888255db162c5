//! A new scripted player is one table of a profiles file (core/src/carpe_diem/players/profile.rs):
//! registered, it is made by name and plays whole games; an edited table replaces the
//! compiled-in one. Its own test binary: registering is process-wide.

mod common;

use cdsim_core::carpe_diem::game::GameConfig;
use cdsim_core::play::play_game;
use cdsim_core::carpe_diem::players::params::PROFILES_TOML;
use cdsim_core::carpe_diem::players::{builtin, make, profile, Player};
use cdsim_core::rng::SeedSequence;
use common::comps;

#[test]
fn a_table_added_to_the_profiles_file_is_a_player() {
    let c = comps();
    assert!(make("hoarder", &[]).is_err(), "not a player before it is registered");
    let file = format!("{PROFILES_TOML}\n[hoarder]\ndescription = \"stores tiles\"\n\
                        store = 4.0\nfavoured = [\"market\"]\n");
    let names = profile::register(&file).unwrap();
    assert_eq!(names, ["greedy", "villa", "landscape", "bread", "hoarder"]);
    assert!(builtin().contains(&"hoarder"));
    let config = GameConfig::new(2);
    let play = |a: &str| {
        let mut lineup: Vec<Player> = [a, "greedy"].iter().map(|n| make(n, &[]).unwrap()).collect();
        play_game(&c, &config, &mut lineup, SeedSequence::new(7, &[0]))
    };
    let hoarder = play("hoarder");
    assert_eq!(hoarder.seats[0].strategy, "hoarder");
    // its weights are its own: the same deal played by greedy in its seat goes otherwise
    assert_ne!(hoarder.seats[0].final_vp, play("greedy").seats[0].final_vp);

    // an edited table replaces the compiled-in one by name
    let edited = PROFILES_TOML.replace("[villa]\n", "[villa]\nstore = 9.0\n");
    profile::register(&edited).unwrap();
    let Player::Scripted(villa) = make("villa", &[]).unwrap() else { panic!("scripted") };
    assert_eq!(villa.params.store, 9.0);
    assert!(make("hoarder", &[]).is_err(), "a file registered again replaces the last");

    // a faulty file is refused whole, and what was registered stays
    let err = profile::register(&format!("{PROFILES_TOML}[x]\nstores = 1\n")).unwrap_err();
    assert!(err.contains("[x]: no parameter \"stores\""), "{err}");
    let Player::Scripted(villa) = make("villa", &[]).unwrap() else { panic!("scripted") };
    assert_eq!(villa.params.store, 9.0);
}
