//! The whole state for a replay (`cdsim play --game mediterranean --html`), read after the
//! game: every card shown, in words a page draws without the engine's tables. The map
//! (cities, regions, routes and each route's distance tile), the ships by city, each
//! register column as its city, region, good and reward, the row's contracts, the temples'
//! tokens with their arrival (M6.3's stacking) and the points tiles by temple and round.
//!
//! **Hidden cards are the page's to hide** (cdsim/games/mediterranean/view.py `hide`):
//! a seat's face-down rowing card (`laid`, M5.1) and the row's face-down contracts are
//! here as they lie, since the frame is drawn after the game.

use serde_json::{json, Value};

use super::components::{Components, Sea};
use super::map::{Tables, NO_REGION};
use super::state::{Column, MedState, Offer, Status, NONE};

/// The rounds' names on the points tiles' backs (M7.3).
const ROUNDS: [&str; 3] = ["A", "B", "C"];

impl MedState {
    /// The frame of this state (`Game::frame`).
    pub fn frame(&self, comps: &Components) -> Value {
        let t = comps.tables();
        let seats: Vec<Value> = self.seats.iter().enumerate().map(|(i, s)| {
            let register: Vec<Value> = s.register.iter().map(|c| column(t, c)).collect();
            let tiles: Vec<Value> = s.tiles.iter()
                .map(|&(temple, round, points)| json!([temple_name(t, temple),
                                                        ROUNDS[round as usize], points]))
                .collect();
            json!({
                "seat": i, "gold": s.gold, "ship": t.city_names[s.ship as usize],
                "hand": s.hand, "played": s.played, "register": register,
                "temple": &s.temple[..t.regions()], "arrived": &s.arrived[..t.regions()],
                "tiles": tiles, "bonus": s.bonus, "points": s.points(),
                "laid": self.picks.all()[i], "extras": s.extras,
            })
        }).collect();
        let row: Vec<Value> = self.row.iter().map(|o| offer(t, o)).collect();
        json!({
            "round": self.round + 1, "phase": self.phase, "pending": self.pending,
            "turn": self.turn + 1, "wind": self.wind, "forecast": self.forecast,
            "order": self.order, "track": self.track, "miles": self.miles, "row": row,
            "seats": seats, "bank": self.bank, "bonus_left": self.bonus_pile.len(),
            "board": board(comps),
        })
    }
}

/// The set's map and faces, the same in every frame of a game (a page keeps the first):
/// the start, the regions (name, colour), the cities (name, region), the routes (two
/// cities and the kind of sea space), each rowing card's face by its number ([power,
/// wind]), the temples (the regions', then the gold temple) and their points tiles by
/// round (A, B, C), best first.
fn board(comps: &Components) -> Value {
    let t = comps.tables();
    let regions: Vec<Value> = comps.regions.iter()
        .map(|r| json!({"name": r.name, "colour": r.colour})).collect();
    let cities: Vec<Value> = comps.cities.iter()
        .map(|c| json!({"name": c.name, "region": c.region})).collect();
    let routes: Vec<Value> = t.routes.iter().map(|&(a, b, kind)| json!({
        "a": t.city_names[a as usize], "b": t.city_names[b as usize],
        "kind": match kind { Sea::Coastal => "coastal", Sea::OpenSea => "open sea" },
    })).collect();
    let rowing: Vec<Value> = t.rowing.iter().map(|r| json!([r.power, r.wind])).collect();
    let temples: Vec<String> = (0..=t.regions()).map(|k| temple_name(t, k as u8)).collect();
    json!({
        "start": t.city_names[t.start as usize], "regions": regions, "cities": cities,
        "routes": routes, "rowing": rowing, "temples": temples, "points": t.points,
        "rounds": ROUNDS, "goods": t.good_names,
    })
}

/// A temple by its number: a region's name, or "gold" (the gold temple, M6.4).
fn temple_name(t: &Tables, temple: u8) -> String {
    if usize::from(temple) == t.gold_temple() {
        "gold".into()
    } else {
        t.region_names[temple as usize].clone()
    }
}

/// A contract (a city card and a goods card) in words: the city, its region, the good,
/// and what delivering it pays (gold, or temple points in the region: M1.3).
fn contract(t: &Tables, city: u8, goods: u8) -> Value {
    let face = t.city_cards[city as usize];
    let g = t.goods_cards[goods as usize] as usize;
    let region = t.region_of[face.city as usize];
    json!({
        "city": t.city_names[face.city as usize],
        "region": (region != NO_REGION).then(|| t.region_names[region as usize].clone()),
        "good": t.good_names[g], "gold": face.gold[g], "temple": face.temple[g],
    })
}

/// A register column: its status, and its contract once loaded.
fn column(t: &Tables, c: &Column) -> Value {
    let mut out = if c.city == NONE || c.goods == NONE {
        json!({})
    } else {
        contract(t, c.city, c.goods)
    };
    out["status"] = json!(match c.status {
        Status::Empty => "empty",
        Status::Open => "open",
        Status::Done => "delivered",
        Status::Lost => "lost",
    });
    out
}

/// A contract on offer: face up or down, the coins on it (M4.9), its contract and its
/// rowing card's number.
fn offer(t: &Tables, o: &Offer) -> Value {
    let mut out = contract(t, o.city, o.goods);
    out["face_up"] = json!(o.face_up);
    out["coins"] = json!(o.gold);
    out["rowing"] = json!(o.rowing);
    out
}
