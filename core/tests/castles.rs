//! The Castles of Tuscany, rules T1–T4 (docs/rules-castles.md): the components, the
//! setup, the turn and drawing cards. One test per rule, its number in the test's name.
//! T5–T7 are in castles_tiles.rs, T8–T12 in castles_effects.rs, the rulebook's examples
//! in castles_examples.rs, whole games in castles_games.rs.

mod castles_common;

use castles_common::*;
use cdsim_core::castles::components::{Source, BOARD_SPACES};
use cdsim_core::castles::tables::{Layout, LAYOUTS};
use cdsim_core::castles::{
    Action, BonusKind, CastlesConfig, CastlesState, Colour, Components, Pending, Stage, Stored,
};
use cdsim_core::rng::SeedSequence;

#[test]
fn t1_the_builtin_set_has_the_rulebooks_counts() {
    let c = comps();
    let t = c.tables();
    let codes: std::collections::HashSet<char> = Colour::ALL.iter().map(|c| c.code()).collect();
    assert_eq!(codes.len(), 8, "T1.1: eight colours");
    assert!(Colour::ALL
        .iter()
        .all(|&c| Colour::from_code(c.code()) == Some(c)));
    assert_eq!(t.player_tiles.len(), 21, "T1.2");
    let per_colour = |tiles: &[cdsim_core::castles::Tile], col: Colour| {
        tiles.iter().filter(|x| x.colour() == col).count()
    };
    let own = [1, 2, 1, 4, 3, 4, 3, 3]; // castle city estate farm quarry village monastery cart
    for col in Colour::ALL {
        assert_eq!(
            per_colour(&t.player_tiles, col),
            own[col.index()],
            "T1.2 {col:?}"
        );
    }
    assert_eq!(t.neutral_tiles.len(), 32, "T1.2");
    assert!(
        t.neutral_tiles.iter().all(|x| x.is_neutral())
            && !t.player_tiles.iter().any(|x| x.is_neutral())
    );
    assert_eq!(t.cards.len(), 122, "T1.3");
    assert_eq!(t.harvest.len(), 27, "T1.3");
    assert_eq!(t.bonus_supply, [5; 5], "T1.4");
    assert_eq!(
        t.pieces_by_kind.iter().map(|k| k.len()).collect::<Vec<_>>(),
        vec![4, 4, 4],
        "T1.5"
    );
    assert_eq!(c.colour_bonus.len(), 8, "T1.6");
    // TC1: any A+B+C board has the rulebook's "up to" counts plus the start castle
    let spaces = [3, 3, 2, 5, 4, 5, 4, 4];
    for &a in &t.pieces_by_kind[0] {
        for &b in &t.pieces_by_kind[1] {
            for &k in &t.pieces_by_kind[2] {
                let mut count = [0; 8];
                for p in [a, b, k] {
                    for &col in &t.piece_colour[p as usize] {
                        count[col as usize] += 1;
                    }
                }
                assert_eq!(count, spaces);
            }
        }
    }
    // every entry says where it comes from; the printed ones are the rulebook's
    assert!(c.bonus_tokens.iter().all(|b| b.source == Source::Rulebook));
    assert!(c.pieces.iter().all(|p| p.source == Source::Reconstructed));
    assert_eq!(c.area_vp.source, Source::Rulebook);
}

#[test]
fn t1_validate_names_each_bad_entry_in_one_line() {
    let mut bad = comps();
    bad.player_tiles[0].count = 5; // 22 tiles
    bad.pieces[3].left = "QFFMX".into(); // unknown code
    bad.pieces[5].left = "KMMQW".into(); // B-2: monasteries 1, 2, 6, 7 make an area of 4
    bad.neutral_tiles[7].crops.clear(); // a farm with no crop
    bad.colour_bonus[0].second = 9;
    let errors = bad.validate().unwrap_err();
    assert_eq!(errors.len(), 5, "{errors:#?}");
    assert!(
        errors
            .iter()
            .any(|e| e.contains("player_tiles") && e.contains("22")),
        "{errors:#?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("A-4") && e.contains("'X'")),
        "{errors:#?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("B-2") && e.contains("area of 4")),
        "{errors:#?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("neutral_tiles[7]") && e.contains("crops")),
        "{errors:#?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("colour_bonus[0]")),
        "{errors:#?}"
    );
    assert!(comps().validate().is_ok());
}

#[test]
fn t1_the_set_round_trips_through_json_and_bad_json_is_one_line() {
    let c = comps();
    let text = serde_json::to_string(&c).unwrap();
    let back = Components::from_json(&text).expect("valid");
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    assert!(
        text.contains("\"source\":\"reconstructed\"") && text.contains("\"source\":\"rulebook\"")
    );
    let errors = Components::from_json("{\"player_tiles\": 3}").unwrap_err();
    assert_eq!(errors, ["player_tiles: expected a list, got 3"]);
    let errors = Components::from_json("{").unwrap_err();
    assert!(errors[0].starts_with("castles components JSON"), "{errors:?}");
}

/// An entry's key is checked, not dropped: a misspelled one (`frist` for `first`) would
/// otherwise leave the entry as the built-in set has it, in silence. Each fault names its
/// key and what it should hold, without a place in the JSON cdsim merged.
#[test]
fn t1_an_unknown_key_or_a_bad_value_names_its_key() {
    let edited = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = serde_json::to_value(comps()).unwrap();
        edit(&mut v);
        Components::from_json(&v.to_string()).unwrap_err()
    };
    assert_eq!(
        edited(&|v| v["colour_bonus"][0]["frist"] = 6.into()),
        ["colour_bonus[0].frist: unknown key \"frist\" (known: colour, first, second, source)"]
    );
    assert_eq!(
        edited(&|v| v["area_vp"]["bonus"] = 1.into()),
        ["area_vp.bonus: unknown key \"bonus\" (known: vp, source)"]
    );
    assert_eq!(
        edited(&|v| v["rules"] = 1.into())[0],
        "rules: unknown key \"rules\" (known: player_tiles, neutral_tiles, cards, harvest, \
         bonus_tokens, colour_bonus, pieces, area_vp)"
    );
    assert_eq!(
        edited(&|v| v["colour_bonus"][0]["first"] = (-4).into()),
        ["colour_bonus[0].first: expected a whole number 0 to 255, got -4"]
    );
    for table in ["player_tiles", "neutral_tiles", "cards", "harvest", "bonus_tokens", "pieces"] {
        let line = edited(&|v| v[table][0]["nosuch"] = 1.into());
        assert!(line[0].starts_with(&format!("{table}[0].nosuch: unknown key")), "{line:?}");
    }
}

#[test]
fn t2_setup_deals_in_the_rulebooks_order_and_asks_each_seat() {
    let c = comps();
    for n in 2..=4 {
        let (mut st, streams) =
            CastlesState::new(&c, &CastlesConfig { players: n }, SeedSequence::new(9, &[]));
        assert_eq!(streams.len(), n, "one stream per seat");
        assert_eq!(st.display.iter().flatten().count(), 8, "T2.4");
        assert_eq!(st.harvest_len, 27, "T2.1: the harvest pile");
        assert_eq!(st.bonus_supply, [5; 5], "T2.1: the token piles");
        assert_eq!(
            st.colour_claims, [0; 8],
            "T2.1: colour bonus tiles on side 1"
        );
        assert_eq!(st.deck_len as usize, 122 - 5 * n, "T2.1: the shuffled pile");
        assert_eq!(st.card_census(), 122);
        for seat in 0..n {
            assert_eq!(st.seats[seat].hand_size(), 5, "T2.5");
            assert_eq!(st.seats[seat].drawn, 0, "T2.2");
            let mut colours: Vec<_> = st.seats[seat].stack.iter().map(|t| t.colour()).collect();
            colours.sort();
            let mut own: Vec<_> = c.tables().player_tiles.iter().map(|t| t.colour()).collect();
            own.sort();
            assert_eq!(colours, own, "T2.2: the 21 own tiles in the stacks");
            let kinds: Vec<_> = st.seats[seat]
                .pieces
                .iter()
                .map(|&p| c.pieces[p as usize].kind.index())
                .collect();
            assert_eq!(kinds, vec![0, 1, 2], "T2.6: one A, one B, one C");
        }
        let order: Vec<_> = (0..3 * n)
            .map(|_| {
                let p = st.pending;
                let opts = options(&st, &c);
                st.apply(&c, opts[0]);
                p
            })
            .collect();
        let expect: Vec<Pending> = (0..n)
            .map(|s| Pending::Lay { seat: s as u8 })
            .chain((0..n).map(|s| Pending::StartCastle { seat: s as u8 }))
            .chain((0..n).map(|s| Pending::SetupToken { seat: s as u8 }))
            .collect();
        assert_eq!(
            order, expect,
            "T2.6-T2.8 in seat order from the start player"
        );
        assert_eq!(
            st.pending,
            Pending::Turn {
                seat: 0,
                stage: Stage::Main
            },
            "T2.3: seat 1 starts"
        );
    }
}

#[test]
fn t2_4_t6_1_no_first_display_shows_five_of_a_colour() {
    // the builtin reserve has 4 of a colour; a set with 12 neutral villages tests the rule
    let mut set = comps();
    let village = set
        .neutral_tiles
        .iter()
        .position(|t| t.colour == Colour::Village)
        .unwrap();
    set.neutral_tiles[village].count = 12;
    let c = set.prepare().expect("valid");
    let mut swept = 0;
    for seed in 0..200 {
        let (st, _) = CastlesState::new(
            &c,
            &CastlesConfig { players: 4 },
            SeedSequence::new(seed, &[]),
        );
        let mut count = [0; 8];
        for t in st.display.iter().flatten() {
            count[t.colour().index()] += 1;
        }
        assert!(count.iter().all(|&k| k < 5), "seed {seed}: {count:?}");
        assert_eq!(st.display.iter().flatten().count(), 8);
        swept += (st.aside_len > 0) as usize;
    }
    assert!(swept > 0, "some first display had five villages");
}

#[test]
fn t2_6_a_seat_chooses_among_432_layouts_each_shifted_at_most_one() {
    let c = comps();
    let (st, _) = CastlesState::new(&c, &CastlesConfig { players: 2 }, SeedSequence::new(1, &[]));
    let opts = options(&st, &c);
    assert_eq!(opts.len(), LAYOUTS);
    let mut seen = std::collections::HashSet::new();
    for id in 0..LAYOUTS as u16 {
        let l = Layout::decode(id);
        assert!((l.offset[1] - l.offset[0]).abs() <= 1 && (l.offset[2] - l.offset[1]).abs() <= 1);
        seen.insert((l.order, l.turned, l.offset));
        // the pieces touch: every piece has a neighbour on the next piece
        let adj = &c.tables().adjacency[id as usize];
        let across = (0..BOARD_SPACES)
            .filter(|&s| adj[s] & !(0x3ff << (10 * (s / 10))) != 0)
            .count();
        assert!(across >= 8, "layout {id}: {across}");
    }
    assert_eq!(seen.len(), LAYOUTS, "every layout differs");
}

#[test]
fn t2_7_the_start_castle_goes_on_dark_green_and_scores_nothing() {
    let c = comps();
    let (mut st, _) =
        CastlesState::new(&c, &CastlesConfig { players: 2 }, SeedSequence::new(1, &[]));
    st.seats[0].pieces = PIECES;
    st.apply(&c, Action::Lay(FLAT));
    st.apply(&c, Action::Lay(FLAT));
    assert_eq!(
        options(&st, &c),
        vec![
            Action::StartCastle(2),
            Action::StartCastle(13),
            Action::StartCastle(23)
        ]
    );
    st.apply(&c, Action::StartCastle(START));
    assert_eq!(st.seats[0].filled, 1 << START);
    assert_eq!((st.seats[0].green, st.seats[0].red), (0, 0), "no area VP");
    assert_eq!(
        st.pending,
        Pending::StartCastle { seat: 1 },
        "no castle effect"
    );
}

#[test]
fn t2_8_each_seat_takes_a_token_and_storage_gives_two_green() {
    let c = comps();
    let (mut st, _) =
        CastlesState::new(&c, &CastlesConfig { players: 3 }, SeedSequence::new(1, &[]));
    for _ in 0..6 {
        let o = options(&st, &c);
        st.apply(&c, o[0]);
    }
    assert_eq!(options(&st, &c).len(), 5, "any kind");
    st.apply(&c, Action::Token(BonusKind::Storage));
    st.apply(&c, Action::Token(BonusKind::Storage));
    st.apply(&c, Action::Token(BonusKind::Marble));
    assert_eq!((st.seats[0].green, st.seats[0].capacity), (2, 2), "T8.3");
    assert_eq!(
        (
            st.seats[2].green,
            st.seats[2].capacity,
            st.seats[2].tokens[2]
        ),
        (0, 1, 1)
    );
    assert_eq!(st.bonus_supply, [5, 3, 4, 5, 5]);
}

#[test]
fn t3_2_t3_3_rounds_run_in_seat_order_and_a_turn_is_one_action() {
    let c = comps();
    let mut st = ready(&c, 3, 1);
    let kinds = |o: &[Action]| {
        let mut k: Vec<&str> = o
            .iter()
            .map(|a| match a {
                Action::Draw => "draw",
                Action::Take { .. } => "take",
                Action::Place { .. } => "place",
                _ => "other",
            })
            .collect();
        k.dedup();
        k
    };
    store(&mut st, 0, Stored::Tile(tile(Colour::City)));
    hand(&mut st, 0, &[(Colour::City, 2)]);
    st.display[0] = Some(tile(Colour::City)); // something fits: no sweep (T5.6)
    assert_eq!(kinds(&options(&st, &c)), vec!["draw", "take", "place"]);
    let mut seats = vec![];
    for _ in 0..7 {
        seats.push(st.to_move().unwrap());
        st.apply(&c, Action::Draw);
    }
    assert_eq!(seats, vec![0, 1, 2, 0, 1, 2, 0]);
}

#[test]
fn t3_4_marble_buys_one_extra_action_once_per_turn() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    st.seats[0].marble = 2;
    st.apply(&c, Action::Draw);
    assert_eq!(
        st.pending,
        Pending::Turn {
            seat: 0,
            stage: Stage::Extra
        }
    );
    assert!(options(&st, &c).contains(&Action::EndTurn));
    st.apply(&c, Action::Draw);
    assert_eq!(st.seats[0].marble, 1);
    assert_eq!(st.to_move(), Some(1), "only once per turn");
    st.apply(&c, Action::Draw);
    assert_eq!(st.to_move(), Some(0), "no marble, no extra action");
    st.apply(&c, Action::Draw);
    st.apply(&c, Action::EndTurn);
    assert_eq!(
        (st.to_move(), st.seats[0].marble),
        (Some(1), 1),
        "ending the turn keeps the marble"
    );
}

#[test]
fn t4_1_drawing_takes_three_cards_plus_one_per_token() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    let before = st.seats[0].hand_size();
    st.apply(&c, Action::Draw);
    assert_eq!(st.seats[0].hand_size(), before + 3);
    st.seats[1].tokens[BonusKind::Card.index()] = 2;
    let before = st.seats[1].hand_size();
    st.apply(&c, Action::Draw);
    assert_eq!(st.seats[1].hand_size(), before + 5);
}

#[test]
fn t4_2_an_empty_pile_is_rebuilt_from_the_discards_else_drawing_is_no_option() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    let in_deck = st.deck_len;
    st.deck_len = 1;
    st.discard = [0, 0, 0, in_deck - 1, 0, 0, 0, 0]; // the rest are discarded farms
    hand(&mut st, 0, &[]);
    st.apply(&c, Action::Draw);
    assert_eq!(st.seats[0].hand_size(), 3);
    assert_eq!(st.discard, [0; 8]);
    assert_eq!(st.deck_len, in_deck - 3);
    st.deck_len = 0;
    assert!(!st.can_draw());
    assert!(
        !options(&st, &c).contains(&Action::Draw),
        "both piles empty: drawing would change nothing, so it is no option"
    );
    st.discard[2] = 1;
    assert!(options(&st, &c).contains(&Action::Draw), "one discarded card is enough");
}

/// A position where seat `seat` can do nothing: nothing to draw, an empty display and
/// storage.
fn stuck(st: &mut CastlesState, seat: usize) {
    st.deck_len = 0;
    st.discard = [0; 8];
    st.display = [None; 8];
    st.seats[seat].storage = [Stored::Empty; 6];
    turn(st, seat);
}

#[test]
fn t3_5_a_player_with_no_action_passes() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    stuck(&mut st, 0);
    assert_eq!(options(&st, &c), vec![Action::EndTurn], "passing is the only option");
    st.apply(&c, Action::EndTurn);
    assert_eq!(st.to_move(), Some(1));
    assert!(!st.triggered, "one pass alone ends nothing");
    st.display[0] = Some(tile(Colour::City));
    assert!(
        !options(&st, &c).contains(&Action::EndTurn),
        "a player who can act does not pass"
    );
}

#[test]
fn t10_6_every_player_passing_in_turn_ends_the_phase_and_then_the_game() {
    let c = comps();
    let mut st = ready(&c, 3, 1);
    stuck(&mut st, 0);
    for seat in 0..3 {
        st.seats[seat].storage = [Stored::Empty; 6];
    }
    st.apply(&c, Action::EndTurn);
    st.apply(&c, Action::EndTurn);
    assert!(!st.triggered, "two of three passed");
    st.apply(&c, Action::EndTurn);
    assert_eq!(st.phase, 2, "all three passed: phase 1 ended with the round");
    let mut turns = 0;
    while st.to_move().is_some() {
        assert_eq!(options(&st, &c), vec![Action::EndTurn]);
        st.apply(&c, Action::EndTurn);
        turns += 1;
        assert!(turns < 100, "a game no one can move on must end");
    }
    // phases 2 and 3 each take one round of passes, then T10.4's extra round
    assert_eq!(turns, 3 * 3);
    assert!(st.is_over());
}
