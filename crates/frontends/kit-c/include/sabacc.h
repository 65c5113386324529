/*
 * sabacc.h: the front-end kit as a C library (crates/frontends/kit-c, docs/frontends.md).
 *
 * Every registered game's rules engine, observation encoder and legal-action masks, and an
 * exported policy bundle (`sabacc export`) choosing actions, for native front-ends (Godot, Unity,
 * C and C++ engines). Link with libsabacc_c (.so, .dylib; sabacc_c.dll on Windows).
 *
 * Conventions:
 *  - Every call that can fail returns a status: SABACC_OK (0) or one of the SABACC_* codes
 *    below. Results are written through out-pointers, only on success. sabacc_last_error() is
 *    the message of the last failed call on the calling thread.
 *  - Strings going in are NUL-terminated UTF-8. Strings coming out through `char **` belong to
 *    the caller: free them with sabacc_string_free(). Strings coming out through `const char **`
 *    (game ids, action names) are static.
 *  - Seats are 0-based; where a seat is optional (int32_t), -1 means none: the acting seat
 *    (masks) or a spectator (events, render).
 *  - A handle is used by one thread at a time. No call panics across the boundary; a
 *    SABACC_PANIC status is a bug in the library.
 *
 * The declarations are checked against the Rust source by crates/frontends/kit-c/tests/c_api.rs.
 */
#ifndef SABACC_H
#define SABACC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Statuses. */
#define SABACC_OK 0               /* the call succeeded */
#define SABACC_INVALID 1          /* an argument was refused; nothing changed */
#define SABACC_NULL_ARGUMENT 2    /* a pointer that must not be null was null */
#define SABACC_BUFFER_TOO_SMALL 3 /* the caller's buffer is shorter than the result */
#define SABACC_LOAD_FAILED 4      /* a bundle did not load, or does not fit the game */
#define SABACC_PANIC 5            /* a bug in the library; the call was abandoned */

/* One game in progress. */
typedef struct SabaccGame SabaccGame;
/* An exported bundle's policy, seated for one game. */
typedef struct SabaccPolicy SabaccPolicy;

/* Errors, strings, the registry. */

/* The last failed call's message on this thread ("" if none); valid until the next failure. */
const char *sabacc_last_error(void);
/* Frees a string returned through a `char **`. Null is ignored. */
void sabacc_string_free(char *s);
/* The registered games' short ids, as a JSON array: ["kessel","classic","leduc"]. */
int32_t sabacc_game_ids(char **out_json);
/* A game's ids, obsLength, numActions, actionNames, seats, defaultRules, observation layout. */
int32_t sabacc_game_info(const char *game, char **out_json);
/* rules_json (NULL: the defaults) at `seats` seats (0: as the rules say), completed. */
int32_t sabacc_resolve_rules(const char *game, const char *rules_json, uint32_t seats, char **out_json);

/* A game. */

/* A new game: `game` a short id ("kessel") or environment id; rules_json NULL or JSON whose
 * fields override the defaults; seats 0 for the rules' number; the deal from `seed`. */
int32_t sabacc_game_new(const char *game, const char *rules_json, uint32_t seats, uint64_t seed, SabaccGame **out);
void sabacc_game_free(SabaccGame *game);
int32_t sabacc_game_clone(const SabaccGame *game, SabaccGame **out);
int32_t sabacc_game_id(const SabaccGame *game, const char **out);
int32_t sabacc_game_players(const SabaccGame *game, uint32_t *out);
/* The observation's length and the number of actions (the mask's); either pointer may be NULL. */
int32_t sabacc_game_sizes(const SabaccGame *game, size_t *obs_len, size_t *num_actions);
/* The seat to act, -1 once the game is over. */
int32_t sabacc_game_current_player(const SabaccGame *game, int32_t *out);
int32_t sabacc_game_is_over(const SabaccGame *game, int32_t *out);
/* Legal action indices, increasing; *count is always set (capacity num_actions suffices). */
int32_t sabacc_game_legal_actions(const SabaccGame *game, uint32_t *out, size_t capacity, size_t *count);
/* Legal actions with names, as JSON: [{"index": 0, "name": "stand"}, ...]. */
int32_t sabacc_game_legal_json(const SabaccGame *game, char **out_json);
int32_t sabacc_game_action_name(const SabaccGame *game, uint32_t index, const char **out);
int32_t sabacc_game_action_index(const SabaccGame *game, const char *name, uint32_t *out);
/* Plays the acting seat's action; refused, nothing changed, if illegal or the game is over. */
int32_t sabacc_game_apply(SabaccGame *game, uint32_t index);
int32_t sabacc_game_apply_named(SabaccGame *game, const char *name);
/* What `seat` may see, as JSON. */
int32_t sabacc_game_view(const SabaccGame *game, uint32_t seat, char **out_json);
/* The policy's `obs` input for `seat`: obs_len floats into `out` (holding `len`). */
int32_t sabacc_game_observation(const SabaccGame *game, uint32_t seat, float *out, size_t len);
/* The policy's `mask` input: num_actions floats, 1 legal, 0 not; zeros for a seat not to act. */
int32_t sabacc_game_mask(const SabaccGame *game, int32_t seat, float *out, size_t len);
int32_t sabacc_game_set_event_logging(SabaccGame *game, int32_t on);
int32_t sabacc_game_event_count(const SabaccGame *game, size_t *out);
/* The event log from entry `from` on as `seat` may see it (-1: a spectator), a JSON array. */
int32_t sabacc_game_events(const SabaccGame *game, int32_t seat, size_t from, char **out_json);
/* {over, truncated, winners, reward, rewards, progress, progressUnit}; reward NULL, "win-loss",
 * "placement" or "payoff". */
int32_t sabacc_game_outcome(const SabaccGame *game, const char *reward, char **out_json);
/* The position as text: `seat`'s picture, or the whole table (-1). */
int32_t sabacc_game_render(const SabaccGame *game, int32_t seat, char **out);
int32_t sabacc_game_rules(const SabaccGame *game, char **out_json);
/* The engine's whole state as JSON text, hidden cards included. */
int32_t sabacc_game_state_json(const SabaccGame *game, char **out_json);

/* A bundle's policy. */

/* Loads the bundle folder (its policy.safetensors) as a player of `game`; SABACC_LOAD_FAILED
 * for a contract of another game or files that do not load. selection: "argmax", "sample",
 * "level" (a level bundle's mistake rate), or NULL (level for a level's bundle, else argmax);
 * `seed` seeds its random choices. */
int32_t sabacc_policy_load(const char *game, const char *bundle_dir, const char *selection, uint64_t seed, SabaccPolicy **out);
void sabacc_policy_free(SabaccPolicy *policy);
/* The policy's action for the seat to act (apply it with sabacc_game_apply). */
int32_t sabacc_policy_act(SabaccPolicy *policy, const SabaccGame *game, uint32_t *action);
/* {"game", "agent", "warnings"} as JSON. */
int32_t sabacc_policy_describe(const SabaccPolicy *policy, char **out_json);

#ifdef __cplusplus
}
#endif

#endif /* SABACC_H */
