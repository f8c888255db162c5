//! T7.5, T8, T9: what placing a tile or a wooden hex does: its VP first, then its
//! type's effect (a castle's or a city's decision is queued as a task).

use super::actions::Task;
use super::components::{BonusKind, Colour, Components, HarvestReward};
use super::scoring::{area_vp, VpSource};
use super::state::{CastlesState, Stored};

/// T8.4: a wooden hex on a farm counts as a crop of its own (always new).
const WOOD_CROP: u8 = 0x10;
/// T8.10: red VP for a wooden hex with no storage space free.
pub const SPARE_HEX_VP: i32 = 2;
/// T8.3: green VP for a +1 storage token.
pub const STORAGE_TOKEN_VP: i32 = 2;
/// T8.8: cards a monastery draws.
pub const MONASTERY_CARDS: usize = 3;

impl CastlesState {
    pub(crate) fn push_task(&mut self, task: Task) {
        self.tasks[self.n_tasks as usize] = task;
        self.n_tasks += 1;
    }

    /// T7.5 and T8: `what` (a tile or a wooden hex) goes on `space` of `seat`'s board.
    pub(crate) fn place(&mut self, comps: &Components, seat: usize, space: usize, what: Stored) {
        let s = &mut self.seats[seat];
        debug_assert!(s.filled & 1 << space == 0, "space {space} is taken");
        let colour = Colour::from_index(s.colour[space] as usize);
        let area = s.area(comps, space);
        let crops = match what {
            Stored::Tile(t) => {
                debug_assert_eq!(t.colour(), colour, "T7.4: a tile goes on its own colour");
                s.placed_tiles += 1;
                s.used.placed[usize::from(t.is_neutral())][colour.index()] += 1;
                t.crops()
            }
            Stored::Wood => {
                s.placed_wood += 1;
                WOOD_CROP
            }
            Stored::Empty => unreachable!("nothing to place"),
        };
        if colour == Colour::Farm {
            // T8.5: crop types the area did not show yet (a wooden hex always counts).
            let mut seen = 0u8;
            for sp in super::actions::bits(area & s.filled) {
                seen |= s.crops[sp];
            }
            let new = (crops & 0x0f & !seen).count_ones() + (crops & WOOD_CROP != 0) as u32;
            s.crops[space] = crops;
            s.gain_green(VpSource::Crops, new as i32);
        }
        s.filled |= 1 << space;
        if area & !s.filled == 0 {
            s.used.areas[(area.count_ones() as usize).clamp(1, 3) - 1] += 1;
            s.gain_green(VpSource::Area, area_vp(comps, area.count_ones())); // T7.5
        }
        if s.colour_mask[colour.index()] & !s.filled == 0 {
            self.claim_colour_bonus(comps, seat, colour); // T9
        }
        self.hex_effect(comps, seat, colour);
    }

    /// T8.1–T8.9: the effect of the colour just covered.
    fn hex_effect(&mut self, comps: &Components, seat: usize, colour: Colour) {
        let s = &mut self.seats[seat];
        match colour {
            Colour::Castle => self.push_task(Task::Castle),
            Colour::City => self.push_task(Task::Token),
            Colour::Estate => self.gain_wood(seat),
            Colour::Farm => {}
            Colour::Quarry => s.marble += 1 + s.tokens[BonusKind::Marble.index()] as u16,
            Colour::Village => s.workers += 1 + s.tokens[BonusKind::Worker.index()] as u16,
            Colour::Monastery => self.draw_cards(seat, MONASTERY_CARDS),
            Colour::Cart => {
                for _ in 0..1 + s.tokens[BonusKind::Harvest.index()] {
                    if let Some(card) = self.reveal_harvest() {
                        let (reward, amount) = comps.tables().harvest[card as usize];
                        self.harvest_reward(seat, reward, amount);
                    }
                }
            }
        }
    }

    /// TC5: one harvest card's reward.
    fn harvest_reward(&mut self, seat: usize, reward: HarvestReward, amount: u8) {
        let s = &mut self.seats[seat];
        s.used.harvested[reward as usize] += 1;
        match reward {
            HarvestReward::RedVp => s.gain_red(VpSource::HarvestRed, amount as i32),
            HarvestReward::GreenVp => s.gain_green(VpSource::HarvestGreen, amount as i32),
            HarvestReward::Cards => self.draw_cards(seat, amount as usize),
            HarvestReward::Marble => s.marble += amount as u16,
            HarvestReward::Worker => s.workers += amount as u16,
            HarvestReward::WoodenHex => {
                for _ in 0..amount {
                    self.gain_wood(seat);
                }
            }
        }
    }

    /// T8.4, T8.10: a wooden hex into a free storage space, else 2 red VP.
    fn gain_wood(&mut self, seat: usize) {
        let s = &mut self.seats[seat];
        match s.free_storage() {
            Some(free) => s.storage[free] = Stored::Wood,
            None => s.gain_red(VpSource::SpareHex, SPARE_HEX_VP),
        }
    }

    /// T2.8, T8.2, T8.3: `seat` takes a bonus token of `kind` from the supply.
    pub(crate) fn take_token(&mut self, seat: usize, kind: BonusKind) {
        assert!(
            self.bonus_supply[kind.index()] > 0,
            "no {kind:?} token left"
        );
        self.bonus_supply[kind.index()] -= 1;
        let s = &mut self.seats[seat];
        s.tokens[kind.index()] += 1;
        if kind == BonusKind::Storage {
            s.capacity += 1;
            s.gain_green(VpSource::StorageToken, STORAGE_TOKEN_VP);
        }
    }
}
