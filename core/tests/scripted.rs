//! The scripted players' value model on hand-made positions: the card plan, the
//! fountain's value and the circle choice (these players live only in the core).

mod common;

use cdsim_core::carpe_diem::district::{H_CHIMNEYS, H_VILLAS};
use cdsim_core::carpe_diem::game::{Action, CircleChoice, GameConfig, GameState, Pending};
use cdsim_core::carpe_diem::kinds::{FISH, GRAPES, VILLA};
use cdsim_core::carpe_diem::players::value::{card_plan, fountain_draw_value};
use cdsim_core::carpe_diem::players::{make, Params, PlayerView, Strategy};
use cdsim_core::rng::{Generator, SeedSequence};
use common::comps;

/// A 2-player game in which every circle but the first is taken and the first joins the
/// two given cards (the card plan's test bench).
fn one_free_circle(
    c: &cdsim_core::carpe_diem::components::Components,
    cards: (&str, &str),
) -> GameState {
    let (mut state, _) = GameState::new(c, &GameConfig::new(2), SeedSequence::new(0, &[]));
    let (a, b) = state.circles()[0];
    state.grid[a as usize] = c.objective(cards.0).unwrap() as u8;
    state.grid[b as usize] = c.objective(cards.1).unwrap() as u8;
    let n = state.circles().len();
    state.circle_owner[0] = -1;
    for owner in state.circle_owner[1..n].iter_mut() {
        *owner = 1;
    }
    state
}

#[test]
fn card_plan_prices_what_the_likely_cards_still_need() {
    // R8, R7.1: the one free circle holds A04 (pay 2 fish, 4 VP) and C05 (have a complete
    // villa, 3 VP); the player has neither: fish, coins and villas are worth more, and so
    // is bread while 3 bread per card are not held. With 6 bread both cards are covered,
    // so bread is worth nothing more, but losing one would uncover a card (keep).
    let c = comps();
    let mut state = one_free_circle(&c, ("A04", "C05"));
    let p = Params::default();
    let plan = card_plan(&PlayerView { state: &state, comps: &c, seat: 0 }, &p);
    assert!(plan.good[FISH] > 0.0 && plan.good[GRAPES] == 0.0);
    assert!(plan.coin == plan.good[FISH] && plan.have[H_VILLAS] > 0.0);
    assert!(plan.bread > 0.0 && plan.keep == 0.0);
    state.players[0].bread = 6;
    let plan = card_plan(&PlayerView { state: &state, comps: &c, seat: 0 }, &p);
    assert!(plan.bread == 0.0 && plan.keep > 0.0);
    let none = Params { plan: 0.0, ..p };
    let empty = card_plan(&PlayerView { state: &state, comps: &c, seat: 0 }, &none);
    assert_eq!(
        (empty.good, empty.coin, empty.bread, empty.keep, empty.step),
        ([0.0; 4], 0.0, 0.0, 0.0, 0.0)
    );
}

#[test]
fn circle_choice_never_takes_minus_4_that_another_circle_avoids() {
    // R8.5: the circle whose cards are worth most (12 chimneys: `C11` x4 = 16 VP, then
    // `A04` fails, -4) loses to one whose two cards are both fulfilled (`C05`, `C06`, one
    // complete villa: 3 + 3 VP)
    let c = comps();
    let mut state = one_free_circle(&c, ("C11", "A04"));
    state.grid[2] = c.objective("C05").unwrap() as u8;
    state.grid[5] = c.objective("C06").unwrap() as u8;
    let have = &mut state.players[0].district_mut().have;
    have[H_CHIMNEYS] = 12;
    have[H_VILLAS] = 1;
    let (a, b) = state.circles()[0];
    let options = [
        Action::Circle(CircleChoice { circle: 0, first: a, second: b }),
        Action::Circle(CircleChoice { circle: 1, first: 2, second: 5 }),
    ];
    state.pending = Pending::Circle { seat: 0 };
    let mut greedy = make("greedy", &[]).unwrap();
    let mut rng = Generator::new(&SeedSequence::new(0, &[]));
    let view = PlayerView { state: &state, comps: &c, seat: 0 };
    assert_eq!(greedy.choose(&view, &options, &mut rng), 1);
    state.players[0].goods[FISH] = 2; // now A04 is paid with 2 fish: the rich circle wins
    let view = PlayerView { state: &state, comps: &c, seat: 0 };
    assert_eq!(greedy.choose(&view, &options, &mut rng), 0);
}

#[test]
fn a_fountain_is_worth_the_fountain_card_it_will_keep() {
    // R6.5, R10.4: at the start every fountain card expects 0 + 28 x 0.5 / 7 = 2
    // features, 4 VP: the better of 2 is 4 VP. Three complete villas raise the villa
    // cards' expectation and so the fountain's; a villa card already kept is not drawn.
    let c = comps();
    let (mut state, _) = GameState::new(&c, &GameConfig::new(2), SeedSequence::new(0, &[]));
    let value = |s: &GameState, turns| {
        fountain_draw_value(&PlayerView { state: s, comps: &c, seat: 0 }, turns)
    };
    assert_eq!(value(&state, 28), 4.0);
    let before = value(&state, 14);
    state.players[0].district_mut().complete_count[VILLA as usize] = 3;
    let more = value(&state, 14);
    assert!(more > before);
    for id in ["F01", "F02"] {
        state.players[0].fountain_cards.push(c.fountain(id).unwrap() as u8);
    }
    assert!(value(&state, 14) < more);
}
