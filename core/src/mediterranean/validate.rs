//! MC1–MC9: every check a component set must pass, each failure one line naming the
//! table and entry (`Components::prepare` refuses a set with any).

use std::collections::BTreeSet;

use super::components::{Components, RowingCard, Sea, MAX_PLAYERS};
use super::map::{round_index, MAX_GOODS};

/// Cards of each kind one round can draw at five players: five contracts turns of
/// players + 1 contracts, the one left over staying (M4.1, M4.9).
pub const ROUND_DRAW: usize = MAX_PLAYERS + 1 + 4 * MAX_PLAYERS;

pub fn validate(c: &Components) -> Result<(), Vec<String>> {
    let mut e = Vec::new();
    if c.game != "mediterranean" {
        e.push(format!("game: must be \"mediterranean\", got {:?}", c.game));
    }
    names("regions", c.regions.iter().map(|r| r.name.as_str()), 1, 8, &mut e);
    if c.regions.iter().any(|r| r.name == "gold") {
        e.push("regions: \"gold\" names the gold temple, not a region".into());
    }
    names("cities", c.cities.iter().map(|r| r.name.as_str()), 2, 32, &mut e);
    names("goods", c.goods.iter().map(|r| r.name.as_str()), 1, MAX_GOODS, &mut e);
    let city = |n: &str| c.cities.iter().position(|x| x.name == n);
    let region = |n: &str| c.regions.iter().any(|x| x.name == n);
    let good = |n: &str| c.goods.iter().any(|x| x.name == n);
    if city(&c.start).is_none() {
        e.push(format!("start: {:?} is not a city", c.start));
    }
    for (i, x) in c.cities.iter().enumerate() {
        if let Some(r) = &x.region {
            if !region(r) {
                e.push(format!("cities[{i}] {}: unknown region {r:?}", x.name));
            }
        } else if x.name != c.start {
            e.push(format!("cities[{i}] {}: only the start has no region", x.name));
        }
    }
    routes(c, &mut e);
    for (i, k) in c.city_cards.iter().enumerate() {
        let at = format!("city_cards[{i}] {}", k.city);
        match city(&k.city) {
            None => e.push(format!("{at}: unknown city")),
            Some(j) if c.cities[j].region.is_none() => {
                e.push(format!("{at}: the start takes no contracts"))
            }
            _ => {}
        }
        for g in k.gold.keys().chain(k.temple.keys()) {
            if !good(g) {
                e.push(format!("{at}: unknown good {g:?}"));
            }
        }
        for g in &c.goods {
            let n = usize::from(k.gold.contains_key(&g.name))
                + usize::from(k.temple.contains_key(&g.name));
            if n != 1 {
                e.push(format!("{at}: {} must pay gold or temple points, once", g.name));
            }
        }
        if k.gold.values().chain(k.temple.values()).any(|&v| v == 0) {
            e.push(format!("{at}: a reward of 0"));
        }
    }
    if c.city_cards.len() < ROUND_DRAW {
        e.push(format!("city_cards: {} cards, a round at 5 players draws {ROUND_DRAW}",
                       c.city_cards.len()));
    }
    for (i, g) in c.goods_cards.iter().enumerate() {
        if !good(&g.good) {
            e.push(format!("goods_cards[{i}]: unknown good {:?}", g.good));
        }
    }
    let goods: usize = c.goods_cards.iter().map(|g| g.count as usize).sum();
    if goods < ROUND_DRAW {
        e.push(format!("goods_cards: {goods} cards, a round at 5 players draws {ROUND_DRAW}"));
    }
    rowing("rowing_cards", &c.rowing_cards, &mut e);
    rowing("individual_rowing_cards", &c.individual_rowing_cards, &mut e);
    let deck: usize = c.rowing_cards.iter().map(|g| g.count as usize).sum();
    let own: usize = c.individual_rowing_cards.iter().map(|g| g.count as usize).sum();
    // every seat may keep its individual cards' worth of deck cards in hand (M7.1)
    if deck < ROUND_DRAW + MAX_PLAYERS * own {
        e.push(format!("rowing_cards: {deck} cards, a round at 5 players may need {}",
                       ROUND_DRAW + MAX_PLAYERS * own));
    }
    if deck + MAX_PLAYERS * own > 250 {
        e.push("rowing_cards: more than 250 cards with the individual ones".into());
    }
    points(c, &mut e);
    if c.bonus_tiles.iter().any(|b| b.count == 0) {
        e.push("bonus_tiles: an entry of count 0".into());
    }
    rules(c, own, &mut e);
    if e.is_empty() { Ok(()) } else { Err(e) }
}

fn names<'a>(table: &str, items: impl Iterator<Item = &'a str>, low: usize, high: usize,
             e: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    let mut n = 0;
    for name in items {
        n += 1;
        if name.is_empty() || !seen.insert(name) {
            e.push(format!("{table}: {name:?} is empty or named twice"));
        }
    }
    if !(low..=high).contains(&n) {
        e.push(format!("{table}: {n} entries, must be {low} to {high}"));
    }
}

/// MC3, MC4: routes join known cities, once each; the tiles of each kind are as many
/// as its spaces and within the rulebook's miles; every city is reachable.
fn routes(c: &Components, e: &mut Vec<String>) {
    let n = c.cities.len();
    let mut seen = BTreeSet::new();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for (i, r) in c.routes.iter().enumerate() {
        let a = c.cities.iter().position(|x| x.name == r.a);
        let b = c.cities.iter().position(|x| x.name == r.b);
        match (a, b) {
            (Some(a), Some(b)) if a != b => {
                if !seen.insert((a.min(b), a.max(b))) {
                    e.push(format!("routes[{i}] {} - {}: a second route", r.a, r.b));
                }
                let (x, y) = (root(&mut parent, a), root(&mut parent, b));
                parent[x] = y;
            }
            _ => e.push(format!("routes[{i}] {} - {}: unknown or equal cities", r.a, r.b)),
        }
    }
    if n > 0 && (0..n).any(|i| root(&mut parent, i) != root(&mut parent, 0)) {
        e.push("routes: some city cannot be reached from the others".into());
    }
    let kinds = [(Sea::Coastal, "coastal", &c.distance_tiles.coastal, &c.rules.coastal_miles),
                 (Sea::OpenSea, "open_sea", &c.distance_tiles.open_sea, &c.rules.open_sea_miles)];
    for (kind, name, tiles, span) in kinds {
        let spaces = c.routes.iter().filter(|r| r.kind == kind).count();
        let count: usize = tiles.iter().map(|t| t.count as usize).sum();
        if count != spaces {
            e.push(format!("distance_tiles.{name}: {count} tiles for {spaces} {name} routes"));
        }
        let [lo, hi] = span.value;
        if lo > hi || lo == 0 {
            continue; // not a range: `rules` names the rule once, not each tile it refuses
        }
        for (i, t) in tiles.iter().enumerate() {
            if !(lo..=hi).contains(&t.miles) {
                e.push(format!("distance_tiles.{name}[{i}]: {} miles, must be {lo} to {hi}",
                               t.miles));
            }
        }
    }
}

fn rowing(table: &str, cards: &[RowingCard], e: &mut Vec<String>) {
    for (i, r) in cards.iter().enumerate() {
        if r.power == 0 || r.count == 0 || !(-5..=5).contains(&r.wind) {
            e.push(format!("{table}[{i}]: power >= 1, count >= 1 and wind -5 to 5, got \
                            power {} wind {} count {}", r.power, r.wind, r.count));
        }
    }
}

/// MC8: each temple (every region's and the gold one) has one entry per round, with
/// as many tiles as the round has places (A 1, B 2, C 3: M6.4).
fn points(c: &Components, e: &mut Vec<String>) {
    let temples: Vec<&str> = c.regions.iter().map(|r| r.name.as_str())
        .chain(std::iter::once("gold")).collect();
    let mut seen = BTreeSet::new();
    for (i, p) in c.points_tiles.iter().enumerate() {
        let at = format!("points_tiles[{i}] {} {}", p.temple, p.round);
        if !temples.contains(&p.temple.as_str()) {
            e.push(format!("{at}: unknown temple"));
        }
        match round_index(&p.round) {
            None => e.push(format!("{at}: round must be A, B or C")),
            Some(r) if p.points.len() != r + 1 => {
                e.push(format!("{at}: {} tiles, round {} has {} places", p.points.len(),
                               p.round, r + 1))
            }
            _ => {}
        }
        if !seen.insert((p.temple.as_str(), p.round.as_str())) {
            e.push(format!("{at}: named twice"));
        }
    }
    for t in &temples {
        for r in ["A", "B", "C"] {
            if !seen.contains(&(*t, r)) {
                e.push(format!("points_tiles: no tiles for temple {t} round {r}"));
            }
        }
    }
}

fn rules(c: &Components, own: usize, e: &mut Vec<String>) {
    let r = &c.rules;
    let mut check = |name: &str, v: i32, lo: i32, hi: i32| {
        if !(lo..=hi).contains(&v) {
            e.push(format!("rules.{name}: {v}, must be {lo} to {hi}"));
        }
    };
    check("start_gold", r.start_gold.value, 0, 50);
    check("coins", r.coins.value, r.start_gold.value * MAX_PLAYERS as i32, 1000);
    check("wind_limit", r.wind_limit.value, 0, 10);
    // the current wind runs from start - limit to start + limit and is never negative
    check("start_wind", r.start_wind.value, r.wind_limit.value, 20);
    check("rounds", r.rounds.value, 1, 3);
    check("contract_turns", r.contract_turns.value, 1, 5);
    check("extra_turns", r.extra_turns.value, 0, 5);
    check("temple_point_price", r.temple_point_price.value, 1, 50);
    // the individual cards are what a seat plays its extra turns with (M5.12)
    check("individual_rowing_cards (count)", own as i32, 0, 5);
    for (name, s) in [("coastal_miles", &r.coastal_miles), ("open_sea_miles", &r.open_sea_miles)] {
        if s.value[0] > s.value[1] || s.value[0] == 0 {
            e.push(format!("rules.{name}: {:?} is not a range of miles >= 1", s.value));
        }
    }
}
