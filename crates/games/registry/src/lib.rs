//! The registry: the one list of the games this build plays ([`registered!`]), and [`GameId`],
//! a game chosen at run time (a `--game` flag, a training config, a request, a checkpoint's
//! metadata, Python's `game=`), checked against that list.
//!
//! A new game is a crate that implements [`game::Game`] and one line in [`registered!`]. Every
//! layer above builds what it dispatches on from that list: the object-safe [`GAMES`] here,
//! and, where a job must run monomorphised over the game (training, the arena, export), a table
//! of its own made by handing [`registered!`] a macro that receives the game types.

pub use classic;
pub use kessel;
pub use leduc;

use game::{EnvSpec, Game, GameType};
use std::fmt;

/// Hands the registered game types, in listing order (the first is the default game), to the
/// macro `$table`: `games::registered!(my_table)` expands to `my_table!(Kessel, Classic, Leduc)`.
///
/// **The one list of games.** Adding a game adds its type here, and nowhere else.
#[macro_export]
macro_rules! registered {
    ($table:ident) => {
        $table!($crate::kessel::Kessel, $crate::classic::Classic, $crate::leduc::Leduc)
    };
}

macro_rules! game_types {
    ($($g:ty),* $(,)?) => {
        [$(&game::Registered::<$g>::NEW as &'static dyn GameType),*]
    };
}

/// Every registered game behind the object-safe interface, in listing order.
pub static GAMES: &[&'static dyn GameType] = &registered!(game_types);

/// A registered game, chosen at run time. Written as its short id (`kessel`); its environment id
/// (`kessel_sabacc_v1`) is accepted too when parsing.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameId(&'static dyn GameTypeRef);

/// `&'static dyn GameType` compared and hashed by id.
trait GameTypeRef: Send + Sync {
    fn get(&self) -> &'static dyn GameType;
}

impl PartialEq for dyn GameTypeRef {
    fn eq(&self, other: &Self) -> bool {
        self.get().id() == other.get().id()
    }
}

impl Eq for dyn GameTypeRef {}

impl std::hash::Hash for dyn GameTypeRef {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.get().id().hash(h);
    }
}

impl<G: Game> GameTypeRef for game::Registered<G> {
    fn get(&self) -> &'static dyn GameType {
        &game::Registered::<G>::NEW
    }
}

/// A game id that names no registered game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game `{}`; games: {}", self.0, GameId::names().join(", "))
    }
}

impl std::error::Error for UnknownGame {}

impl GameId {
    /// Every registered game, in listing order.
    pub fn all() -> impl Iterator<Item = GameId> {
        macro_rules! ids {
            ($($g:ty),* $(,)?) => {
                [$(GameId(&game::Registered::<$g>::NEW)),*]
            };
        }
        registered!(ids).into_iter()
    }

    /// The short ids of every registered game.
    pub fn names() -> Vec<&'static str> {
        GameId::all().map(GameId::name).collect()
    }

    /// The id of game `G`; `None` when `G` is not registered.
    pub fn of<G: Game>() -> Option<GameId> {
        GameId::all().find(|g| g.name() == G::SPEC.game)
    }

    /// The game named `s`: its short id or its environment id (`kessel_sabacc_v1`).
    pub fn parse(s: &str) -> Result<GameId, UnknownGame> {
        let s = s.trim();
        GameId::all().find(|g| g.name() == s || g.spec().id == s).ok_or_else(|| UnknownGame(s.to_string()))
    }

    /// The game whose environment id is `id`, if any.
    pub fn from_env_id(id: &str) -> Option<GameId> {
        GameId::all().find(|g| g.spec().id == id)
    }

    /// The game behind the object-safe interface.
    pub fn game_type(self) -> &'static dyn GameType {
        self.0.get()
    }

    /// The short id (`kessel`, `classic`).
    pub fn name(self) -> &'static str {
        self.game_type().id()
    }

    /// The game's environment spec.
    pub fn spec(self) -> EnvSpec {
        self.game_type().spec()
    }
}

impl Default for GameId {
    /// The first registered game (Kessel Sabacc): what configs and checkpoints written before
    /// there was a choice of game mean.
    fn default() -> GameId {
        GameId::all().next().expect("the registry lists at least one game")
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameId({})", self.name())
    }
}

impl std::str::FromStr for GameId {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<GameId, UnknownGame> {
        GameId::parse(s)
    }
}

impl serde::Serialize for GameId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for GameId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameId, D::Error> {
        let s = String::deserialize(d)?;
        GameId::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_game_parses_by_id_and_environment_id_and_round_trips() {
        assert!(GameId::all().count() >= 2);
        for g in GameId::all() {
            assert_eq!(GameId::parse(g.name()).unwrap(), g);
            assert_eq!(GameId::parse(g.spec().id).unwrap(), g);
            let json = serde_json::to_string(&g).unwrap();
            assert_eq!(json, format!("\"{}\"", g.name()));
            assert_eq!(serde_json::from_str::<GameId>(&json).unwrap(), g);
        }
        assert_eq!(GameId::default().name(), "kessel");
        assert!(serde_json::from_str::<GameId>("\"chess\"").is_err());
        let err = GameId::parse("chess").unwrap_err().to_string();
        assert!(err.contains("chess") && err.contains("kessel") && err.contains("classic"), "{err}");
        let ids: Vec<&str> = GAMES.iter().map(|g| g.id()).collect();
        assert_eq!(ids, GameId::names());
    }
}
