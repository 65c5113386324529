//! The bindings' one dispatch from a game named at run time (a `game=` argument, a vector env's
//! game) to its type, and the Python class that holds one game of each kind. A new game adds its
//! [`Registered`] impl and its arm here.

use crate::game::{ClassicGame, Game};
use crate::games::{GameClass, PyGame};
use env::{Classic, Kessel};

/// A game the bindings play, with the Python class of one game of it (which agents act on).
pub trait Registered: PyGame {
    /// `Game` or `ClassicGame`.
    type Class: pyo3::PyClass + GameClass<Self>;
}

impl Registered for Kessel {
    type Class = Game;
}

impl Registered for Classic {
    type Class = ClassicGame;
}

/// Work generic over the game, for a game named at run time (a `game=` argument): the
/// bindings' one dispatch, [`for_py_game`] runs it with that game's type.
pub trait ForPyGame {
    /// What the work gives.
    type Out;
    /// Does the work for game `G`.
    fn run<G: Registered>(self) -> Self::Out;
}

/// Runs `work` for `game`.
pub fn for_py_game<W: ForPyGame>(game: env::GameId, work: W) -> W::Out {
    match game {
        env::GameId::Kessel => work.run::<Kessel>(),
        env::GameId::Classic => work.run::<Classic>(),
    }
}
