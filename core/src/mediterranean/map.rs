//! The engine's tables, built once from a valid component set (`Components::prepare`):
//! cities and regions as indices, routes by kind, the decks as card ids, the points
//! tiles by temple and round, and the shortest sea distance for a placing of the
//! distance tiles (MC3, M5.4).

use super::components::{Components, Sea};

/// A city card's face: per good, the gold or the temple points it pays (one of the two
/// is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CityFace {
    pub city: u8,
    pub gold: [u8; MAX_GOODS],
    pub temple: [u8; MAX_GOODS],
}

/// A rowing card's face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rowing {
    pub power: u8,
    pub wind: i8,
}

pub const MAX_GOODS: usize = 8;
/// No region (the ships' start).
pub const NO_REGION: u8 = u8::MAX;

#[derive(Clone, Debug)]
pub struct Tables {
    pub city_names: Vec<String>,
    pub region_names: Vec<String>,
    pub good_names: Vec<String>,
    /// Each city's region (`NO_REGION` for the start).
    pub region_of: Vec<u8>,
    pub start: u8,
    /// Each route's two cities and kind.
    pub routes: Vec<(u8, u8, Sea)>,
    /// The distance tiles of each kind, as miles, one entry a tile.
    pub coastal_tiles: Vec<u8>,
    pub open_tiles: Vec<u8>,
    pub city_cards: Vec<CityFace>,
    /// Each goods card's good.
    pub goods_cards: Vec<u8>,
    /// The rowing deck, then each seat's individual cards (`individual` a seat).
    pub rowing: Vec<Rowing>,
    pub deck_rowing: usize,
    pub individual: usize,
    /// Points tiles by temple (regions, then gold) and round, best first.
    pub points: Vec<Vec<Vec<u8>>>,
    pub bonus: Vec<u8>,
    pub coins: i32,
    pub start_gold: i32,
    pub start_wind: i8,
    pub wind_limit: i8,
    pub rounds: u8,
    pub contract_turns: u8,
    pub extra_turns: u8,
    pub temple_price: i32,
    /// Over every city card and good: the mean gold, and the mean temple points paid in
    /// each region (a contract not yet seen, for the players).
    pub mean_gold: f32,
    pub mean_temple: Vec<f32>,
    /// The deck's mean rowing power.
    pub mean_power: f32,
}

impl Tables {
    pub fn new(c: &Components) -> Tables {
        let city_names: Vec<String> = c.cities.iter().map(|x| x.name.clone()).collect();
        let region_names: Vec<String> = c.regions.iter().map(|x| x.name.clone()).collect();
        let good_names: Vec<String> = c.goods.iter().map(|x| x.name.clone()).collect();
        let city = |n: &str| city_names.iter().position(|x| x == n).expect("validated") as u8;
        let good = |n: &str| good_names.iter().position(|x| x == n).expect("validated");
        let region_of: Vec<u8> = c.cities.iter().map(|x| match &x.region {
            Some(r) => region_names.iter().position(|y| y == r).expect("validated") as u8,
            None => NO_REGION,
        }).collect();
        let routes = c.routes.iter().map(|r| (city(&r.a), city(&r.b), r.kind)).collect();
        let tiles = |t: &[super::components::DistanceTile]| -> Vec<u8> {
            t.iter().flat_map(|d| std::iter::repeat_n(d.miles, d.count as usize)).collect()
        };
        let city_cards: Vec<CityFace> = c.city_cards.iter().map(|k| {
            let mut face = CityFace { city: city(&k.city), gold: [0; MAX_GOODS],
                                      temple: [0; MAX_GOODS] };
            for (g, &v) in &k.gold {
                face.gold[good(g)] = v;
            }
            for (g, &v) in &k.temple {
                face.temple[good(g)] = v;
            }
            face
        }).collect();
        let goods_cards = c.goods_cards.iter()
            .flat_map(|g| std::iter::repeat_n(good(&g.good) as u8, g.count as usize)).collect();
        let mut rowing: Vec<Rowing> = c.rowing_cards.iter()
            .flat_map(|r| std::iter::repeat_n(Rowing { power: r.power, wind: r.wind },
                                              r.count as usize)).collect();
        let deck_rowing = rowing.len();
        let own: Vec<Rowing> = c.individual_rowing_cards.iter()
            .flat_map(|r| std::iter::repeat_n(Rowing { power: r.power, wind: r.wind },
                                              r.count as usize)).collect();
        for _ in 0..super::components::MAX_PLAYERS {
            rowing.extend(&own);
        }
        let mut points = vec![vec![Vec::new(); 3]; region_names.len() + 1];
        for p in &c.points_tiles {
            let t = if p.temple == "gold" {
                region_names.len()
            } else {
                region_names.iter().position(|y| *y == p.temple).expect("validated")
            };
            let r = round_index(&p.round).expect("validated");
            let mut v = p.points.clone();
            v.sort_unstable_by(|a, b| b.cmp(a));
            points[t][r] = v;
        }
        let bonus = c.bonus_tiles.iter()
            .flat_map(|b| std::iter::repeat_n(b.points, b.count as usize)).collect();
        let r = &c.rules;
        let cells = (c.city_cards.len() * c.goods.len()).max(1) as f32;
        let faces: &Vec<CityFace> = &city_cards;
        let mean_gold = faces.iter().flat_map(|f| f.gold).map(f32::from).sum::<f32>() / cells;
        let mut mean_temple = vec![0.0; region_names.len()];
        for f in faces {
            let reg: &Vec<u8> = &region_of;
            mean_temple[reg[f.city as usize] as usize] +=
                f.temple.iter().map(|&v| f32::from(v)).sum::<f32>() / cells;
        }
        let mean_power = rowing[..deck_rowing].iter().map(|r| f32::from(r.power)).sum::<f32>()
            / deck_rowing.max(1) as f32;
        Tables {
            mean_gold, mean_temple, mean_power,
            start: city(&c.start),
            city_names, region_names, good_names, region_of, routes,
            coastal_tiles: tiles(&c.distance_tiles.coastal),
            open_tiles: tiles(&c.distance_tiles.open_sea),
            city_cards, goods_cards, rowing, deck_rowing, individual: own.len(), points, bonus,
            coins: r.coins.value, start_gold: r.start_gold.value,
            start_wind: r.start_wind.value as i8, wind_limit: r.wind_limit.value as i8,
            rounds: r.rounds.value as u8, contract_turns: r.contract_turns.value as u8,
            extra_turns: r.extra_turns.value as u8, temple_price: r.temple_point_price.value,
        }
    }

    pub fn cities(&self) -> usize {
        self.city_names.len()
    }

    pub fn regions(&self) -> usize {
        self.region_names.len()
    }

    /// The gold temple's index (after the regions').
    pub fn gold_temple(&self) -> usize {
        self.region_names.len()
    }

    /// The id of `seat`'s `k`-th individual rowing card.
    pub fn individual_card(&self, seat: usize, k: usize) -> u8 {
        (self.deck_rowing + seat * self.individual + k) as u8
    }

    pub fn is_individual(&self, card: u8) -> bool {
        card as usize >= self.deck_rowing
    }

    /// The shortest sea distance between every two cities, `miles` being each route's
    /// tile (Floyd-Warshall; `n * n`, row-major; `u16::MAX` unreachable).
    pub fn distances(&self, miles: &[u8]) -> Vec<u16> {
        let n = self.cities();
        let mut d = vec![u16::MAX; n * n];
        for i in 0..n {
            d[i * n + i] = 0;
        }
        for (&(a, b, _), &m) in self.routes.iter().zip(miles) {
            let (a, b) = (a as usize, b as usize);
            let m = u16::from(m);
            d[a * n + b] = d[a * n + b].min(m);
            d[b * n + a] = d[b * n + a].min(m);
        }
        for k in 0..n {
            for i in 0..n {
                let ik = d[i * n + k];
                if ik == u16::MAX {
                    continue;
                }
                for j in 0..n {
                    let kj = d[k * n + j];
                    if kj != u16::MAX && ik + kj < d[i * n + j] {
                        d[i * n + j] = ik + kj;
                    }
                }
            }
        }
        d
    }
}

/// "A", "B", "C" as 0, 1, 2 (M7.3: the points tiles' backs).
pub fn round_index(name: &str) -> Option<usize> {
    ["A", "B", "C"].iter().position(|&x| x == name)
}
