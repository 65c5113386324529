//! The front-end kit as a C library (`include/sabacc.h`): the calls of the WebAssembly kit —
//! create a game of any registered game, its legal actions and their names, apply, views, the
//! policy's observation and mask, events, outcome, text — plus an exported bundle's policy
//! (`policy.safetensors`) choosing actions in Rust.
//!
//! Every game call goes through the kit's [`Table`], which checks every argument; this layer
//! only converts between C and Rust. Conventions (the header says the same):
//!
//! * Every call that can fail returns a status (`SABACC_OK` = 0, else one of the `SABACC_*`
//!   codes) and writes its results through out-pointers, only on success. The message of the
//!   last failed call on the calling thread is [`sabacc_last_error`].
//! * Strings going in are NUL-terminated UTF-8. Strings coming out as `char **` are the
//!   caller's, freed with [`sabacc_string_free`]; `const char **` ones (ids, action names) are
//!   static.
//! * No panic crosses the boundary: each call runs under `catch_unwind` and reports a panic as
//!   `SABACC_PANIC` (a bug; the handles it touched should be freed).
//! * A handle is used by one thread at a time.

use game::{AgentRng, Seat};
use games::{GAMES, GameId};
use rand::SeedableRng;
use sabacc_kit::Table;
use serde_json::Value;
use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::OnceLock;

/// The call succeeded.
pub const SABACC_OK: i32 = 0;
/// An argument was refused (a bad seat, action, rules field, game id, text that is not UTF-8 or
/// JSON, a move after the end); nothing changed.
pub const SABACC_INVALID: i32 = 1;
/// A pointer argument that must not be null was null.
pub const SABACC_NULL_ARGUMENT: i32 = 2;
/// The caller's buffer is shorter than the result.
pub const SABACC_BUFFER_TOO_SMALL: i32 = 3;
/// A policy bundle could not be loaded, or does not fit the game.
pub const SABACC_LOAD_FAILED: i32 = 4;
/// A bug: the library panicked; the call was abandoned.
pub const SABACC_PANIC: i32 = 5;

/// One game in progress (opaque in C).
pub struct SabaccGame {
    table: Table,
}

/// An exported bundle's policy, seated for one game (opaque in C).
pub struct SabaccPolicy {
    game: &'static str,
    agent: Box<dyn agents::dynamic::DynAgent>,
    rng: AgentRng,
    spec: String,
    warnings: Vec<String>,
}

/// A refusal: its status and message.
struct Fail(i32, String);

type Res<T> = Result<T, Fail>;

impl From<sabacc_kit::Error> for Fail {
    fn from(e: sabacc_kit::Error) -> Fail {
        Fail(SABACC_INVALID, e.0)
    }
}

fn invalid<T>(message: impl Into<String>) -> Res<T> {
    Err(Fail(SABACC_INVALID, message.into()))
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: String) {
    let c = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs one call: its status, with the message kept for [`sabacc_last_error`], and any panic
/// caught.
fn call(f: impl FnOnce() -> Res<()>) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => SABACC_OK,
        Ok(Err(Fail(status, message))) => {
            set_last_error(message);
            status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            set_last_error(format!("internal error (a bug in the library): {what}"));
            SABACC_PANIC
        }
    }
}

/// `p` as text; `what` names the argument in the refusal.
///
/// # Safety
/// `p` is null or a NUL-terminated string that outlives the call.
unsafe fn text<'a>(p: *const c_char, what: &str) -> Res<&'a str> {
    if p.is_null() {
        return Err(Fail(SABACC_NULL_ARGUMENT, format!("{what} is null")));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str().or_else(|e| invalid(format!("{what} is not UTF-8: {e}")))
}

/// `p` as text, null allowed.
///
/// # Safety
/// As [`text`].
unsafe fn opt_text<'a>(p: *const c_char, what: &str) -> Res<Option<&'a str>> {
    if p.is_null() { Ok(None) } else { unsafe { text(p, what) }.map(Some) }
}

/// JSON text, null allowed.
///
/// # Safety
/// As [`text`].
unsafe fn opt_json(p: *const c_char, what: &str) -> Res<Option<Value>> {
    match unsafe { opt_text(p, what) }? {
        None => Ok(None),
        Some(s) => serde_json::from_str(s).map(Some).or_else(|e| invalid(format!("{what} is not JSON: {e}"))),
    }
}

/// The object behind a handle or out-pointer.
///
/// # Safety
/// `p` is null or valid for the call's duration, with no other reference to it.
unsafe fn deref<'a, T>(p: *const T, what: &str) -> Res<&'a T> {
    unsafe { p.as_ref() }.ok_or_else(|| Fail(SABACC_NULL_ARGUMENT, format!("{what} is null")))
}

/// # Safety
/// As [`deref`].
unsafe fn deref_mut<'a, T>(p: *mut T, what: &str) -> Res<&'a mut T> {
    unsafe { p.as_mut() }.ok_or_else(|| Fail(SABACC_NULL_ARGUMENT, format!("{what} is null")))
}

/// A string handed to the caller, to be freed with [`sabacc_string_free`].
fn owned(s: String) -> *mut c_char {
    CString::new(s.replace('\0', " ")).unwrap_or_default().into_raw()
}

/// NUL-terminated copies of every registered game's id and action names, made once.
struct Names {
    id: CString,
    actions: Vec<CString>,
}

fn names(id: &str) -> &'static Names {
    static NAMES: OnceLock<Vec<Names>> = OnceLock::new();
    let all = NAMES.get_or_init(|| {
        GAMES
            .iter()
            .map(|g| Names {
                id: CString::new(g.id()).unwrap_or_default(),
                actions: g.action_names().iter().map(|n| CString::new(*n).unwrap_or_default()).collect(),
            })
            .collect()
    });
    let i = GAMES.iter().position(|g| g.id() == id).unwrap_or(0);
    &all[i]
}

/// `seat` (-1: none) as the kit's optional seat.
fn optional_seat(seat: i32) -> Option<f64> {
    if seat == -1 { None } else { Some(f64::from(seat)) }
}

/// `src` copied into the caller's buffer `out` of `len` floats.
///
/// # Safety
/// `out` is null or valid for `len` floats.
unsafe fn copy_out(src: &[f32], out: *mut f32, len: usize, what: &str) -> Res<()> {
    if out.is_null() {
        return Err(Fail(SABACC_NULL_ARGUMENT, format!("{what} buffer is null")));
    }
    if len < src.len() {
        return Err(Fail(
            SABACC_BUFFER_TOO_SMALL,
            format!("the {what} has {} floats, the buffer holds {len}", src.len()),
        ));
    }
    // SAFETY: `out` holds at least `len >= src.len()` floats (caller's contract).
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), out, src.len()) };
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Errors, strings, the registry.

/// The message of the last failed call on this thread ("" if none failed). Valid until the next
/// failing call on this thread; not to be freed.
#[unsafe(no_mangle)]
pub extern "C" fn sabacc_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Frees a string the library returned through a `char **`. Null is ignored.
///
/// # Safety
/// `s` is null or a string from this library, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_string_free(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: made by `CString::into_raw` in `owned`.
        drop(unsafe { CString::from_raw(s) });
    }
}

/// The registered games' short ids, as a JSON array.
///
/// # Safety
/// `out_json` is null or a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_ids(out_json: *mut *mut c_char) -> i32 {
    call(|| {
        let out = unsafe { deref_mut(out_json, "out_json") }?;
        *out = owned(Value::from(sabacc_kit::game_ids()).to_string());
        Ok(())
    })
}

/// What a front-end needs to know about a game (the kit's `gameInfo`), as a JSON object.
///
/// # Safety
/// `game` is a NUL-terminated string; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_info(game: *const c_char, out_json: *mut *mut c_char) -> i32 {
    call(|| {
        let info = sabacc_kit::game_info(unsafe { text(game, "game") }?)?;
        *unsafe { deref_mut(out_json, "out_json") }? = owned(info.to_string());
        Ok(())
    })
}

/// The rules `rules_json` (null: the defaults) at `seats` seats (0: as the rules say) completed
/// from the defaults, as JSON.
///
/// # Safety
/// `game` is a NUL-terminated string, `rules_json` null or one; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_resolve_rules(
    game: *const c_char,
    rules_json: *const c_char,
    seats: u32,
    out_json: *mut *mut c_char,
) -> i32 {
    call(|| {
        let game = unsafe { text(game, "game") }?;
        let rules = unsafe { opt_json(rules_json, "rules_json") }?;
        let seats = (seats != 0).then_some(f64::from(seats));
        let resolved = sabacc_kit::resolve_rules(game, rules.as_ref(), seats)?;
        *unsafe { deref_mut(out_json, "out_json") }? = owned(resolved.to_string());
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------------
// A game.

/// A new game of `game` (short id `kessel` or environment id) under `rules_json` (null: the
/// defaults; fields given override them) at `seats` seats (0: as the rules say), dealt from
/// `seed`. The event log is on.
///
/// # Safety
/// `game` is a NUL-terminated string, `rules_json` null or one; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_new(
    game: *const c_char,
    rules_json: *const c_char,
    seats: u32,
    seed: u64,
    out: *mut *mut SabaccGame,
) -> i32 {
    call(|| {
        let game = unsafe { text(game, "game") }?;
        let rules = unsafe { opt_json(rules_json, "rules_json") }?;
        let out = unsafe { deref_mut(out, "out") }?;
        let seats = (seats != 0).then_some(f64::from(seats));
        let table = Table::new(game, rules.as_ref(), seats, seed)?;
        *out = Box::into_raw(Box::new(SabaccGame { table }));
        Ok(())
    })
}

/// Frees a game. Null is ignored.
///
/// # Safety
/// `game` is null or a game from [`sabacc_game_new`] or [`sabacc_game_clone`], not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_free(game: *mut SabaccGame) {
    if !game.is_null() {
        // The drop runs the engine's destructors: no unwinding out of here either.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(game) })));
    }
}

/// A copy of `game` to try moves on (free it too).
///
/// # Safety
/// `game` is a live game; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_clone(game: *const SabaccGame, out: *mut *mut SabaccGame) -> i32 {
    call(|| {
        let table = unsafe { deref(game, "game") }?.table.clone();
        *unsafe { deref_mut(out, "out") }? = Box::into_raw(Box::new(SabaccGame { table }));
        Ok(())
    })
}

/// The game's short id (static).
///
/// # Safety
/// `game` is a live game; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_id(game: *const SabaccGame, out: *mut *const c_char) -> i32 {
    call(|| {
        let id = unsafe { deref(game, "game") }?.table.game_id();
        *unsafe { deref_mut(out, "out") }? = names(id).id.as_ptr();
        Ok(())
    })
}

/// Seats at the table.
///
/// # Safety
/// `game` is a live game; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_players(game: *const SabaccGame, out: *mut u32) -> i32 {
    call(|| {
        let players = unsafe { deref(game, "game") }?.table.players();
        *unsafe { deref_mut(out, "out") }? = u32::from(players);
        Ok(())
    })
}

/// The length of an observation (the policy's `obs` input) and the number of actions (of a
/// mask): the buffers [`sabacc_game_observation`] and [`sabacc_game_mask`] fill. Either
/// out-pointer may be null.
///
/// # Safety
/// `game` is a live game; the out-pointers null or valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_sizes(
    game: *const SabaccGame,
    obs_len: *mut usize,
    num_actions: *mut usize,
) -> i32 {
    call(|| {
        let spec = unsafe { deref(game, "game") }?.table.dyn_game().game_type().spec();
        if let Some(o) = unsafe { obs_len.as_mut() } {
            *o = spec.obs_len;
        }
        if let Some(n) = unsafe { num_actions.as_mut() } {
            *n = spec.num_actions;
        }
        Ok(())
    })
}

/// The seat to act, or -1 once the game is over.
///
/// # Safety
/// `game` is a live game; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_current_player(game: *const SabaccGame, out: *mut i32) -> i32 {
    call(|| {
        let seat = unsafe { deref(game, "game") }?.table.current_player();
        *unsafe { deref_mut(out, "out") }? = seat.map_or(-1, i32::from);
        Ok(())
    })
}

/// 1 once the game is over, else 0.
///
/// # Safety
/// `game` is a live game; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_is_over(game: *const SabaccGame, out: *mut i32) -> i32 {
    call(|| {
        let over = unsafe { deref(game, "game") }?.table.is_over();
        *unsafe { deref_mut(out, "out") }? = i32::from(over);
        Ok(())
    })
}

/// The acting seat's legal action indices, increasing, into `out` (room for `capacity`);
/// `*count` is set to their number in any case, so a call with capacity 0 asks for it (a buffer of
/// the game's number of actions always suffices). `SABACC_BUFFER_TOO_SMALL` if they do not fit.
///
/// # Safety
/// `game` is a live game; `out` null or valid for `capacity` values; `count` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_legal_actions(
    game: *const SabaccGame,
    out: *mut u32,
    capacity: usize,
    count: *mut usize,
) -> i32 {
    call(|| {
        let legal = unsafe { deref(game, "game") }?.table.legal_actions();
        *unsafe { deref_mut(count, "count") }? = legal.len();
        if legal.len() > capacity {
            return Err(Fail(
                SABACC_BUFFER_TOO_SMALL,
                format!("{} legal actions, the buffer holds {capacity}", legal.len()),
            ));
        }
        if !legal.is_empty() {
            if out.is_null() {
                return Err(Fail(SABACC_NULL_ARGUMENT, "out is null".into()));
            }
            // SAFETY: `out` holds `capacity >= legal.len()` values.
            unsafe { std::ptr::copy_nonoverlapping(legal.as_ptr(), out, legal.len()) };
        }
        Ok(())
    })
}

/// The acting seat's legal actions with their names, as JSON: `[{"index": …, "name": …}]`.
///
/// # Safety
/// `game` is a live game; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_legal_json(game: *const SabaccGame, out_json: *mut *mut c_char) -> i32 {
    call(|| {
        let legal = unsafe { deref(game, "game") }?.table.legal();
        *unsafe { deref_mut(out_json, "out_json") }? = owned(legal.to_string());
        Ok(())
    })
}

/// The name of action `index` (static).
///
/// # Safety
/// `game` is a live game; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_action_name(game: *const SabaccGame, index: u32, out: *mut *const c_char) -> i32 {
    call(|| {
        let table = &unsafe { deref(game, "game") }?.table;
        table.action_name(f64::from(index))?;
        *unsafe { deref_mut(out, "out") }? = names(table.game_id()).actions[index as usize].as_ptr();
        Ok(())
    })
}

/// The index of the action named `name`.
///
/// # Safety
/// `game` is a live game; `name` a NUL-terminated string; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_action_index(game: *const SabaccGame, name: *const c_char, out: *mut u32) -> i32 {
    call(|| {
        let index = unsafe { deref(game, "game") }?.table.action_index(unsafe { text(name, "name") }?)?;
        *unsafe { deref_mut(out, "out") }? = index;
        Ok(())
    })
}

/// Plays the acting seat's action `index`; refused (nothing changes) when it is outside the
/// action space, illegal here, or the game is over.
///
/// # Safety
/// `game` is a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_apply(game: *mut SabaccGame, index: u32) -> i32 {
    call(|| Ok(unsafe { deref_mut(game, "game") }?.table.apply(f64::from(index))?))
}

/// Plays the acting seat's action named `name` (`stand`, `draw:sand-deck`, …).
///
/// # Safety
/// `game` is a live game; `name` a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_apply_named(game: *mut SabaccGame, name: *const c_char) -> i32 {
    call(|| {
        let name = unsafe { text(name, "name") }?;
        Ok(unsafe { deref_mut(game, "game") }?.table.apply_named(name)?)
    })
}

/// What `seat` may see, as the game's JSON (the encoder's only input).
///
/// # Safety
/// `game` is a live game; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_view(game: *const SabaccGame, seat: u32, out_json: *mut *mut c_char) -> i32 {
    call(|| {
        let view = unsafe { deref(game, "game") }?.table.view(f64::from(seat))?;
        *unsafe { deref_mut(out_json, "out_json") }? = owned(view.to_string());
        Ok(())
    })
}

/// `seat`'s observation, the policy's `obs` input: obs_len floats ([`sabacc_game_sizes`]) into
/// `out`, which holds `len`.
///
/// # Safety
/// `game` is a live game; `out` valid for `len` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_observation(game: *const SabaccGame, seat: u32, out: *mut f32, len: usize) -> i32 {
    call(|| {
        let obs = unsafe { deref(game, "game") }?.table.observation(f64::from(seat))?;
        unsafe { copy_out(&obs, out, len, "observation") }
    })
}

/// `seat`'s legal-action mask, the policy's `mask` input: one float per action ([`sabacc_game_sizes`]),
/// 1 legal and 0 illegal; the acting seat's legal actions, zeros for another seat and once over.
/// `seat` -1: the acting seat.
///
/// # Safety
/// `game` is a live game; `out` valid for `len` floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_mask(game: *const SabaccGame, seat: i32, out: *mut f32, len: usize) -> i32 {
    call(|| {
        let mask = unsafe { deref(game, "game") }?.table.mask(optional_seat(seat))?;
        unsafe { copy_out(&mask, out, len, "mask") }
    })
}

/// Switches the event log on (non-zero) or off.
///
/// # Safety
/// `game` is a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_set_event_logging(game: *mut SabaccGame, on: i32) -> i32 {
    call(|| {
        unsafe { deref_mut(game, "game") }?.table.set_event_logging(on != 0);
        Ok(())
    })
}

/// Entries in the event log.
///
/// # Safety
/// `game` is a live game; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_event_count(game: *const SabaccGame, out: *mut usize) -> i32 {
    call(|| {
        let n = unsafe { deref(game, "game") }?.table.event_count();
        *unsafe { deref_mut(out, "out") }? = n;
        Ok(())
    })
}

/// The event log from entry `from` on as `seat` may see it (-1: a spectator), as a JSON array.
///
/// # Safety
/// `game` is a live game; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_events(
    game: *const SabaccGame,
    seat: i32,
    from: usize,
    out_json: *mut *mut c_char,
) -> i32 {
    call(|| {
        let events = unsafe { deref(game, "game") }?.table.events(optional_seat(seat), Some(from as f64))?;
        *unsafe { deref_mut(out_json, "out_json") }? = owned(events.to_string());
        Ok(())
    })
}

/// How the game stands, as JSON `{over, truncated, winners, reward, rewards, progress,
/// progressUnit}`; rewards under `reward` (`win-loss`, `placement`, `payoff`; null: the game's).
///
/// # Safety
/// `game` is a live game; `reward` null or a NUL-terminated string; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_outcome(
    game: *const SabaccGame,
    reward: *const c_char,
    out_json: *mut *mut c_char,
) -> i32 {
    call(|| {
        let reward = unsafe { opt_text(reward, "reward") }?;
        let outcome = unsafe { deref(game, "game") }?.table.outcome(reward)?;
        *unsafe { deref_mut(out_json, "out_json") }? = owned(outcome.to_string());
        Ok(())
    })
}

/// The position as text: `seat`'s picture, or the whole table (-1; hidden cards shown).
///
/// # Safety
/// `game` is a live game; `out` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_render(game: *const SabaccGame, seat: i32, out: *mut *mut c_char) -> i32 {
    call(|| {
        let text = unsafe { deref(game, "game") }?.table.render(optional_seat(seat))?;
        *unsafe { deref_mut(out, "out") }? = owned(text);
        Ok(())
    })
}

/// The rules in force, as JSON.
///
/// # Safety
/// `game` is a live game; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_rules(game: *const SabaccGame, out_json: *mut *mut c_char) -> i32 {
    call(|| {
        let rules = unsafe { deref(game, "game") }?.table.rules();
        *unsafe { deref_mut(out_json, "out_json") }? = owned(rules.to_string());
        Ok(())
    })
}

/// The engine's whole state as JSON text, hidden cards included (the referee's; the text a
/// bundle's `reference.json` records as `state_json`).
///
/// # Safety
/// `game` is a live game; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_game_state_json(game: *const SabaccGame, out_json: *mut *mut c_char) -> i32 {
    call(|| {
        let state = unsafe { deref(game, "game") }?.table.state_json();
        *unsafe { deref_mut(out_json, "out_json") }? = owned(state);
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------------
// A bundle's policy.

/// Loads the exported bundle in folder `bundle_dir` (`sabacc export`; it needs its
/// `policy.safetensors`, checked against the contract's checksum) as a player of `game`.
/// Refused, `SABACC_LOAD_FAILED`, when the contract is not `game`'s (environment id, observation
/// and action spaces) or the files do not load. `selection`: `argmax` (the most probable legal
/// action, ties to the lowest index), `sample` (drawn from the policy), `level` (a level bundle's
/// rule: with its contract's mistake rate a uniformly random legal action, else argmax), or null:
/// `level` for a level's bundle, else `argmax`. `seed` seeds the policy's random choices.
///
/// # Safety
/// `game` and `bundle_dir` are NUL-terminated strings, `selection` null or one; `out` a valid
/// out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_policy_load(
    game: *const c_char,
    bundle_dir: *const c_char,
    selection: *const c_char,
    seed: u64,
    out: *mut *mut SabaccPolicy,
) -> i32 {
    call(|| {
        let id = unsafe { text(game, "game") }?;
        let dir = unsafe { text(bundle_dir, "bundle_dir") }?;
        let selection = unsafe { opt_text(selection, "selection") }?;
        let out = unsafe { deref_mut(out, "out") }?;
        let policy = load_policy(id, dir, selection, seed)?;
        *out = Box::into_raw(Box::new(policy));
        Ok(())
    })
}

fn load_policy(id: &str, dir: &str, selection: Option<&str>, seed: u64) -> Res<SabaccPolicy> {
    let g = sabacc_kit::table::game_type(id)?;
    let load_failed = |m: String| Fail(SABACC_LOAD_FAILED, m);
    let contract = policy::export::read_contract(Path::new(dir)).map_err(|e| load_failed(e.to_string()))?;
    if contract.env_id != g.spec().id {
        return Err(load_failed(format!(
            "{dir}: the bundle plays {}, but the game is {} ({}): a network only plays the game it was trained on",
            contract.env_id,
            g.id(),
            g.spec().id
        )));
    }
    let selection = match selection {
        None if contract.level.is_some() => "level",
        None => "argmax",
        Some(s @ ("argmax" | "sample" | "level")) => s,
        Some(other) => return invalid(format!("selection must be argmax, sample or level, got `{other}`")),
    };
    let game_id = GameId::parse(g.id()).map_err(|e| Fail(SABACC_INVALID, e.to_string()))?;
    let rules = g.resolve_rules(None, None).map_err(|e| Fail(SABACC_INVALID, e.to_string()))?;
    let spec = format!("{dir}@{selection}");
    let seated = agents::dynamic::for_game(game_id)
        .seat(shared_agents(), &spec, &rules)
        .map_err(|e| load_failed(e.to_string()))?;
    Ok(SabaccPolicy {
        game: g.id(),
        agent: seated.agent,
        rng: AgentRng::seed_from_u64(seed),
        spec: seated.spec,
        warnings: seated.warnings,
    })
}

/// One loader for every policy: a bundle folder is read once.
fn shared_agents() -> &'static agents::Agents {
    static AGENTS: OnceLock<agents::Agents> = OnceLock::new();
    AGENTS.get_or_init(agents::Agents::new)
}

/// Frees a policy. Null is ignored.
///
/// # Safety
/// `policy` is null or a policy from [`sabacc_policy_load`], not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_policy_free(policy: *mut SabaccPolicy) {
    if !policy.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(policy) })));
    }
}

/// The policy's choice for the seat to act at `game` (which it does not change: apply it with
/// [`sabacc_game_apply`]). Refused for a game over, or of another game than the policy's.
///
/// # Safety
/// `policy` and `game` are live handles; `action` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_policy_act(
    policy: *mut SabaccPolicy,
    game: *const SabaccGame,
    action: *mut u32,
) -> i32 {
    call(|| {
        let policy = unsafe { deref_mut(policy, "policy") }?;
        let table = &unsafe { deref(game, "game") }?.table;
        let out = unsafe { deref_mut(action, "action") }?;
        if table.game_id() != policy.game {
            return invalid(format!("this policy plays {}, the game is {}", policy.game, table.game_id()));
        }
        let Some(seat) = table.current_player() else { return invalid("the game is over: no seat is to act") };
        let chosen =
            policy.agent.act(table.dyn_game(), Seat(seat), &mut policy.rng).or_else(|e| invalid(e.to_string()))?;
        *out = chosen as u32;
        Ok(())
    })
}

/// What the policy is, as JSON: `{"game", "agent" (its spec: folder and selection), "warnings"
/// (why it may play below its figures under the game's default rules)}`.
///
/// # Safety
/// `policy` is a live policy; `out_json` a valid out-pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sabacc_policy_describe(policy: *const SabaccPolicy, out_json: *mut *mut c_char) -> i32 {
    call(|| {
        let p = unsafe { deref(policy, "policy") }?;
        let v = serde_json::json!({"game": p.game, "agent": p.spec, "warnings": p.warnings});
        *unsafe { deref_mut(out_json, "out_json") }? = owned(v.to_string());
        Ok(())
    })
}
