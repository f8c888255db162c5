//! R5, R6: building a tile and the rewards of what it completes (part of Python's
//! `cdsim/games/carpe_diem/rules/game.py`): goods, coins, bread, scroll steps, the artisan's seal tile and
//! the fountain.

use crate::carpe_diem::components::Components;
use crate::carpe_diem::kinds::{
    is_landscape, landscape_good, Edges, ADMINISTRATOR, ARTISAN, BAKER, BAKERY, FOUNTAIN, MARKET,
    MERCHANT,
};
use super::{
    reward_order, Action, Event, FountainChoice, GameState, Options, Pending, Reward, SealBuild,
    NONE,
};

impl GameState {
    /// Build a tile and queue the rewards of its completions in the R5.5 order (they are
    /// paid by `settle_rewards`).
    pub fn build(&mut self, comps: &Components, seat: usize, tile: u8, cell: usize, edges: Edges) {
        let ttype = &comps.tile_types[tile as usize];
        let p = &mut self.players[seat];
        let scroll = p.district.scrolls >> cell & 1 != 0;
        let completed =
            p.district_mut().place(cell, edges, ttype.chimneys, ttype.building);
        p.tiles_built += 1;
        if scroll {
            self.advance_scroll(comps, seat, 1); // R5.4
        }
        let mut sorted = [Reward::default(); 4];
        let mut n = 0;
        for f in completed.iter() {
            sorted[n] = Reward {
                kind: f.kind,
                tiles: f.tiles,
                chimneys: f.chimneys,
            };
            n += 1;
        }
        sorted[..n].sort_by_key(|r| reward_order(r.kind)); // stable, as Python's sorted
        for r in sorted[..n].iter().rev() {
            self.rewards[self.n_rewards as usize] = *r;
            self.n_rewards += 1;
        }
    }

    /// Pay the waiting rewards of `seat`; true if one waits for a decision (artisan,
    /// fountain), which `pending` then names.
    pub fn settle_rewards(&mut self, comps: &Components, seat: usize) -> bool {
        while self.n_rewards > 0 {
            self.n_rewards -= 1;
            let r = self.rewards[self.n_rewards as usize];
            self.log.push(Event::Complete {
                seat: seat as u8,
                kind: r.kind,
                tiles: r.tiles,
                chimneys: r.chimneys,
            });
            if self.reward(comps, seat, r.kind, i32::from(r.tiles)) {
                return true;
            }
        }
        false
    }

    /// After a build within a turn: the rewards, then the next turn.
    pub(super) fn go_on(&mut self, comps: &Components, seat: usize) {
        if !self.settle_rewards(comps, seat) {
            self.end_turn();
        }
    }

    /// R6.2-R6.5: the reward of a completed feature, at once; true if it waits for a
    /// decision (`pending` is then Seal or Fountain).
    pub fn reward(&mut self, comps: &Components, seat: usize, kind: u8, tiles: i32) -> bool {
        let p = &mut self.players[seat];
        match kind {
            k if is_landscape(k) => p.goods[landscape_good(k)] += tiles - 1,
            MERCHANT => {
                let goods: i32 = p.goods.iter().sum();
                p.goods = [0; 4];
                p.coins += goods + 1;
            }
            BAKER => p.bread += 2,
            ADMINISTRATOR => self.advance_scroll(comps, seat, 2),
            MARKET => p.coins += 1,
            BAKERY => p.bread += 1,
            ARTISAN => return self.artisan(comps, seat),
            FOUNTAIN => return self.fountain(seat),
            _ => {}
        }
        false
    }

    /// R6.3: the seal-row options: per distinct seal tile (by slot), every placement.
    pub(super) fn seal_options(&self, comps: &Components, seat: usize, out: &mut Options) {
        let district = &self.players[seat].district;
        for (slot, &t) in self.seal.iter().enumerate() {
            if t == NONE || self.seal[..slot].contains(&t) {
                continue;
            }
            let slot = slot as u8;
            district.each_placement(&comps.tile_types[t as usize], |cell, edges| {
                out.push(Action::Seal(SealBuild { slot, tile_type: t, cell, edges }));
            });
        }
    }

    /// R6.3: build one seal-row tile at once; no buildable seal tile = reward lost.
    fn artisan(&mut self, comps: &Components, seat: usize) -> bool {
        let district = &self.players[seat].district;
        let buildable = self
            .seal
            .iter()
            .any(|&t| t != NONE && district.placement_cells(&comps.tile_types[t as usize]) != 0);
        if !buildable {
            self.players[seat].artisan_lost += 1;
            self.log.push(Event::ArtisanLost { seat: seat as u8 });
            return false;
        }
        self.pending = Pending::Seal { seat: seat as u8 };
        true
    }

    pub fn apply_seal(&mut self, comps: &Components, choice: SealBuild) {
        let Pending::Seal { seat } = self.pending else {
            panic!("no seal tile pending")
        };
        let tile = self.seal[choice.slot as usize];
        assert_eq!(tile, choice.tile_type, "the seal choice names another tile");
        self.seal[choice.slot as usize] = NONE; // R6.3: never replaced
        self.log.push(Event::Seal {
            seat,
            slot: choice.slot,
            tile,
            cell: choice.cell,
            edges: choice.edges,
        });
        self.build(
            comps,
            seat as usize,
            tile,
            choice.cell as usize,
            choice.edges,
        );
        self.go_on(comps, seat as usize);
    }

    /// R6.5: draw up to 2 from the top of the fountain deck.
    fn fountain(&mut self, seat: usize) -> bool {
        let n = self.fountain_deck.len().min(2);
        if n == 0 {
            return false;
        }
        let mut drawn = [0u8; 2];
        let phase = self.phase;
        let p = &mut self.players[seat];
        for d in drawn.iter_mut().take(n) {
            *d = self.fountain_deck.remove(0);
            let count = &mut p.fountain_draws[phase][*d as usize];
            *count = count.saturating_add(1);
        }
        self.pending = Pending::Fountain {
            seat: seat as u8,
            drawn,
            n: n as u8,
        };
        true
    }

    /// R6.5: keep one drawn card and put the other under the deck; at a later fountain
    /// with 2 drawn, or keep both and put one of the earlier cards under the deck.
    pub(super) fn fountain_options(&self, out: &mut Options) {
        let Pending::Fountain { seat, drawn, n } = self.pending else {
            return;
        };
        let drawn = &drawn[..n as usize];
        for &c in drawn {
            out.push(Action::Fountain(FountainChoice::new(
                &[c],
                drawn.iter().copied().find(|&o| o != c),
            )));
        }
        if n == 2 {
            // R6.5 "may": keeping both is an option, never a duty
            let kept = self.players[seat as usize].fountain_cards;
            for (i, &c) in kept.as_slice().iter().enumerate() {
                if !kept.as_slice()[..i].contains(&c) {
                    out.push(Action::Fountain(FountainChoice::new(drawn, Some(c))));
                }
            }
        }
    }

    pub fn apply_fountain(&mut self, comps: &Components, choice: FountainChoice) {
        let Pending::Fountain { seat, drawn, n } = self.pending else {
            panic!("no fountain pending")
        };
        let mut shown = [NONE; 2];
        shown[..n as usize].copy_from_slice(&drawn[..n as usize]);
        let mut keep = [NONE; 2];
        keep[..choice.keep().len()].copy_from_slice(choice.keep());
        self.log.push(Event::Fountain {
            seat,
            drawn: shown,
            keep,
            kept: choice.keep().len() as u8,
            give_back: choice.give_back.unwrap_or(NONE),
        });
        let seat = seat as usize;
        let p = &mut self.players[seat];
        if let Some(back) = choice.give_back {
            if let Some(i) = p.fountain_cards.as_slice().iter().position(|&c| c == back) {
                p.fountain_cards.remove(i); // a previously kept card
            }
            self.fountain_deck.push(back); // under the deck
        }
        for &c in choice.keep() {
            self.players[seat].fountain_cards.push(c);
        }
        self.go_on(comps, seat);
    }
}
