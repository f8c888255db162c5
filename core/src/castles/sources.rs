//! Where a seat's VP come from (`VpSource`), by source: what the state counts and the
//! scorings (`scoring`) add to.

/// Where a seat's VP come from; the red track's breakdown sums to its red VP.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VpSource {
    /// T7.5: completed areas.
    Area,
    /// T8.5: new crop types (and wooden hexes on farms).
    Crops,
    /// T9: colour bonus tiles.
    ColourBonus,
    /// T8.3: +1 storage tokens.
    StorageToken,
    /// T8.9, TC5: harvest cards' green VP.
    HarvestGreen,
    /// T8.9, TC5: harvest cards' red VP.
    HarvestRed,
    /// T8.10: a wooden hex with no storage space free.
    SpareHex,
    /// T11.2: leftovers at the end.
    Leftovers,
}

pub const N_SOURCES: usize = 8;

impl VpSource {
    pub const ALL: [VpSource; N_SOURCES] = [
        VpSource::Area,
        VpSource::Crops,
        VpSource::ColourBonus,
        VpSource::StorageToken,
        VpSource::HarvestGreen,
        VpSource::HarvestRed,
        VpSource::SpareHex,
        VpSource::Leftovers,
    ];
    pub fn name(self) -> &'static str {
        match self {
            VpSource::Area => "area",
            VpSource::Crops => "crops",
            VpSource::ColourBonus => "colour_bonus",
            VpSource::StorageToken => "storage_token",
            VpSource::HarvestGreen => "harvest_green",
            VpSource::HarvestRed => "harvest_red",
            VpSource::SpareHex => "spare_hex",
            VpSource::Leftovers => "leftovers",
        }
    }
}
